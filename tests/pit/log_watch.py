"""The public log watched from outside while a room fails over (PIT.md §9 with §8): two `witness serve`
processes, each behind a relay that keeps every checkpoint the witness cosigned; every checkpoint a
pit published, read from its /log/checkpoint as it changes; and at the end, every two of them joined by
a consistency proof computed from the tree the log's own entry bundles rebuild, and `log audit` passing."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import combinations
from pathlib import Path

from pit.tlog.audit import read_entries
from pit.tlog.checkpoint import Checkpoint, open_checkpoint
from pit.tlog.errors import TlogError
from pit.tlog.keyfile import write_new_key
from pit.tlog.keys import SignatureType
from pit.tlog.log_command import main as log_command
from pit.tlog.merkle import MemoryTree, consistency_proof, leaf_hash, verify_consistency
from pit.tlog.note import NoteVerifier
from pit.tlog.policy import Policy
from pit.tlog.witness.request import AddCheckpoint
from pit.tlog.witness.state import WitnessState
from tests.pit.test_public_log import WitnessProcess

ORIGIN = "pit.failover.example/da-log"
INTERVAL_S = 0.5


class RecordingWitness:
    """A witness process behind an HTTP relay on its own port that keeps each checkpoint note the witness
    answered 200 to: what it cosigned, every one, where its state file keeps only the latest."""

    def __init__(self, folder: Path, n: int, log_vkey: str) -> None:
        self.name = f"witness-{n}"
        self.state = folder / f"w{n}.db"
        self.vkey = write_new_key(folder / f"w{n}.key", f"{self.name}.test", SignatureType.COSIGNATURE_V1).verifier()
        self.process = WitnessProcess(folder / f"w{n}.key", self.state, log_vkey).start()
        self.cosigned: list[bytes] = []
        recorder = self

        class Relay(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                request = urllib.request.Request(
                    f"http://127.0.0.1:{recorder.process.port}{self.path}", data=body, method="POST"
                )
                try:
                    with urllib.request.urlopen(request, timeout=10) as answer:
                        status, kind, reply = answer.status, answer.headers.get("Content-Type", ""), answer.read()
                except urllib.error.HTTPError as error:
                    status, kind, reply = error.code, error.headers.get("Content-Type", ""), error.read()
                if status == 200:
                    recorder.cosigned.append(AddCheckpoint.parse(body).checkpoint)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.relay = ThreadingHTTPServer(("127.0.0.1", 0), Relay)
        threading.Thread(target=self.relay.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.relay.server_address[1]}"

    def stop(self) -> None:
        self.relay.shutdown()
        self.relay.server_close()
        if self.process.process is not None and self.process.process.poll() is None:
            self.process.kill()


@dataclass
class WatchedLog:
    """The log's key and policy for every pit, its two recorded witnesses, and the published checkpoints
    seen at each pit's /log/checkpoint (polled until `close`)."""

    folder: Path
    witnesses: list[RecordingWitness] = field(default_factory=list)
    published: set[bytes] = field(default_factory=set)
    bases: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.key = write_new_key(self.folder / "log.key", ORIGIN, SignatureType.ED25519)
        self.witnesses = [RecordingWitness(self.folder, n, str(self.key.verifier())) for n in (1, 2)]
        lines = [
            f"log {self.key.verifier()}",
            *(f"witness {w.name} {w.vkey} {w.url}" for w in self.witnesses),
            "group any-one any witness-1 witness-2",
            "quorum any-one",
        ]
        self.policy_file = self.folder / "policy.txt"
        self.policy_file.write_text("\n".join(lines) + "\n")
        self.policy = Policy.parse(self.policy_file.read_bytes())
        self._stop = threading.Event()
        self._poller = threading.Thread(target=self._poll, daemon=True)
        self._poller.start()

    def serve_options(self) -> tuple[str, ...]:
        """`pit serve`'s options for this log: the same key and policy on every pit."""
        return (
            "--log-key",
            str(self.folder / "log.key"),
            "--log-policy",
            str(self.policy_file),
            "--log-interval",
            str(INTERVAL_S),
        )

    def watch(self, base: str) -> None:
        self.bases.append(base)

    def latest(self, base: str) -> Checkpoint | None:
        """The checkpoint `base` publishes now (verified by the policy), or None."""
        try:
            with urllib.request.urlopen(base + "/log/checkpoint", timeout=2) as answer:
                note: bytes = answer.read()
        except (urllib.error.URLError, OSError):
            return None
        self.published.add(note)
        return self.policy.verify(note)[0]

    def _poll(self) -> None:
        while not self._stop.wait(0.1):
            for base in list(self.bases):
                try:
                    self.latest(base)
                except TlogError:  # kept in `published`, and refused again by `assert_one_history`
                    pass

    def close(self) -> None:
        self._stop.set()
        self._poller.join(5)
        for witness in self.witnesses:
            witness.stop()

    def assert_one_history(self, base: str, audit_state: Path) -> list[Checkpoint]:
        """Every checkpoint a witness cosigned and every one published, each signed by the log, and every two
        (in size order) joined by a consistency proof from the tree that `base`'s entry bundles rebuild up
        to its published checkpoint; no witness kept evidence of an inconsistent one; `log audit` passes.
        Returns the checkpoints, in size order."""
        final = self.latest(base)
        assert final is not None, f"{base} publishes no checkpoint"
        logs = [NoteVerifier(log.key) for log in self.policy.logs]
        for note in self.published:
            self.policy.verify(note)
        notes = self.published | {note for w in self.witnesses for note in w.cosigned}
        seen = sorted({open_checkpoint(note, logs)[0] for note in notes}, key=lambda c: (c.size, c.root))
        assert seen[-1].size == final.size, f"a checkpoint of {seen[-1].size} leaves past the published {final.size}"
        tree = MemoryTree([leaf_hash(text) for text in read_entries(base + "/log/", 0, final.size)])
        for old, new in combinations(seen, 2):
            verify_consistency(old.size, new.size, old.root, new.root, consistency_proof(tree, old.size, new.size))
        for witness in self.witnesses:
            state = WitnessState(witness.state)
            try:
                assert state.evidence() == [], f"{witness.name} kept evidence of an inconsistent checkpoint"
                latest = state.latest(ORIGIN)
                assert witness.cosigned and latest is not None
                assert latest.size == max(open_checkpoint(n, logs)[0].size for n in witness.cosigned)
            finally:
                state.close()
        audited = log_command(["audit", base + "/log/", "--policy", str(self.policy_file), "--state", str(audit_state)])
        assert audited == 0
        return seen

"""The room's public log end to end (PIT.md §9): bench journals ingested by a pit keeping the log, two
witness processes (one killed and started again), a round's proof file from the store verified offline,
and the tamper matrix: each change to the proof file fails at the step it breaks."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.journal.journal_file import Record, RecordKind, read_records
from pit.service.log.keeper import LogKeeper, LogSettings
from pit.service.log.reading import LogReader, NoLog, Published
from pit.service.store.pit_store import PitStore
from pit.service.web.serve import web_config
from pit.tlog.keyfile import write_new_key
from pit.tlog.keys import SignatureType, SignerKey
from pit.tlog.log_command import main as log_command
from pit.tlog.note import Note, sign_text
from pit.tlog.policy import Policy
from pit.tlog.proof_command import main as proof
from pit.trial.local_services import NatsServer, PostgresCluster, free_port
from tests.pit.journals import bench_journal, messages, rewrite, ship
from tests.pit.pit_service import fresh_database, running_ingest, wait_for

pytestmark = pytest.mark.slow
ORIGIN = "pit.test-room.example/da-log"


class WitnessProcess:
    """`dealer-assist witness serve` as its own process, on one port and one state file throughout."""

    def __init__(self, key: Path, state: Path, log_vkey: str) -> None:
        self.port = free_port()
        self.command = [
            sys.executable,
            "-m",
            "ui.cli",
            "witness",
            "serve",
            "--key",
            str(key),
            "--state",
            str(state),
            "--log",
            log_vkey,
            "--http",
            f"127.0.0.1:{self.port}",
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> WitnessProcess:
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        assert self.process.stdout is not None
        assert b"serving" in self.process.stdout.readline()
        return self

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()


@contextmanager
def _room_log(tmp_path: Path) -> Iterator[tuple[SignerKey, Policy, Path, list[WitnessProcess]]]:
    key = write_new_key(tmp_path / "log.key", ORIGIN, SignatureType.ED25519)
    witnesses, lines = [], [f"log {key.verifier()}"]
    for n in (1, 2):
        vkey = write_new_key(tmp_path / f"w{n}.key", f"witness-{n}.test", SignatureType.COSIGNATURE_V1).verifier()
        witness = WitnessProcess(tmp_path / f"w{n}.key", tmp_path / f"w{n}.db", str(key.verifier())).start()
        witnesses.append(witness)
        lines.append(f"witness witness-{n} {vkey} http://127.0.0.1:{witness.port}")
    lines += ["group any-one any witness-1 witness-2", "quorum any-one"]
    policy_file = tmp_path / "policy.txt"
    policy_file.write_text("\n".join(lines) + "\n")
    try:
        yield key, Policy.parse(policy_file.read_bytes()), policy_file, witnesses
    finally:
        for witness in witnesses:
            if witness.process is not None and witness.process.poll() is None:
                witness.kill()


def _published(reader: LogReader, least: int) -> Published | None:
    try:
        published = reader.published()
    except NoLog:
        return None
    return published if published.size >= least else None


def _cosigners(note: bytes) -> set[str]:
    return {s.name for s in Note.parse(note).signatures} - {ORIGIN}


def test_a_round_is_proven_from_the_store_with_a_witness_killed_and_restarted_and_verified_offline(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    reader = LogReader(store.pool)
    with _room_log(tmp_path) as (key, policy, policy_file, witnesses):
        keeper = LogKeeper(dsn, LogSettings(key, policy, interval_s=0.5))
        found = messages(bench_journal(tmp_path / "t1.db", 6, 1, "T1"), "T1")
        journal = found[0].journal
        with running_ingest(nats_server.url, dsn, store.pit_identity().seed, log=keeper):
            ship(nats_server.url, found[: len(found) // 2])
            published = wait_for(lambda: _published(reader, 1), what="a published checkpoint with leaves")
            witnesses[0].kill()  # witness-1 down: witness-2 alone meets the quorum
            ship(nats_server.url, found)
            wait_for(lambda: _published(reader, 6), what="every round's leaf published")
            assert _cosigners(reader.published().note) == {"witness-2.test"}
            witnesses[0].start()  # the same state file: it goes on from what it cosigned, learned from its 409
            wait_for(
                lambda: _cosigners(reader.published().note) == {"witness-1.test", "witness-2.test"},
                timeout=30,
                what="both witnesses cosigning again",
            )
        assert published.size >= 1
        with pytest.raises(NoLog) as unknown:
            reader.round_proof(journal, 99)
        assert unknown.value.status == 404
        file = tmp_path / "round-3.json"
        file.write_text(json.dumps(reader.round_proof(journal, 3)))
        capsys.readouterr()
        assert proof(["verify", str(file), "--policy", str(policy_file)]) == 0
        line = capsys.readouterr().out
        assert line.startswith("round 3 proven: leaf 2 of 6; cosigned by witness-1 at") and "witness-2 at" in line
        assert proof(["verify", str(file), "--policy", str(policy_file), "--settle"]) == 0
        assert capsys.readouterr().out.endswith("; its ledger replays from its records\n")
        _tamper_matrix(file, policy_file, capsys)
        assert _leaves(store) == [(journal, r) for r in range(1, 7)]
    store.close()


def _leaves(store: PitStore) -> list[tuple[str, int]]:
    with store.pool.connection() as conn:
        return [(j, int(r)) for j, r in conn.execute("SELECT journal, round_id FROM log_leaves ORDER BY idx")]


def _all_published(store: PitStore, reader: LogReader, journal: str, rounds: int) -> bool:
    leaves = _leaves(store)
    published = _published(reader, len(leaves))
    return sum(j == journal for j, _ in leaves) == rounds and published is not None and published.size == len(leaves)


def _tamper_matrix(file: Path, policy_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    original = json.loads(file.read_text())
    tlog = original["tlog_proof"]
    head, checkpoint = tlog.split("\n\n", 1)
    text, signatures = checkpoint.split("\n\n", 1)
    proof_lines = head.split("\n")

    def record(at: int, field: str, value: Any) -> Callable[[dict[str, Any]], None]:
        def change(p: dict[str, Any]) -> None:
            p["records"][at][field] = value

        return change

    def flip(b64: str) -> str:
        raw = bytearray(base64.b64decode(b64))
        raw[-1] ^= 1
        return base64.b64encode(bytes(raw)).decode()

    def set_(field: str, value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda p: p.__setitem__(field, value)

    size_line = text.split("\n")[1]
    stranger = sign_text(text + "\n", SignerKey.generate("stranger.example", SignatureType.ED25519))
    cases: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
        ("chain", record(1, "body", original["records"][1]["body"].replace("}", ',"x":1}', 1))),
        ("chain", record(0, "hash", "0" * 64)),
        ("chain", lambda p: p["records"].pop(1)),
        ("chain", record(0, "round_id", original["round_id"] + 1)),
        ("leaf", set_("table_id", "T9")),
        ("leaf", set_("leaf", original["leaf"].replace('"closed_wall":', '"closed_wall": ', 1))),
        ("log", set_("tlog_proof", f"{head}\n\n{text.replace(ORIGIN, 'pit.other.example/da-log')}\n\n{signatures}")),
        ("log", set_("tlog_proof", f"{head}\n\n{text.replace(size_line, str(int(size_line) + 1), 1)}\n\n{signatures}")),
        ("witnesses", set_("tlog_proof", f"{head}\n\n{text}\n\n{signatures.splitlines()[0]}\n")),
        ("inclusion", set_("tlog_proof", "\n".join(proof_lines[:-1]) + f"\n\n{checkpoint}")),
        ("inclusion", set_("tlog_proof", "\n".join([*proof_lines, proof_lines[-1]]) + f"\n\n{checkpoint}")),
        ("inclusion", set_("tlog_proof", "\n".join([*proof_lines[:-1], flip(proof_lines[-1])]) + f"\n\n{checkpoint}")),
        ("inclusion", set_("index", original["index"] + 1)),
    ]
    for step, change in cases:
        tampered = json.loads(json.dumps(original))
        change(tampered)
        file.write_text(json.dumps(tampered))
        capsys.readouterr()
        assert proof(["verify", str(file), "--policy", str(policy_file)]) == 1, step
        assert capsys.readouterr().err.startswith(f"FAILED {step}: "), step
    for step, change in [
        ("settle", set_("opening", {**original["opening"], "prev_hash": "0" * 64})),
        ("settle", set_("header", {**original["header"], "body": original["header"]["body"] + " "})),
    ]:
        tampered = json.loads(json.dumps(original))
        change(tampered)
        file.write_text(json.dumps(tampered))
        capsys.readouterr()
        assert proof(["verify", str(file), "--policy", str(policy_file), "--settle"]) == 1, step
        assert capsys.readouterr().err.startswith(f"FAILED {step}: "), step
    extra = json.loads(json.dumps(original))
    extra["tlog_proof"] = f"{head}\n\n{text}\n\n{signatures}{stranger.line()}"
    file.write_text(json.dumps(extra))
    assert proof(["verify", str(file), "--policy", str(policy_file)]) == 0
    file.write_text("{not json")
    assert proof(["verify", str(file), "--policy", str(policy_file)]) == 2


@contextmanager
def _serving(store: PitStore) -> Iterator[str]:
    """Every pit's web, with the log under /log/, on a real port."""
    import threading

    import uvicorn

    port = free_port()
    server = uvicorn.Server(web_config(store, f"127.0.0.1:{port}", log=LogReader(store.pool)))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, what="the web server")
    try:
        yield f"http://127.0.0.1:{port}/log/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def _audit(url: str, policy: Path, state: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = log_command(["audit", url, "--policy", str(policy), "--state", str(state)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_log_audit_finds_a_round_deleted_from_the_store_as_a_fork_and_as_a_gap(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    reader = LogReader(store.pool)
    key = write_new_key(tmp_path / "log.key", ORIGIN, SignatureType.ED25519)
    policy_file = tmp_path / "policy.txt"
    policy_file.write_text(f"log {key.verifier()}\nquorum none\n")  # no witness: the audit alone must catch it
    settings = LogSettings(key, Policy.parse(policy_file.read_bytes()), interval_s=0.3)
    found = messages(bench_journal(tmp_path / "t2.db", 5, 2, "T2"), "T2")
    with _serving(store) as url:
        with running_ingest(nats_server.url, dsn, store.pit_identity().seed, log=LogKeeper(dsn, settings)):
            ship(nats_server.url, found)
            wait_for(lambda: _all_published(store, reader, found[0].journal, 5), what="every leaf published")
        size = len(_leaves(store))  # the stream is the module's: T2's five rounds and what earlier tests shipped
        assert _audit(url, policy_file, tmp_path / "audit", capsys)[0] == 0
        again = _audit(url, policy_file, tmp_path / "audit", capsys)
        assert again == (0, f"log {url}: {size} leaves, grown from {size}, every new leaf chained onto its journal\n")
        with store.pool.connection() as conn:  # the room deletes round 3 and signs its history again
            conn.execute("ALTER TABLE log_leaves DISABLE TRIGGER log_leaves_kept")
            index = conn.execute(
                "DELETE FROM log_leaves WHERE journal = %s AND round_id = 3 RETURNING idx", (found[0].journal,)
            ).fetchone()[0]
            conn.execute("UPDATE log_leaves SET idx = idx - 1 WHERE idx > %s", (index,))
            conn.execute("DELETE FROM log_checkpoints")
        with running_ingest(nats_server.url, dsn, store.pit_identity().seed, log=LogKeeper(dsn, settings)):
            wait_for(lambda: _published(reader, size - 1), what="the rewritten log signed")
        code, said = _audit(url, policy_file, tmp_path / "audit", capsys)
        assert code == 1 and said.startswith(f"BROKEN fork: the log has {size - 1} leaves, it had {size}"), said
        code, said = _audit(url, policy_file, tmp_path / "fresh", capsys)
        assert code == 1 and said.startswith(f"BROKEN gap: leaf {index} of journal {found[0].journal}"), said
    store.close()


def _forge_round(path: Path, round_id: int, change: Callable[[Record], dict[str, object]]) -> None:
    """The table's journal rewritten before it ships, chain and all: the log takes it as it comes, and
    only a replay through the rules can tell."""
    record = next(r for r in read_records(path) if r.round_id == round_id and change(r))
    rewrite(path, record.seq, change(record))


def test_settle_replays_each_round_and_fails_a_forged_ledger_or_wager(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    reader = LogReader(store.pool)
    key = write_new_key(tmp_path / "log.key", ORIGIN, SignatureType.ED25519)
    policy_file = tmp_path / "policy.txt"
    policy_file.write_text(f"log {key.verifier()}\nquorum none\n")
    path = bench_journal(tmp_path / "t4.db", 4, 4, "T4")

    def wager(record: Record) -> dict[str, object]:  # seat 1's stake doubled, as its input and operation say
        if record.kind is not RecordKind.INPUT or record.body["input"]["type"] != "PlaceWager":
            return {}
        body: dict[str, Any] = json.loads(json.dumps(record.body))
        body["input"]["amount"] *= 2
        body["ops"][0]["amount"] *= 2
        return body

    def ledger(record: Record) -> dict[str, object]:  # the player-dealer's net turned in his favour
        if record.kind is not RecordKind.CLOSE:
            return {}
        body: dict[str, Any] = json.loads(json.dumps(record.body))
        body["ledger"]["fees"]["players"] += 1
        return body

    _forge_round(path, 2, wager)
    _forge_round(path, 4, ledger)
    found = messages(path, "T4")
    settings = LogSettings(key, Policy.parse(policy_file.read_bytes()), interval_s=0.3)
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed, log=LogKeeper(dsn, settings)):
        ship(nats_server.url, found)
        wait_for(lambda: _all_published(store, reader, found[0].journal, 4), what="every leaf published")
    said = {}
    for round_id in range(1, 5):
        file = tmp_path / f"round-{round_id}.json"
        file.write_text(json.dumps(reader.round_proof(found[0].journal, round_id)))
        capsys.readouterr()
        code = proof(["verify", str(file), "--policy", str(policy_file), "--settle"])
        said[round_id] = (code, capsys.readouterr().err)
    assert said[1] == said[3] == (0, "")
    assert (
        said[2][0] == 1
        and said[2][1].startswith("FAILED settle: the replay stops: ")
        and "replays to other operations than it recorded" in said[2][1]
    ), said[2]  # the doubled stake's payout
    assert said[4][0] == 1 and said[4][1].startswith(
        "FAILED settle: the records replay to another ledger than the journaled one: ledger.fees.players replays to"
    ), said[4]
    store.close()

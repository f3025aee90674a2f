"""The witness, one status of c2sp.org/tlog-witness's add-checkpoint at a time, its evidence, its keys,
and its state across a killed and restarted `dealer-assist witness serve`."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from pit.tlog.checkpoint import Checkpoint
from pit.tlog.cosignature import CosignatureVerifier, timestamp_of
from pit.tlog.keys import SignatureType, SignerKey, VerifierKey
from pit.tlog.merkle import EMPTY_ROOT, MemoryTree, consistency_proof, leaf_hash
from pit.tlog.note import Note, NoteVerifier, Signature, open_note
from pit.tlog.witness.app import create_witness_app
from pit.tlog.witness.request import AddCheckpoint
from pit.tlog.witness.state import WitnessState
from pit.tlog.witness.witness import Witness
from pit.trial.local_services import free_port

ORIGIN = "pit.example-room.test/da-log"
NOW = 1_800_000_000


class Log:
    """A log of `n` leaves whose checkpoints its key signs, and the requests it sends a witness."""

    def __init__(self, key: SignerKey, leaves: int = 40) -> None:
        self.key = key
        self.tree = MemoryTree([leaf_hash(f"leaf {i}".encode()) for i in range(leaves)])

    def checkpoint(self, size: int, root: bytes | None = None) -> bytes:
        return Checkpoint(ORIGIN, size, self.tree.root(size) if root is None else root).sign(self.key)

    def request(self, old: int, size: int, proof: list[bytes] | None = None, note: bytes | None = None) -> bytes:
        proof = consistency_proof(self.tree, old, size) if proof is None else proof
        return AddCheckpoint(old, tuple(proof), self.checkpoint(size) if note is None else note).render()


@pytest.fixture
def log() -> Log:
    return Log(SignerKey.generate(ORIGIN, SignatureType.ED25519))


@pytest.fixture
def witness_key() -> SignerKey:
    return SignerKey.generate("witness-1.example-room.test", SignatureType.COSIGNATURE_V1)


@pytest.fixture
def state(tmp_path: Path) -> Iterator[WitnessState]:
    state = WitnessState(tmp_path / "witness.db")
    yield state
    state.close()


@pytest.fixture
def client(log: Log, witness_key: SignerKey, state: WitnessState) -> TestClient:
    return TestClient(create_witness_app(Witness(witness_key, [log.key.verifier()], state, lambda: NOW)))


def add(client: TestClient, body: bytes) -> httpx.Response:
    response: httpx.Response = client.post("/add-checkpoint", content=body)
    return response


def cosigned(log: Log, witness_key: SignerKey, size: int, answer: str) -> Signature:
    """The answer's one cosignature line, verified over the checkpoint of `size`."""
    note = log.checkpoint(size) + answer.encode()
    opened = open_note(note, [NoteVerifier(log.key.verifier()), CosignatureVerifier(witness_key.verifier())])
    [line] = [s for s in opened.verified if s.name == witness_key.name]
    return line


def test_200_cosigns_a_first_checkpoint_and_one_that_grows_with_its_proof(
    client: TestClient, log: Log, witness_key: SignerKey
) -> None:
    first = add(client, log.request(0, 7))
    assert first.status_code == 200 and first.text.endswith("\n")
    assert first.text.startswith("— witness-1.example-room.test ")
    assert timestamp_of(cosigned(log, witness_key, 7, first.text)) == NOW
    grown = add(client, log.request(7, 33))
    assert grown.status_code == 200
    cosigned(log, witness_key, 33, grown.text)
    again = add(client, log.request(33, 33))  # the same checkpoint again: cosigned again
    assert again.status_code == 200
    origin_hash = hashlib.sha256(ORIGIN.encode()).hexdigest()
    kept = client.get(f"/{origin_hash}/checkpoint")
    assert kept.status_code == 200 and Checkpoint.parse(Note.parse(kept.content).text).size == 33
    cosigned(log, witness_key, 33, kept.text.split("\n\n", 1)[1])


@pytest.mark.parametrize(
    "body",
    [
        b"old 0\n" + b"example\n",  # no blank line
        b"old 01\n\n",  # a leading zero
        b"0\n\n",  # no 'old'
        b"old 0\nnot base64\n\n",
        b"old 0\n" + b"AAAA\n" + b"\n",  # a proof line that is not a 32-byte hash
    ],
)
def test_400_a_malformed_request(client: TestClient, log: Log, body: bytes) -> None:
    answer = add(client, body + log.checkpoint(5) if body.endswith(b"\n\n") else body)
    assert answer.status_code == 400, answer.text


def test_400_an_old_size_past_the_checkpoints_and_64_proof_lines(client: TestClient, log: Log) -> None:
    assert add(client, log.request(9, 5, proof=[])).status_code == 400
    assert add(client, log.request(0, 5, proof=[EMPTY_ROOT] * 64)).status_code == 400
    assert add(client, AddCheckpoint(0, (), b"not a note\n").render()).status_code == 400


def test_403_no_trusted_signature_or_a_failing_one(client: TestClient, log: Log) -> None:
    impostor = Log(SignerKey.generate(ORIGIN, SignatureType.ED25519))  # the origin's name, another key
    answer = add(client, impostor.request(0, 5))
    assert answer.status_code == 403 and "no verifiable signatures" in answer.text
    note = Note.parse(log.checkpoint(5))
    good = note.signatures[0]
    forged = Note(note.text, (Signature(good.name, good.key_id, bytes(64)),)).render()
    answer = add(client, log.request(0, 5, note=forged))
    assert answer.status_code == 403 and "invalid signature" in answer.text


def test_404_a_log_it_does_not_witness(client: TestClient) -> None:
    other = SignerKey.generate("other.example/log", SignatureType.ED25519)
    body = AddCheckpoint(0, (), Checkpoint("other.example/log", 0, EMPTY_ROOT).sign(other)).render()
    assert add(client, body).status_code == 404


def test_409_an_old_size_not_the_last_cosigned_says_that_size(client: TestClient, log: Log) -> None:
    assert add(client, log.request(0, 12)).status_code == 200
    for old in (0, 5, 11, 13):
        answer = add(client, log.request(old, 20))
        assert (answer.status_code, answer.text) == (409, "12\n")
        assert answer.headers["content-type"] == "text/x.tlog.size"


def test_422_an_inconsistent_checkpoint_is_refused_and_kept_as_evidence(
    client: TestClient, log: Log, state: WitnessState
) -> None:
    other_root = hashlib.sha256(b"another history").digest()
    refusals = [
        log.request(0, 0, note=log.checkpoint(0, other_root)),  # a size-0 tree with a root not the empty one
        log.request(0, 5, proof=[EMPTY_ROOT]),  # a proof from size 0
    ]
    for body in refusals:
        assert add(client, body).status_code == 422
    assert add(client, log.request(0, 10)).status_code == 200
    bad_proof = consistency_proof(log.tree, 10, 30)
    bad_proof[0] = bytes([bad_proof[0][0] ^ 1]) + bad_proof[0][1:]
    refusals += [
        log.request(10, 30, proof=bad_proof),  # a consistency proof that does not verify
        log.request(10, 10, note=log.checkpoint(10, other_root)),  # the size last cosigned, another root
    ]
    for body in refusals[2:]:
        assert add(client, body).status_code == 422
    assert [e.request for e in state.evidence()] == refusals
    assert all(e.origin == ORIGIN and e.received_at == NOW for e in state.evidence())
    assert add(client, log.request(10, 30)).status_code == 200  # the witness still holds size 10, then 30


def test_a_cosignature_time_never_goes_back(log: Log, witness_key: SignerKey, state: WitnessState) -> None:
    times = iter([NOW, NOW - 100])
    client = TestClient(create_witness_app(Witness(witness_key, [log.key.verifier()], state, lambda: next(times))))
    first = add(client, log.request(0, 3))
    second = add(client, log.request(3, 4))
    assert timestamp_of(cosigned(log, witness_key, 3, first.text)) == NOW
    assert timestamp_of(cosigned(log, witness_key, 4, second.text)) == NOW


def dealer_assist(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )


@pytest.mark.slow
def test_keygen_writes_a_0600_key_in_gos_format_and_prints_its_vkey(tmp_path: Path) -> None:
    made = dealer_assist("log", "keygen", ORIGIN, "--out", str(tmp_path / "log.key"))
    assert made.returncode == 0, made.stderr
    key = SignerKey.parse((tmp_path / "log.key").read_text().strip())
    assert (tmp_path / "log.key").stat().st_mode & 0o777 == 0o600
    assert made.stdout == f"{key.verifier()}\n" and key.kind is SignatureType.ED25519 and key.name == ORIGIN
    witness = dealer_assist("witness", "keygen", "witness-1.example-room.test", "--out", str(tmp_path / "w.key"))
    assert VerifierKey.parse(witness.stdout.strip()).kind is SignatureType.COSIGNATURE_V1
    again = dealer_assist("log", "keygen", ORIGIN, "--out", str(tmp_path / "log.key"))
    assert again.returncode == 1 and json.loads(again.stdout)["error"]["code"] == "file_exists"
    assert SignerKey.parse((tmp_path / "log.key").read_text().strip()) == key


def start_witness(tmp_path: Path, log: Log, port: int) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "witness",
            "serve",
            "--key",
            str(tmp_path / "w.key"),
            "--state",
            str(tmp_path / "w.db"),
            "--log",
            str(log.key.verifier()),
            "--http",
            f"127.0.0.1:{port}",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
    )
    assert process.stdout is not None
    started = json.loads(process.stdout.readline())
    assert started["serving"] == f"http://127.0.0.1:{port}" and started["logs"] == [ORIGIN]
    return process


@pytest.mark.slow
def test_a_killed_witness_restarts_with_what_it_last_cosigned(tmp_path: Path, log: Log) -> None:
    assert dealer_assist("witness", "keygen", "w.example", "--out", str(tmp_path / "w.key")).returncode == 0
    port = free_port()
    url = f"http://127.0.0.1:{port}/add-checkpoint"
    process = start_witness(tmp_path, log, port)
    try:
        assert httpx.post(url, content=log.request(0, 17)).status_code == 200
    finally:
        process.send_signal(signal.SIGKILL)  # no shutdown of any kind: what it answered was already stored
        process.wait(10)
    process = start_witness(tmp_path, log, port)
    try:
        rollback = httpx.post(url, content=log.request(0, 9))
        assert (rollback.status_code, rollback.text) == (409, "17\n")
        assert httpx.post(url, content=log.request(17, 17, note=log.checkpoint(17, EMPTY_ROOT))).status_code == 422
        assert httpx.post(url, content=log.request(17, 25)).status_code == 200
        origin_hash = hashlib.sha256(ORIGIN.encode()).hexdigest()
        kept = httpx.get(f"http://127.0.0.1:{port}/{origin_hash}/checkpoint")
        assert Checkpoint.parse(Note.parse(kept.content).text).size == 25
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(10) == 0
    state = WitnessState(tmp_path / "w.db")
    try:
        assert len(state.evidence()) == 1 and state.latest(ORIGIN) is not None
    finally:
        state.close()

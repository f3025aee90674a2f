"""A round's proof file (`round-proof-v1`, PIT.md §9) checked offline, step by step: `chain` (the records
chain from the leaf's prev_hash to its head_hash), `leaf` (the leaf rebuilds byte for byte from them),
`log` (the checkpoint's origin and log signature), `witnesses` (the policy's quorum of cosignatures),
`inclusion` (the proof reaches the checkpoint's root); `settle` is `round_settle`'s."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dealer_assist.errors import Failure
from dealer_assist.journal.journal_file import record_hash
from pit.tlog.checkpoint import open_checkpoint
from pit.tlog.errors import TlogCode, TlogError
from pit.tlog.leaf import Leaf
from pit.tlog.merkle import leaf_hash, verify_inclusion
from pit.tlog.note import NoteVerifier
from pit.tlog.policy import Policy
from pit.tlog.proof_text import TlogProof

FORMAT = "round-proof-v1"
RECORD_FIELDS = {"seq": int, "wall": str, "mono_ns": int, "kind": str, "body": str, "hash": str}


class Step(StrEnum):
    CHAIN = "chain"
    LEAF = "leaf"
    LOG = "log"
    WITNESSES = "witnesses"
    INCLUSION = "inclusion"
    SETTLE = "settle"


class Unusable(Failure):
    """Input that is not a round-proof-v1 file at all (exit 2)."""

    def __init__(self, message: str) -> None:
        super().__init__(TlogCode.UNUSABLE, message, 2)


class Failed(Failure):
    """A step that does not hold (exit 1): `FAILED <step>: <why>`."""

    def __init__(self, step: Step, why: str) -> None:
        super().__init__(TlogCode.PROOF_FAILED, f"FAILED {step.value}: {why}", 1)
        self.step = step


@dataclass(frozen=True)
class Proven:
    round_id: int
    index: int
    size: int
    witnesses: dict[str, int]  # name -> cosignature time

    def line(self) -> str:
        named = ", ".join(f"{name} at {time}" for name, time in sorted(self.witnesses.items()))
        return f"round {self.round_id} proven: leaf {self.index} of {self.size}; cosigned by {named or 'no witness'}"


def load(data: bytes) -> dict[str, Any]:
    """The proof file's JSON with every field of its format, of its type; raises `Unusable`."""
    try:
        proof = json.loads(data)
    except (UnicodeDecodeError, ValueError):
        raise Unusable("the proof file is not JSON") from None
    if not isinstance(proof, dict) or proof.get("format") != FORMAT:
        raise Unusable(f"the proof file's format is not {FORMAT!r}")
    fields = {
        "table_id": str,
        "journal": str,
        "round_id": int,
        "records": list,
        "leaf": str,
        "index": int,
        "tlog_proof": str,
    }
    for name, kind in fields.items():
        if type(proof.get(name)) is not kind:
            raise Unusable(f"the proof file's {name} is not a {kind.__name__}")
    for at, record in enumerate(proof["records"]):
        if not is_record(record):
            raise Unusable(f"record {at}: it has seq, wall, mono_ns, round_id, kind, body and hash of their types")
    return proof


def is_record(value: object) -> bool:
    """A record as shipped (PIT.md §2): every field there, of its type."""
    return (
        isinstance(value, dict)
        and all(type(value.get(k)) is t for k, t in RECORD_FIELDS.items())
        and (value.get("round_id") is None or type(value.get("round_id")) is int)
    )


def verify(proof: dict[str, Any], policy: Policy) -> Proven:
    """Every step in order; raises `Failed` naming the first that does not hold."""
    head = _chain(proof)
    leaf = _leaf(proof, head)
    tlog = _log(proof, policy)
    try:
        checkpoint, times = policy.verify(tlog.checkpoint)
    except TlogError as error:
        raise Failed(Step.WITNESSES, error.message) from None
    if tlog.index != proof["index"]:
        raise Failed(Step.INCLUSION, f"the tlog-proof is for leaf {tlog.index}, the file says {proof['index']}")
    try:
        verify_inclusion(leaf_hash(leaf), tlog.index, checkpoint.size, tlog.hashes, checkpoint.root)
    except TlogError as error:
        raise Failed(Step.INCLUSION, error.message) from None
    return Proven(proof["round_id"], tlog.index, checkpoint.size, times)


def _chain(proof: dict[str, Any]) -> str:
    """The records chained from the leaf's prev_hash, seq after seq, each of this round or none; their head."""
    records = proof["records"]
    if not records:
        raise Failed(Step.CHAIN, "no records")
    try:
        claimed = json.loads(proof["leaf"])
        prev_hex = claimed["prev_hash"]
        prev = bytes.fromhex(prev_hex)
    except (ValueError, TypeError, KeyError):
        raise Failed(Step.CHAIN, "the leaf gives no prev_hash to chain from") from None
    for at, record in enumerate(records):
        if at and record["seq"] != records[at - 1]["seq"] + 1:
            raise Failed(Step.CHAIN, f"seq {record['seq']} does not follow seq {records[at - 1]['seq']}")
        if record["round_id"] not in (None, proof["round_id"]):
            raise Failed(Step.CHAIN, f"seq {record['seq']} is of round {record['round_id']}, not {proof['round_id']}")
        digest = record_hash(
            prev, record["seq"], record["wall"], record["mono_ns"], record["round_id"], record["kind"], record["body"]
        )
        if digest.hex() != record["hash"]:
            raise Failed(Step.CHAIN, f"seq {record['seq']}: its hash is {digest.hex()}, not {record['hash']}")
        prev = digest
    if claimed.get("head_hash") != prev.hex():
        raise Failed(
            Step.CHAIN, f"the records end at {prev.hex()}, not the leaf's head_hash {claimed.get('head_hash')}"
        )
    return prev.hex()


def _leaf(proof: dict[str, Any], head: str) -> bytes:
    first, last = proof["records"][0], proof["records"][-1]
    prev = json.loads(proof["leaf"])["prev_hash"]
    rebuilt = Leaf(
        proof["table_id"], proof["journal"], proof["round_id"], first["seq"], last["seq"], prev, head, last["wall"]
    ).text()
    if rebuilt != proof["leaf"].encode():
        raise Failed(Step.LEAF, f"the records rebuild {rebuilt.decode()}, not the file's leaf")
    return rebuilt


def _log(proof: dict[str, Any], policy: Policy) -> TlogProof:
    try:
        tlog = TlogProof.parse(proof["tlog_proof"].encode())
        open_checkpoint(tlog.checkpoint, [NoteVerifier(log.key) for log in policy.logs])
    except TlogError as error:
        raise Failed(Step.LOG, error.message) from None
    return tlog

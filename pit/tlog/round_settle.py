"""`proof verify --settle`'s last step (PIT.md §9): the round's records, replayed through the rules, give
the ledger its closing record journaled. A replay starts from the table's configuration and the state the
last round closed with, which lie before the round's leaf; the proof file carries them bound by hashes
alone: `header` (the journal's first record, whose hash is the journal's identity) and `opening` (the
records from the last close, or from the header, up to the leaf's first, chained onto its prev_hash)."""

from __future__ import annotations

import json
from typing import Any

from dealer_assist.errors import Failure
from dealer_assist.journal.journal_file import GENESIS, Record, RecordKind, record_hash
from dealer_assist.journal.record_source import HeldRecords
from dealer_assist.table.header import table_config
from dealer_assist.table.journaled_table import replayed_ledger
from pit.tlog.round_proof import Failed, Step, Unusable, is_record

__all__ = ["replay_context"]


def replay_context(header: dict[str, Any], prev_hash: str, opening: list[dict[str, Any]]) -> dict[str, Any]:
    """The fields a proof file carries for its round's replay."""
    return {"header": header, "opening": {"prev_hash": prev_hash, "records": opening}}


def settle(proof: dict[str, Any]) -> None:
    """Raises `Failed` at `settle` unless the replayed ledger is the journaled one; `Unusable` for a
    file without what a replay starts from. The steps before it have held."""
    header, opening = _context(proof)
    leaf = json.loads(proof["leaf"])
    if (
        record_hash(GENESIS, 1, header["wall"], header["mono_ns"], None, header["kind"], header["body"]).hex()
        != header["hash"]
        or header["hash"] != proof["journal"]
        or header["seq"] != 1
    ):
        raise Failed(Step.SETTLE, f"the header does not hash to the journal's identity {proof['journal']}")
    prev = opening["prev_hash"]
    for at, record in enumerate(opening["records"]):
        if at and record["seq"] != opening["records"][at - 1]["seq"] + 1:
            raise Failed(
                Step.SETTLE, f"opening seq {record['seq']} does not follow seq {opening['records'][at - 1]['seq']}"
            )
        prev = _checked(prev, record)
    if prev != leaf["prev_hash"] or (opening["records"] and opening["records"][-1]["seq"] + 1 != leaf["first_seq"]):
        raise Failed(Step.SETTLE, f"the opening records do not chain onto the leaf's prev_hash {leaf['prev_hash']}")
    held = [_record(r) for r in [*opening["records"], *proof["records"]]]
    checkpoint = held[0] if held[0].kind is RecordKind.CLOSE else None
    if checkpoint is None and held[0].seq > 1 and (held[0].seq != 2 or opening["prev_hash"] != header["hash"]):
        raise Failed(Step.SETTLE, f"the opening starts at seq {held[0].seq}: neither a close nor the header's next")
    if held[0].seq > 1:
        held.insert(0, _record(header))  # the table's configuration, read from its header
    closing = held[-1]
    if closing.kind is not RecordKind.CLOSE or closing.round_id != proof["round_id"]:
        raise Failed(
            Step.SETTLE,
            f"the leaf ends at seq {closing.seq} ({closing.kind.value}), not round {proof['round_id']}'s close",
        )
    source = HeldRecords(f"{proof['table_id']}/{proof['journal']}", held)
    try:
        replayed = replayed_ledger(source, table_config(source), checkpoint, closing)
    except Failure as error:
        raise Failed(Step.SETTLE, f"the replay stops: {error.message}") from None
    journaled = closing.body.get("ledger")
    if replayed != journaled:
        raise Failed(
            Step.SETTLE,
            f"the records replay to another ledger than the journaled one: {_first_difference(replayed, journaled)}",
        )


def _context(proof: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    header, opening = proof.get("header"), proof.get("opening")
    if not is_record(header):
        raise Unusable("--settle: the proof file carries no header record to replay from")
    if (
        not isinstance(opening, dict)
        or type(opening.get("prev_hash")) is not str
        or type(opening.get("records")) is not list
        or not all(is_record(r) for r in opening["records"])
    ):
        raise Unusable("--settle: the proof file's opening is not a prev_hash and a list of records")
    assert isinstance(header, dict)
    return header, opening


def _checked(prev: str, record: dict[str, Any]) -> str:
    try:
        digest = record_hash(
            bytes.fromhex(prev),
            record["seq"],
            record["wall"],
            record["mono_ns"],
            record["round_id"],
            record["kind"],
            record["body"],
        ).hex()
    except ValueError:
        raise Failed(Step.SETTLE, f"opening seq {record['seq']}: {prev!r} is not a hex hash") from None
    if digest != record["hash"]:
        raise Failed(Step.SETTLE, f"opening seq {record['seq']}: its hash is {digest}, not {record['hash']}")
    return digest


def _record(raw: dict[str, Any]) -> Record:
    try:
        return Record(
            raw["seq"],
            raw["wall"],
            raw["mono_ns"],
            raw["round_id"],
            RecordKind(raw["kind"]),
            json.loads(raw["body"]),
            bytes.fromhex(raw["hash"]),
        )
    except ValueError:
        raise Failed(Step.SETTLE, f"seq {raw['seq']}: kind {raw['kind']!r} or its body is not a journal's") from None


def _first_difference(replayed: object, journaled: object, at: str = "ledger") -> str:
    """Where two ledgers part, named by its path: `ledger.settlements[2].amount: 10.0, journaled 20.0`."""
    if isinstance(replayed, dict) and isinstance(journaled, dict):
        for key in sorted(set(replayed) | set(journaled)):
            if replayed.get(key) != journaled.get(key):
                return _first_difference(replayed.get(key), journaled.get(key), f"{at}.{key}")
    if isinstance(replayed, list) and isinstance(journaled, list) and len(replayed) == len(journaled):
        for n, (mine, theirs) in enumerate(zip(replayed, journaled, strict=False)):
            if mine != theirs:
                return _first_difference(mine, theirs, f"{at}[{n}]")
    return f"{at} replays to {json.dumps(replayed)}, journaled {json.dumps(journaled)}"

"""Recall of past rounds from the journal, and a round's export as a round file.

What the floor supervisor reads in a dispute: every input and operation of a round in order,
with times, refusals, corrections and the ledger the table recorded. An open round's hole card
stays masked until the round reveals it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from dealer_assist.history.round_record import RoundRecorder
from dealer_assist.journal.errors import JournalCode, JournalError
from dealer_assist.journal.journal_file import Record, RecordKind
from dealer_assist.journal.record_source import RecordSource, as_source, closing_record
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.header import table_config
from dealer_assist.table.journaled_table import replay

__all__ = ["HIDDEN", "export_round", "recall", "round_cards"]

HIDDEN = "??"
CARD_INPUTS = ("CardDrawn", "KeyCard")  # the inputs that put a card into the round
READER_FINDINGS = {
    "LateChange": "late_changes",
    "MispayAccepted": "mispays",
}  # kept with the round (RULES.md §8.23, §8.24)


def _rounds(records: Iterable[Record]) -> list[dict[str, Any]]:
    """The rounds these records belong to, oldest first."""
    by_round: dict[int, dict[str, Any]] = {}
    for record in records:
        if record.round_id is None or record.kind not in (
            RecordKind.INPUT,
            RecordKind.CLOSE,
            RecordKind.REFUSED,
            RecordKind.DEVICE,
        ):
            continue
        entry = by_round.setdefault(
            record.round_id,
            {
                "round_id": record.round_id,
                "started": record.wall,
                "ended": None,
                "records": [record.seq, record.seq],
                "inputs": [],
                "operations": [],
                "refused": [],
                "devices": [],
                "corrections": [],
                "ledger": None,
                "voided": None,
                "closed": False,
                "dealers": [],
                "late_changes": [],
                "mispays": [],
            },
        )
        entry["records"][1] = record.seq
        _add(entry, record)
    result = list(by_round.values())
    for entry in result:
        if not entry["closed"]:
            _mask_hole_card(entry)
    return result


def _add(entry: dict[str, Any], record: Record) -> None:
    body = record.body
    if record.kind is RecordKind.REFUSED:
        entry["refused"].append(
            {"seq": record.seq, "wall": record.wall, "input": body["input"], "error": body["error"]}
        )
        return
    if record.kind is RecordKind.DEVICE:
        entry["devices"].append({"seq": record.seq, "wall": record.wall, **body})
        return
    entry["inputs"].append({"seq": record.seq, "wall": record.wall, **body["input"]})
    for op in body["ops"]:
        entry["operations"].append({"seq": record.seq, **op})
        if op["type"] in (
            "RoundVoided",
            "CardRekeyed",
            "MisdealDiscarded",
            "PeekConfirmed",
            "CardKeyed",
            "MispayAccepted",
        ):
            entry["corrections"].append({"seq": record.seq, "wall": record.wall, **op})
        if op["type"] in READER_FINDINGS:
            entry[READER_FINDINGS[op["type"]]].append({"seq": record.seq, "wall": record.wall, **op})
        if op["type"] == "DealerSignedIn" and op["dealer"] not in entry["dealers"]:
            entry["dealers"].append(op["dealer"])
        if op["type"] == "RoundVoided":
            entry["voided"] = {"supervisor": op["supervisor"], "reason": op["reason"]}
    if record.kind is RecordKind.CLOSE:
        entry["closed"], entry["ended"], entry["ledger"] = True, record.wall, body.get("ledger")
        entry["dealers"] = body.get("dealers", entry["dealers"])  # who dealt the round, from its start


def _mask_hole_card(entry: dict[str, Any]) -> None:
    if any(op["type"] == "HoleCardRevealed" for op in entry["operations"]):
        return
    hidden_seqs = set()
    for op in entry["operations"]:
        if op["type"] == "CardAssigned" and op.get("hidden"):
            op["card"] = HIDDEN
            hidden_seqs.add(op["seq"])
    for event in entry["inputs"]:
        if event["seq"] in hidden_seqs and event["type"] in CARD_INPUTS:
            event["card"] = HIDDEN
    for op in (*entry["operations"], *entry["corrections"]):
        if op["seq"] in hidden_seqs and op["type"] == "CardKeyed":  # the hole card named by a supervisor
            op["card"] = HIDDEN
    hidden_cards = {card["index"] for card in round_cards(entry) if card["hidden"]}
    rekeyed = set()  # a re-key of the hole card names it twice: as it was read and as it is
    for op in (*entry["operations"], *entry["corrections"]):
        if op["type"] == "CardRekeyed" and op["index"] in hidden_cards:
            op["was"] = op["now"] = HIDDEN
            rekeyed.add(op["seq"])
    for event in entry["inputs"]:
        if event["seq"] in rekeyed and event["type"] == "RekeyCard":
            event["card"] = HIDDEN


def round_cards(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The cards a round took, numbered as a re-key counts them (`RekeyCard.index`), as recall
    shows them: a re-keyed card shows its new value, a masked hole card stays masked."""
    placed: dict[int, dict[str, Any]] = {}
    for op in entry["operations"]:
        if op["type"] == "CardAssigned":
            placed.setdefault(op["seq"], op)
    cards = [
        {"index": index, "card": op["card"], "seat": op["seat"], "hand": op["hand"], "hidden": op["hidden"]}
        for index, op in enumerate(
            placed[event["seq"]] for event in entry["inputs"] if event["type"] in CARD_INPUTS and event["seq"] in placed
        )
    ]
    for op in entry["operations"]:
        if op["type"] == "CardRekeyed" and cards[op["index"]]["card"] != HIDDEN:
            cards[op["index"]]["card"] = op["now"]
    return cards


def recall(
    where: RecordSource | Path | str, last: int | None = None, round_id: int | None = None
) -> list[dict[str, Any]]:
    """One round, the last `last` rounds, or every round; only the records asked for are read,
    so recall stays quick on a journal of months."""
    source = as_source(where)
    if round_id is not None:
        found = [entry for entry in _rounds(source.round_records(round_id, round_id)) if entry["round_id"] == round_id]
        if not found:
            raise JournalError(JournalCode.NO_SUCH_ROUND, f"{source.name} has no round {round_id}")
        return found
    if not last:
        return _rounds(source.records())
    newest = source.last_round_id()
    return [] if newest is None else _rounds(source.round_records(max(1, newest - last + 1)))


def _checkpoint_before(source: RecordSource, round_id: int) -> Record | None:
    """The closing record of the last round before `round_id`; None when it is the first."""
    for earlier in range(round_id - 1, 0, -1):
        record = closing_record(source, earlier)
        if record is not None:
            return record
    return None


def export_round(where: RecordSource | Path | str, round_id: int) -> dict[str, Any]:
    """Round `round_id` as a `round-v1` file: replayed from the journal up to its close."""
    source = as_source(where)
    config = table_config(source)
    closing = closing_record(source, round_id)
    before = _checkpoint_before(source, round_id)
    if closing is None:
        raise JournalError(JournalCode.NO_SUCH_ROUND, f"round {round_id} is not a closed round of this journal")
    if any(op["type"] == "RoundVoided" for op in closing.body["ops"]):
        raise JournalError(JournalCode.ROUND_VOIDED, f"round {round_id} was voided: it has no ledger to replay")
    session = replay(source, config, before, until=closing.seq)
    tracker = session.tracker
    assert tracker is not None
    recorder = RoundRecorder(config.profile, config.settings, tracker.seats, tracker.player_dealer)
    fresh = RoundTracker(
        tracker.profile,
        tracker.seats,
        tracker.player_dealer,
        tracker.dealer_closes_betting,
        tracker.dealer_settles_early,
    )
    for event in session.round_inputs:
        recorder.record(event, fresh.apply(event))
    meta = {"table_id": config.table_id, "round_id": round_id, "journal": source.name}
    return recorder.round_file(meta | {"dealers": closing.body["dealers"]} if "dealers" in closing.body else meta)

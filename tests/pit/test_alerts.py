"""The alert rules of PIT.md §5, on records written the way the table writes them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from dealer_assist.journal.journal_file import RecordKind, canonical_json
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.money import format_money
from dealer_assist.table.codec import encode
from dealer_assist.table.session_inputs import ConfirmPeek, DiscardMisdeal, RekeyCard, VoidRound
from dealer_assist.table.session_operations import (
    CardRekeyed,
    MisdealDiscarded,
    MisdealHeld,
    PeekConfirmed,
    RotationWarning,
    RoundVoided,
)
from devices.kinds.events import DeviceFault
from devices.table_owner.feed import evidence
from pit.service.floor.alerts import (
    APPEND_GRACE_S,
    AlertKind,
    WitnessedPast,
    links_down,
    record_alerts,
    status_alerts,
    timed_alerts,
)
from pit.stream.wire import RecordMessage, StatusMessage, WireError, parse_status_message
from tests.pit.journals import bench_journal, messages

JOURNAL = "ab" * 32
AT = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def _record(kind: RecordKind, body: dict, seq: int = 7, round_id: int | None = 3) -> RecordMessage:
    return RecordMessage("T1", JOURNAL, seq, AT.isoformat(), 1, round_id, kind, canonical_json(body), "cd" * 32)


def _input(event: object, *ops: object) -> RecordMessage:
    return _record(RecordKind.INPUT, {"input": encode(event), "ops": [encode(op) for op in ops], "now": 1.0})


def _kinds(found: list) -> list[AlertKind]:
    return [cause.kind for cause in found]


def test_a_misdeal_hold_a_peek_by_hand_and_each_correction_raise_their_alert() -> None:
    card = parse_card("5H")
    held = record_alerts(
        _record(
            RecordKind.INPUT,
            {
                "input": {"type": "CardDrawn", "card": "5H"},
                "now": 1.0,
                "ops": [encode(MisdealHeld(card, "no_hand", "no hand takes 5H", "6.1"))],
            },
        )
    )
    assert _kinds(held) == [AlertKind.MISDEAL_HOLD] and "no hand takes 5H" in held[0].text
    peek = record_alerts(
        _input(ConfirmPeek(False, "Ana", "peek device down"), PeekConfirmed(False, "Ana", "peek device down"))
    )
    assert _kinds(peek) == [AlertKind.PEEK_BY_HAND] and "Ana" in peek[0].text
    for event, op, word in [
        (VoidRound("Ben", "shoe dropped"), RoundVoided(3, "Ben", "shoe dropped"), "void"),
        (RekeyCard(1, card, "Ben", "misread"), CardRekeyed(1, parse_card("4H"), card, "Ben", "misread"), "re-key"),
        (DiscardMisdeal("Ben", "exposed"), MisdealDiscarded(card, "Ben", "exposed"), "discard"),
    ]:
        found = record_alerts(_input(event, op))
        assert _kinds(found) == [AlertKind.CORRECTION]
        assert f"({word}) by Ben: {op.reason}" in found[0].text  # type: ignore[attr-defined]
        assert (found[0].table_id, found[0].journal, found[0].round_id, found[0].seq, found[0].at) == (
            "T1",
            JOURNAL,
            3,
            7,
            AT,
        )


def test_a_cause_is_the_same_however_often_its_record_arrives() -> None:
    record = _input(VoidRound("Ben", "x"), RoundVoided(3, "Ben", "x"))
    assert record_alerts(record) == record_alerts(record)
    other = _record(RecordKind.INPUT, json.loads(record.body), seq=8)
    assert record_alerts(other)[0].cause != record_alerts(record)[0].cause


def test_pin_lockout_rotation_camera_and_device_fault() -> None:
    assert _kinds(
        record_alerts(_record(RecordKind.SECURITY, {"event": "pin_locked", "until": 5.0}, round_id=None))
    ) == [AlertKind.PIN_LOCKOUT]
    assert record_alerts(_record(RecordKind.SECURITY, {"event": "pin_wrong", "try": 1})) == []
    warning = record_alerts(
        _record(RecordKind.INPUT, {"input": {"type": "BankAccepted"}, "now": 1.0, "ops": [encode(RotationWarning(5))]})
    )
    assert _kinds(warning) == [AlertKind.ROTATION_WARNING] and "5 minutes" in warning[0].text
    refused = record_alerts(
        _record(
            RecordKind.REFUSED,
            {
                "input": {"type": "BankAccepted"},
                "now": 1.0,
                "error": {
                    "code": "rotation",
                    "message": "a proposition player never banks two rounds in a row",
                    "rule": "5.6",
                },
            },
        )
    )
    assert _kinds(refused) == [AlertKind.ROTATION_VIOLATION] and "two rounds in a row" in refused[0].text
    assert (
        record_alerts(_record(RecordKind.REFUSED, {"input": {}, "now": 1.0, "error": {"code": "not_your_turn"}})) == []
    )
    mismatch = {"device": "camera", "type": "CameraMismatch", "message": "seat 2 shows 9C", "mismatches": []}
    first, again = (record_alerts(_record(RecordKind.DEVICE, mismatch, seq=s)) for s in (10, 11))
    assert _kinds(first) == [AlertKind.CAMERA_MISMATCH] and first[0].cause == again[0].cause  # once per round
    fault = record_alerts(_record(RecordKind.DEVICE, evidence("shoe", DeviceFault("JAM", "card jammed")).body))
    assert _kinds(fault) == [AlertKind.DEVICE_FAULT] and "JAM card jammed" in fault[0].text


def test_a_payout_at_or_above_the_threshold(tmp_path: Path) -> None:
    closes = [m for m in messages(bench_journal(tmp_path / "t.db", 12, 2, "T1"), "T1") if m.kind is RecordKind.CLOSE]
    lines = [(m, line) for m in closes for line in json.loads(m.body)["ledger"]["settlements"]]
    top = max(Decimal(str(line["amount"])) for _, line in lines)
    found = [cause for m in closes for cause in record_alerts(m, top)]
    assert len(found) == sum(1 for _, line in lines if Decimal(str(line["amount"])) == top) >= 1
    assert all(
        cause.kind is AlertKind.LARGE_PAYOUT and f"payout of {format_money(int(top * 100))} to seat" in cause.text
        for cause in found
    )
    assert [c for m in closes for c in record_alerts(m, top + 1)] == []


def _status(**change: object) -> StatusMessage:
    fields = dict(
        table_id="T1",
        journal=JOURNAL,
        profile="nobust-4.0",
        round_id=4,
        phase="play",
        player_dealer=None,
        devices={"shoe": "up"},
        last_seq=120,
        to_ship=0,
    )
    fields.update(change)
    return StatusMessage(**fields)  # type: ignore[arg-type]


def test_shipping_behind_is_raised_when_it_crosses_the_limit_once() -> None:
    assert status_alerts(None, _status(to_ship=1000), None, AT) == []
    behind = status_alerts(_status(to_ship=10), _status(to_ship=1001, last_seq=2000), None, AT)
    assert _kinds(behind) == [AlertKind.SHIPPING_BEHIND] and "1001 records" in behind[0].text
    assert status_alerts(_status(to_ship=1001), _status(to_ship=1500), None, AT) == []


def _sent(seconds: float) -> str:
    return (AT + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def test_a_table_behind_its_witness_is_a_divergence() -> None:
    witnessed = WitnessedPast(120, "ef" * 32, AT.isoformat())
    found = status_alerts(None, _status(last_seq=100, sent=_sent(5)), witnessed, AT)
    assert _kinds(found) == [AlertKind.DIVERGENCE]
    assert "its last record is 100, the pit witnessed 120" in found[0].text and "ef" * 32 in found[0].text
    assert status_alerts(None, _status(last_seq=120, sent=_sent(5)), witnessed, AT) == []


def test_a_status_older_than_the_records_it_lacks_is_late_not_behind() -> None:
    """PostgreSQL away: statuses wait in the pit while records wait in the stream, and the stored
    witness is ahead of a status that was true when it was sent."""
    witnessed = WitnessedPast(341, "ef" * 32, AT.isoformat())
    assert status_alerts(None, _status(last_seq=338, sent=_sent(-2)), witnessed, AT) == []
    assert status_alerts(None, _status(last_seq=338, sent=_sent(APPEND_GRACE_S / 2)), witnessed, AT) == []
    assert status_alerts(None, _status(last_seq=338), witnessed, AT) == []  # no send time: cannot be ordered
    late = status_alerts(None, _status(last_seq=338, sent=_sent(APPEND_GRACE_S + 0.5)), witnessed, AT)
    assert _kinds(late) == [AlertKind.DIVERGENCE]


def test_a_status_with_an_unreadable_send_time_is_refused_by_name() -> None:
    data = json.loads(_status().encode())
    data["sent"] = "yesterday"
    with pytest.raises(WireError, match="sent 'yesterday' is not an ISO 8601 time"):
        parse_status_message(json.dumps(data).encode())


def test_silence_and_a_link_down_longer_than_ten_seconds() -> None:
    down = links_down({}, {"shoe": "down", "peek": "up"}, 100.0)
    assert down == {"shoe": 100.0}
    assert links_down(down, {"shoe": "down"}, 105.0) == {"shoe": 100.0}
    assert links_down(down, {"shoe": "up"}, 105.0) == {}
    assert timed_alerts("T1", JOURNAL, 4, 100.0, down, 110.0) == []
    late = timed_alerts("T1", JOURNAL, 4, 100.0, down, 115.5)
    assert _kinds(late) == [AlertKind.TABLE_SILENT, AlertKind.LINK_DOWN]
    assert [c.cause for c in late] == [c.cause for c in timed_alerts("T1", JOURNAL, 4, 100.0, down, 130.0)]

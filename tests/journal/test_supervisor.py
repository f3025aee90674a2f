"""Supervisor corrections: PIN and reason required, kept forever as operations (issue: roles)."""

from __future__ import annotations

import pytest
from journal_helpers import Clock

from dealer_assist.history.recall import recall
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig, TableState
from dealer_assist.table.session_inputs import (
    BankAccepted,
    DiscardMisdeal,
    RekeyCard,
    SettlementConfirmed,
    ShoeLoaded,
    VoidRound,
)

PIN = "4821"


def _table(journal_dir, clock: Clock, name: str = "sup.db") -> Table:
    table = Table.open(journal_dir / name, TableConfig("T-9", "nobust-4.0"), clock=clock)
    table.set_pin(PIN)
    table.submit(ShoeLoaded("S-1", 6))
    table.submit(BankAccepted(1, 50_000))
    table.submit(PlaceWager(2, WagerKind.BASE, 1_000))
    return table


def _deal(table: Table, *cards: str) -> None:
    if table.session.tracker is not None and table.session.tracker.phase is Phase.BETTING:
        table.submit(NoMoreBets())
    for code in cards:
        table.submit(CardDrawn(parse_card(code)))


def _security(table: Table) -> list[str]:
    return [r.body["event"] for r in read_records(table.path) if r.kind is RecordKind.SECURITY]


def test_a_correction_needs_the_supervisor_pin_and_a_reason(journal_dir):
    table = _table(journal_dir, Clock())
    with pytest.raises(RuleError) as no_pin:
        table.submit(VoidRound("floor-1", "dealer error"))
    assert no_pin.value.code == "supervisor_only"
    with pytest.raises(RuleError) as no_reason:
        table.supervise(VoidRound("floor-1", "  "), PIN)
    assert no_reason.value.code == "reason_required"
    ops = table.supervise(VoidRound("floor-1", "cards exposed"), PIN)
    assert any(type(op).__name__ == "RoundVoided" for op in ops)
    entry = recall(table.path, round_id=1)[0]
    assert entry["voided"] == {"supervisor": "floor-1", "reason": "cards exposed"}
    assert entry["inputs"][0]["type"] == "PlaceWager", "the original inputs are kept"


def test_five_wrong_pins_lock_for_60_seconds_and_the_lock_survives_a_restart(journal_dir):
    clock = Clock()
    table = _table(journal_dir, clock)
    for _ in range(4):
        with pytest.raises(RuleError) as wrong:
            table.supervise(VoidRound("floor-1", "x"), "0000")
        assert wrong.value.code == "wrong_pin"
    with pytest.raises(RuleError) as fifth:
        table.supervise(VoidRound("floor-1", "x"), "0000")
    assert fifth.value.code == "pin_locked"
    with pytest.raises(RuleError) as locked:
        table.supervise(VoidRound("floor-1", "x"), PIN)
    assert locked.value.code == "pin_locked", "even the right PIN waits out the lock"
    table.close()
    clock.now += 30
    reopened = Table.open(journal_dir / "sup.db", clock=clock)
    with pytest.raises(RuleError) as still:
        reopened.supervise(VoidRound("floor-1", "x"), PIN)
    assert still.value.code == "pin_locked"
    clock.now += 31
    reopened.supervise(VoidRound("floor-1", "lock over"), PIN)
    assert _security(reopened).count("pin_wrong") == 5
    assert "pin_locked" in _security(reopened) and "pin_refused" in _security(reopened)


def test_rekeying_a_misread_card_replays_the_round_and_keeps_the_original(journal_dir):
    table = _table(journal_dir, Clock())
    _deal(table, "9H", "KD", "7H", "5D")  # seat 2: 9H 7H = 16; PD KD 5D
    ops = table.supervise(RekeyCard(2, parse_card("8H"), "floor-1", "shoe misread 8H as 7H"), PIN)
    assert [type(op).__name__ for op in ops] == ["CardRekeyed"]
    hand = table.session.tracker.hands[2][0]
    assert [str(c) for c in hand.cards] == ["9H", "8H"]
    cards_in_journal = [
        r.body["input"]["card"]
        for r in read_records(table.path)
        if r.kind is RecordKind.INPUT and r.body["input"]["type"] == "CardDrawn"
    ]
    assert cards_in_journal == ["9H", "KD", "7H", "5D"], "the misread stays on record"
    table.submit(Decide(2, 0, Action.STAND))
    with pytest.raises(RuleError) as conflict:
        table.supervise(RekeyCard(0, parse_card("2H"), "floor-1", "would make 10"), PIN)
    assert conflict.value.code == "rekey_conflict" and conflict.value.rule == "2.10"
    assert conflict.value.message.startswith("with card 1 as 2H, the round's input "), (
        conflict.value.message
    )  # counted from 1, as the screens count
    assert [str(c) for c in table.session.tracker.hands[2][0].cards] == ["9H", "8H"], "a refused re-key changes nothing"


def test_a_card_no_hand_may_take_holds_the_round_until_a_supervisor_discards_it(journal_dir):
    table = _table(journal_dir, Clock())
    _deal(table, "TH", "KD", "8H", "9D")  # seat 2 hard 18: must stand (4.0 rule 10); PD 19
    table.submit(Decide(2, 0, Action.STAND))
    assert table.session.tracker.phase.value == "settled"
    ops = table.submit(CardDrawn(parse_card("2C")))
    assert type(ops[0]).__name__ == "MisdealHeld" and ops[0].rule == "2.8"
    assert table.session.state is TableState.MISDEAL
    with pytest.raises(RuleError) as held:
        table.submit(SettlementConfirmed())
    assert held.value.code == "misdeal_held"
    table.supervise(DiscardMisdeal("floor-1", "card fell out of the shoe"), PIN)
    table.submit(SettlementConfirmed())
    assert table.rounds_closed == 1
    assert recall(table.path, round_id=1)[0]["corrections"][0]["type"] == "MisdealDiscarded"


def test_a_refused_input_is_recorded_with_its_reason(journal_dir):
    table = _table(journal_dir, Clock())
    with pytest.raises(RuleError):
        table.submit(PlaceWager(2, WagerKind.BUSTER, 50_000))
    refused = [r.body for r in read_records(table.path) if r.kind is RecordKind.REFUSED]
    assert refused[-1]["error"]["code"] == "wager_limit"


@pytest.mark.parametrize(
    "pin, said",
    [("12a4", "digits only"), ("123", "this one has 3"), ("1234567890123", "this one has 13"), ("", "this one has 0")],
)
def test_a_new_pin_outside_4_to_12_digits_is_refused_saying_why(journal_dir, pin, said):
    table = Table.open(journal_dir / "pin.db", TableConfig("T-1", "nobust-4.0"))
    with pytest.raises(RuleError) as bad:
        table.set_pin(pin)
    assert bad.value.code == "bad_pin" and said in bad.value.message
    assert table.pins.digest is None, "no PIN was recorded"
    table.close()

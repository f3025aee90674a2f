"""Between rounds the dealer's screen names the round about to open, and a card out of the shoe
before any round holds the table with what to do and who must do it."""

from __future__ import annotations

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.table.session import TableState
from dealer_assist.table.session_inputs import DiscardMisdeal, SettlementConfirmed
from dealer_assist.table.snapshot import BankView


def _one_round(t, confirmed: bool = True) -> None:
    for event in (
        PlaceWager(1, WagerKind.BASE, 1_000),
        NoMoreBets(),
        *(CardDrawn(parse_card(c)) for c in ("9H", "KD", "7H", "5D")),
        Decide(1, 0, Action.STAND),
        CardDrawn(parse_card("KC")),
        *((SettlementConfirmed(),) if confirmed else ()),
    ):
        assert t.controller.submit(event) is None, event


def test_the_header_shows_the_coming_round_during_the_bank_offer(table):
    t = table("nobust-4.0", pd_seat=4)
    assert t.view.title.text().startswith("nobust-4.0 · Round 1 ·")
    _one_round(t)
    assert t.snap.table.state is TableState.OFFERING_BANK
    assert t.view.prompt.text() == "Offer the bank to seat 4 (second turn)"
    assert t.view.title.text().startswith("nobust-4.0 · Round 2 ·"), "the round the bank is offered for"
    t.take_bank(4, 50_000)
    assert t.view.title.text().startswith("nobust-4.0 · Round 2 ·")


def test_a_card_before_any_round_says_what_to_do_and_to_call_a_supervisor(table):
    t = table("nobust-4.0", pd_seat=4)
    _one_round(t)
    assert t.controller.submit(CardDrawn(parse_card("2C"))) is None  # held, not refused: a real shoe's card is out
    assert t.snap.table.state is TableState.MISDEAL
    assert t.view.prompt.text() == "Hold 2♣ aside and call a floor supervisor: it came out before the round"
    assert t.view.banner.isVisible() and "call a floor supervisor" in t.view.banner.message.text()
    assert not t.view.banner.resolve.isVisible(), "nobody at the table dismisses it"
    assert t.supervise(DiscardMisdeal("floor-1", "card dropped"), t.pin) is None
    assert t.view.prompt.text() == "Offer the bank to seat 4 (second turn)" and not t.view.banner.isVisible()


def test_done_and_the_player_dealer_keeps_the_bank_for_its_second_round_in_one_tap(table, qtbot):
    t = table("nobust-4.0", pd_seat=4)
    _one_round(t, confirmed=False)
    keep = t.view.settlement.keep_bank
    assert keep.isVisible() and keep.text() == "Done · seat 4 keeps the bank"
    t.tap(keep)
    qtbot.waitUntil(lambda: t.snap.table.state is TableState.ROUND)
    assert t.snap.bank == BankView(4, 50_000, None) and t.snap.table.pd_turn == 2, "the same bank, its second round"
    inputs = [
        r.body["input"]["type"]
        for r in read_records(t.controller.journal_path)
        if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)
    ]
    assert inputs[-2:] == ["SettlementConfirmed", "BankAccepted"], (
        "the offer answered as the dealer would have, journaled"
    )
    _one_round(t, confirmed=False)
    assert not t.view.settlement.keep_bank.isVisible(), "two rounds at most: the bank moves on"
    t.tap(t.view.settlement.confirm)
    assert t.view.prompt.text() == "Offer the bank to seat 5 (first turn)"

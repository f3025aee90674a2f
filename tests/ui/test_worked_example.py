"""ROUND-FILE.md's worked example, played by taps on the dealer's screen."""

from __future__ import annotations

from dealer_assist.rules.inputs import Action, Decide, WagerKind
from dealer_assist.rules.ledger import ledger

CARDS = ["7S", "9H", "KD", "7H", "7C", "5D", "2S", "KC"]


def test_the_worked_example_reads_as_the_ledger(table):
    t = table("nobust-4.0", CARDS, pd_seat=4, bank=50_000)
    assert t.view.prompt.text() == "Place wagers, then tap No more bets; shoe locked"
    t.wager(1, WagerKind.BASE, 2_500)
    t.wager(1, WagerKind.LUCKY_LUCKY, 500)
    t.wager(1, WagerKind.BUSTER, 500)
    t.wager(6, WagerKind.BASE, 1_000)
    t.wager(6, WagerKind.BUSTER, 100)
    assert t.view.seats[1].wagers.text() == "$25"
    assert t.view.seats[1].side.text() == "LL $5\nBuster $5"
    assert t.view.seats[4].wagers.text() == "BANK"
    t.deal(6)
    assert t.view.payments.title.text() == "Settle now: Lucky Lucky"  # 7-7 with the PD's K up is 24: it loses
    assert [row[5] for row in t.view.payments.rows.texts()[1:]] == ["COLLECT $5"]
    t.tap(t.view.payments.confirm)
    assert t.view.prompt.text() == "Seat 1 to act on hard 14"
    assert t.enabled_decisions() == {Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER}
    marker, name = t.view.seats[1].marker, t.view.seats[1].name
    assert marker.isVisible() and marker.text() == "1st\naction", "no jargon, and no arrow read as the seat up next"
    assert marker.width() >= marker.sizeHint().width() and name.width() >= name.sizeHint().width(), (
        "the badge and the seat's name fit the narrowest seat, eight at 1280 px"
    )
    assert marker.height() >= marker.sizeHint().height() <= name.height(), "no taller than the name"
    assert marker.geometry().right() <= t.view.seats[1].contentsRect().right()
    assert t.view.seats[1].wagers.y() == t.view.seats[2].wagers.y(), "the badge moves nothing below it"
    t.decide(Action.STAND)
    assert marker.isVisible() and marker.text() == "1st\naction", "seat 1 stays first in the order while seat 6 acts"
    assert t.view.prompt.text() == "Seat 6 to act on hard 16"
    assert t.enabled_decisions() == {Action.STAND, Action.DOUBLE, Action.SURRENDER}
    t.deal()  # 2S: hard 18 with three cards is a forced stand
    assert t.view.prompt.text() == "The player-dealer hits hard 15"
    assert t.enabled_decisions() == set()
    t.deal()  # KC: 25, over
    assert t.view.prompt.text() == "The player-dealer is over at 25 — settle in order"
    assert t.view.stack.currentWidget() is t.view.settlement
    result = ledger(t.tracker)
    cells = t.settlement_cells()
    names = {"lucky_lucky": "Lucky Lucky", "base": "Base", "buster": "Buster"}
    still = result["settlements"][1:]  # the Lucky Lucky was collected after the deal
    assert t.view.settlement.note.text() == "✓ Settled before: Lucky Lucky of seat 1"
    assert [(row[0], row[1], row[2]) for row in cells] == [
        (str(n), str(s["seat"]), names[s["wager"]]) for n, s in enumerate(still, start=2)
    ]
    assert [row[5] for row in cells] == ["PAY $25", "PAY $10", "PAY $10", "PAY $2"]
    behind = {(h["seat"], h["hand"]): h for h in result["hands"]}
    for row, line in zip(cells, still, strict=False):
        hand = behind[(line["seat"], line["hand"])]
        shown = " ".join(
            card.replace("T", "10")[:-1] + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[card[-1]] for card in hand["cards"]
        )
        assert row[6] == (f"{shown} = {hand['total']}" if line["wager"] == "base" else ""), (
            "the hand behind each base result"
        )
    assert t.view.settlement.nets.rows[-1][1] == ("-$42", "collect"), "the bank lost: red"
    assert result["seats"] == {"1": {"net": 30}, "6": {"net": 12}}
    assert t.net_cells() == ["Seat 1", "+$30", "Seat 6", "+$12", "PD seat 4", "-$42"]
    assert t.view.dealer.turn.text() == "1st turn"
    t.tap(t.view.settlement.confirm)
    assert t.view.prompt.text() == "Offer the bank to seat 4 (second turn)"
    t.take_bank(4, 50_000)
    assert t.snap.table.round_id == 2
    assert t.view.prompt.text() == "Place wagers, then tap No more bets; shoe locked"
    assert t.view.dealer.turn.text() == "2nd turn"


def test_a_double_for_less_is_keyed_and_checked_by_the_tracker(table):
    t = table("nobust-4.0", CARDS, pd_seat=4, bank=50_000)
    t.wager(1, WagerKind.BASE, 2_500)
    t.wager(6, WagerKind.BASE, 1_000)
    t.deal(6)
    t.decide(Action.STAND)
    keypad = t.view.double_less.keypad
    assert keypad.label.text() == "Seat 6: double for $0 ($5–$10)"
    assert not keypad.chips[2_500].isEnabled() and not keypad.chips[10_000].isEnabled(), "more than the wager"
    for amount in range(0, 1_600, 100):  # "Double for less" is lit exactly where the tracker accepts
        keypad.set_amount(amount)
        assert keypad.confirm.isEnabled() == t.tracker.can(Decide(6, 0, Action.DOUBLE, amount)), amount
        assert keypad.chips[500].isEnabled() == (amount + 500 <= 1_000)
    t.tap(keypad.clear)
    t.tap(keypad.chips[500])
    t.tap(keypad.confirm)
    assert t.view.prompt.text() == "Seat 6 takes a card"
    assert t.view.seats[6].hands[0].status.text() == "double +$5 · ▶ to act"
    assert not keypad.confirm.isEnabled()

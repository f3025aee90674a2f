"""Told when due (RULES.md §2.15, §2.17, §3.10, §5.4): right after the deal the dealer's screen shows
what is settled now, Lucky Lucky and an early Natural, or after the peek the insurance, each with
the amount to pay or collect; the round goes on only after "Paid", and the settlement names those
rows as settled before and leaves them out of what is still to pay."""

from __future__ import annotations

from dealer_assist.rules.inputs import Action, WagerKind
from dealer_assist.rules.phases import Need
from ui.keypads.wager_pad import INSURANCE


def _due_cells(t) -> list[list[str]]:
    return t.view.payments.rows.texts()[1:]


def test_lucky_lucky_and_an_early_natural_are_shown_right_after_the_deal(table):
    # nobust-4.0, the PD in seat 4 with $500: seat 1 gets 6S 7C (Lucky Lucky with the PD's 7D up is 20:
    # 2 to 1), seat 2 AH KH (a Natural), seat 6 9D 7H; the PD 7D 9C, then KD
    t = table("nobust-4.0", ["6S", "AH", "9D", "7D", "7C", "KH", "7H", "9C", "KD"], pd_seat=4, bank=50_000)
    t.wager(1, WagerKind.BASE, 1_000)
    t.wager(1, WagerKind.LUCKY_LUCKY, 500)
    t.wager(2, WagerKind.BASE, 1_000)
    t.wager(6, WagerKind.BASE, 1_000)
    t.deal(8)
    assert t.snap.need is Need.PAYMENTS
    assert t.view.stack.currentWidget() is t.view.payments
    assert t.view.prompt.text() == "Settle now, then tap Paid; shoe locked"
    assert t.view.payments.title.text() == "Settle now: Lucky Lucky · Natural"
    assert [(row[1], row[2], row[4], row[5]) for row in _due_cells(t)] == [
        ("1", "Lucky Lucky", "win", "PAY $10"),
        ("2", "Base", "win", "PAY $15"),
    ]
    assert _due_cells(t)[1][6] == "A♥ K♥ = Natural"  # the Natural beside its payment
    assert t.enabled_decisions() == set(), "no decision before the dealer has paid"
    assert t.view.payments.confirm.text() == "Paid · go on"
    t.tap(t.view.payments.confirm)
    assert t.view.stack.currentWidget() is t.view.table_page
    assert t.view.prompt.text() == "Seat 1 to act on hard 13"
    t.decide(Action.STAND)
    t.decide(Action.STAND)  # seat 6 on 16
    t.deal()  # KD: the PD's 16 goes over
    assert t.snap.need is Need.NOTHING
    assert [(row[0], row[1], row[2], row[5]) for row in t.settlement_cells()] == [
        ("2", "6", "Base", "PAY $10"),
        ("3", "1", "Base", "PAY $10"),
    ]  # 1 and 4 were settled after the deal
    assert t.view.settlement.note.text() == "✓ Settled before: Lucky Lucky of seat 1;\nNatural of seat 2"
    assert t.net_cells() == ["Seat 1", "+$20", "Seat 2", "+$15", "Seat 6", "+$10", "PD seat 4", "-$45"]


def test_the_lucky_lucky_row_shows_the_cards_that_decided_it(table):
    # as above: seat 1's 6S 7C with the PD's 7D up make 20
    t = table("nobust-4.0", ["6S", "AH", "9D", "7D", "7C", "KH", "7H", "9C", "KD"], pd_seat=4, bank=50_000)
    t.wager(1, WagerKind.BASE, 1_000)
    t.wager(1, WagerKind.LUCKY_LUCKY, 500)
    t.wager(2, WagerKind.BASE, 1_000)
    t.wager(6, WagerKind.BASE, 1_000)
    t.deal(8)
    lucky = _due_cells(t)[0]
    assert lucky[2] == "Lucky Lucky" and lucky[6] == "6♠ 7♣ + 7♦ up", "the player's two cards and the up card"


def test_insurance_and_a_natural_are_settled_after_the_peek(table):
    # c21-8.0, the PD in seat 7 with $500: seat 1 9S 7C insures $5, seat 2 AH KH; the PD 8D in the
    # hole and AC up: soft 19, no Natural
    t = table("c21-8.0", ["9S", "AH", "8D", "7C", "KH", "AC"], pd_seat=7, bank=50_000)
    t.wager(1, WagerKind.BASE, 1_000)
    t.wager(2, WagerKind.BASE, 1_000)
    t.deal(6)
    assert t.snap.need is Need.INSURANCE
    t.wager(1, INSURANCE, 500)
    t.tap(t.view.wagers.close_insurance)
    t.tap(t.bench.peek_buttons["answer"])
    assert t.view.payments.title.text() == "Settle now: insurance · Natural"
    assert [(row[1], row[2], row[5]) for row in _due_cells(t)] == [
        ("1", "Insurance", "COLLECT $5"),
        ("2", "Base", "PAY $12"),
    ]
    t.tap(t.view.payments.confirm)
    t.decide(Action.STAND)  # seat 1 on 16; the PD's soft 19 stands
    assert [row[5] for row in t.settlement_cells()] == ["COLLECT $10"]
    assert t.view.settlement.note.text() == "✓ Settled before: insurance of seat 1;\nNatural of seat 2"


def test_a_natural_the_bank_may_not_reach_is_told_and_paid_at_settlement(table):
    # c21-8.0, the PD in seat 7 with only $100: seat 1's 8-8 for $100 could take the whole bank
    # before seat 2's Natural comes in the base pass
    t = table("c21-8.0", ["8S", "AH", "9D", "8C", "KH", "7C", "4D"], pd_seat=7, bank=10_000)
    t.wager(1, WagerKind.BASE, 10_000)
    t.wager(2, WagerKind.BASE, 1_000)
    t.deal(6)
    assert t.view.payments.title.text() == "A Natural's cards go away now; it is paid at settlement"
    assert not t.view.payments.scroller.isVisible()
    assert "Natural of seat 2: put the cards away and leave the wager" in t.view.payments.note.text()
    assert t.view.payments.confirm.text() == "Cards away · go on"
    t.tap(t.view.payments.confirm)
    t.decide(Action.STAND)
    t.deal()  # 4D: the PD stands on 20 and wins seat 1's $100 first
    assert [row[5] for row in t.settlement_cells()] == ["COLLECT $100", "PAY $12"]
    assert not t.view.settlement.note.isVisible()

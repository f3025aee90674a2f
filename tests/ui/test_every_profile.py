"""Whole rounds of every profile through the screens: what the dealer sees at every step."""

from __future__ import annotations

import random

import pytest

from dealer_assist.rules.inputs import Action, Decide, WagerKind
from dealer_assist.rules.ledger import ledger
from dealer_assist.rules.phases import Need
from dealer_assist.rules.profile import profile_names
from dealer_assist.rules.settlement import Wager
from dealer_assist.table.session import TableState
from dealer_assist.text.journal_text import money
from ui.common.text import settlement_action

ROUNDS = 4


def _check_screen(t) -> None:
    """The prompt, the buttons and the dealer's cards are the tracker's, and the hole card is hidden."""
    tracker = t.tracker
    assert t.view.prompt.text() == tracker.prompt()
    wait = tracker.awaiting()
    expected = set()
    if wait.need is Need.DECISION:
        expected = {a for a in Action if tracker.can(Decide(wait.seat, wait.hand, a))}
    assert t.enabled_decisions() == expected
    less = (
        wait.need is Need.DECISION
        and tracker.profile.table_min < tracker.hands[wait.seat][wait.hand].stake
        and tracker.can(Decide(wait.seat, wait.hand, Action.DOUBLE, tracker.profile.table_min))
    )
    assert t.view.double_less.keypad.chips[500].isEnabled() == less
    if wait.need is Need.PAYMENTS:  # what is settled now covers the table, row for row as the tracker has it
        assert t.view.stack.currentWidget() is t.view.payments
        due = [(str(r.seat), settlement_action(r.amount, r.result, r.stake, r.in_action)) for r in tracker.due]
        assert [(row[1], row[5]) for row in t.view.payments.rows.texts()[1:]] == (due if due else [])
    elif wait.need is not Need.NOTHING:
        shown = t.view.dealer.cards.cards
        assert shown == tuple(tracker.visible_dealer_cards())
        if (
            tracker.profile.dealer_hole_card
            and tracker.phase.value not in ("dealer", "settled")
            and len(tracker.dealer) == 2
        ):
            assert None in shown, "the hole card is face down until the reveal"


def _play_round(t, rng: random.Random) -> None:
    seats = [s for s in range(1, t.tracker.seats + 1) if s != t.tracker.pd_seat]
    for seat in rng.sample(seats, 3):
        t.wager(seat, WagerKind.BASE, rng.choice([500, 1_000, 2_500, 10_000]))
        if t.profile.lucky_lucky and rng.random() < 0.5:
            t.wager(seat, WagerKind.LUCKY_LUCKY, 500)
        if rng.random() < 0.6:
            t.wager(seat, WagerKind.BUSTER, rng.choice([100, 500]))
    _check_screen(t)
    while (need := t.tracker.awaiting().need) is not Need.NOTHING:
        if need in (Need.WAGERS, Need.CARD):
            t.deal()
        elif need is Need.DECISION:
            enabled = sorted(t.enabled_decisions())
            if t.tracker.takes_card() and (not enabled or rng.random() < 0.5):
                t.deal()
            else:
                t.decide(rng.choice(enabled))
        elif need is Need.INSURANCE:
            t.tap(t.view.wagers.close_insurance)
        elif need is Need.PEEK:
            t.tap(t.bench.peek_buttons["answer"])
        elif need is Need.PAYMENTS:
            t.tap(t.view.payments.confirm)
        else:
            raise AssertionError(f"unexpected need {need}")
        _check_screen(t)


def _check_settlement(t) -> None:
    result = ledger(t.tracker)
    cells = t.settlement_cells()
    still = [
        (row, line)
        for row, line in enumerate(result["settlements"], start=1)
        if (line["seat"], line["hand"], Wager(line["wager"])) not in t.tracker.settled_early
    ]
    assert len(cells) == len(still), "every row still to settle, and only those"
    for cell, (row, line) in zip(cells, still, strict=False):
        assert cell[0] == str(row)
        assert cell[1] == str(line["seat"])
        assert cell[3] == money(round(line["stake"] * 100))
        assert cell[5] == settlement_action(
            round(line["amount"] * 100), line["result"], round(line["stake"] * 100), round(line["in_action"] * 100)
        )
    texts = t.net_cells()
    for seat, entry in result["seats"].items():
        assert texts[texts.index(f"Seat {seat}") + 1] == ("+" if entry["net"] > 0 else "") + money(
            round(entry["net"] * 100)
        )


@pytest.mark.parametrize("name", profile_names())
def test_rounds_of_every_profile_read_as_the_tracker_and_the_ledger(table, name):
    rng = random.Random(name)
    t = table(name, seed=len(name))
    for round_number in range(1, ROUNDS + 1):
        if t.snap.table.state is TableState.OFFERING_BANK:
            t.take_bank(t.snap.table.offer_seat, 20_000)
        assert t.snap.table.round_id == round_number
        _play_round(t, rng)
        assert t.view.stack.currentWidget() is t.view.settlement
        _check_settlement(t)
        t.tap(t.view.settlement.confirm)

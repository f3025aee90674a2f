"""The one loop that answers `tracker.awaiting()`: a round played from a policy's choices.

A round file, random play, the bench table, the Monte Carlo and autoplay differ only in who
chooses; the order in which a round asks (wagers, cards, insurance, the peek, decisions) and how
each need becomes an input are written here once.

A policy (`RoundPolicy`) answers, each when the round asks for it:
- `wager(tracker)`: the next wager to place, or None when the wagers are all placed (the dealer
  then taps "No more bets" at a live table; in a round file the first card closes betting);
- `card(tracker)`: the next card out of the shoe (a deal, a forced card, a hit, a dealer's draw);
- `decide(tracker, seat, hand)`: the decision of the hand whose turn it is, or None to hit (the
  hit is then the next `card`);
- `insure(tracker)`: the next insurance to place while insurance is open, or None to close it
  (default: none);
- `peek(tracker)`: what the peek device answers (default: an honest device, the answer the
  shoe's read of the hole card implies);
- `check_by_hand(tracker)`: whether a floor supervisor finds a Natural when a failed or
  disagreeing peek holds the round (default: the truth);
- `confirms_stand(seat, hand)`: whether the dealer also taps Stand on a hand the rules just ended
  by themselves (default: no).
What a live table settles before the round ends (Lucky Lucky, insurance, an early Natural) is
always answered with the dealer's "Paid": there is nothing to choose.
A policy may raise `RuleError` to refuse to go on (a round file that ran out of cards).
The driver allocates nothing per input beyond the input itself; a drawn card's input is shared.

At a live table (`at_the_table`) the check by hand is a floor supervisor's correction, and a wired
peek device gives its own answer: a driver there waits for it instead of giving `PeekAnswered`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Protocol

from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import (
    Action,
    CardDrawn,
    CheckedByHand,
    CloseInsurance,
    Decide,
    Input,
    Insure,
    NoMoreBets,
    PaymentsMade,
    PeekAnswered,
    PeekResult,
    PlaceWager,
)
from dealer_assist.rules.operations import HandEnded
from dealer_assist.rules.phases import Need
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.session_inputs import ConfirmPeek
from dealer_assist.table.table_facts import TableFacts

__all__ = ["RoundPolicy", "play", "table_input"]

drawn = cache(CardDrawn)  # a drawn card is a value: one shared input per card
_answered = cache(PeekAnswered)
_checked = cache(CheckedByHand)
_CLOSE_INSURANCE = CloseInsurance()
_NO_MORE_BETS = NoMoreBets()
_PAID = PaymentsMade()


class RoundPolicy(Protocol):
    """Who chooses the round's inputs; see the module's docstring for when each is asked."""

    def wager(self, tracker: RoundTracker) -> PlaceWager | None: ...

    def card(self, tracker: RoundTracker) -> Card: ...

    def decide(self, tracker: RoundTracker, seat: int, hand: int) -> Decide | None: ...

    def insure(self, tracker: RoundTracker) -> Insure | None:
        return None

    def peek(self, tracker: RoundTracker) -> PeekResult:
        return tracker.expected_peek_answer()

    def check_by_hand(self, tracker: RoundTracker) -> bool:
        return tracker.expected_peek_answer() is PeekResult.NATURAL

    def confirms_stand(self, seat: int, hand: int) -> bool:
        return False


def next_input(tracker: RoundTracker, policy: RoundPolicy) -> Input | None:
    """The input the policy gives for what the round awaits now; None once it is settled."""
    wait = tracker.awaiting()
    need = wait.need
    if need is Need.CARD:
        return drawn(policy.card(tracker))
    if need is Need.DECISION:
        assert wait.seat is not None and wait.hand is not None, "a decision is always due from one hand"
        decision = policy.decide(tracker, wait.seat, wait.hand)
        return decision if decision is not None else drawn(policy.card(tracker))
    if need is Need.WAGERS:
        wager = policy.wager(tracker)
        if wager is not None:
            return wager
        return _NO_MORE_BETS if tracker.dealer_closes_betting else drawn(policy.card(tracker))
    if need is Need.INSURANCE:
        insure = policy.insure(tracker)
        return insure if insure is not None else _CLOSE_INSURANCE
    if need is Need.PEEK:
        return _answered(policy.peek(tracker))
    if need is Need.CHECK_BY_HAND:
        return _checked(policy.check_by_hand(tracker))
    if need is Need.PAYMENTS:
        return _PAID
    return None


def at_the_table(event: Input | None, supervisor: str) -> Input | ConfirmPeek | None:
    """The driver's input as a live table takes it: there a check by hand is the floor supervisor's
    confirmation (RULES.md §6.2), signed by `supervisor`; every other input is itself."""
    if type(event) is CheckedByHand:
        return ConfirmPeek(event.natural, supervisor, "checked by hand")
    return event


def table_input(facts: TableFacts, policy: RoundPolicy, supervisor: str) -> Input | ConfirmPeek | None:
    """The input `policy` gives for what the table's open round awaits, as the table takes it (a
    check by hand signed by `supervisor`); None between rounds and once the round is settled."""
    return None if facts.round is None else at_the_table(next_input(facts.round, policy), supervisor)


def play(
    tracker: RoundTracker, policy: RoundPolicy, on_input: Callable[[RoundTracker, Input], None] | None = None
) -> RoundTracker:
    """Play the round to its settlement; `on_input` sees every input just before it is applied."""
    event: Input | None = policy.wager(tracker)
    while event is not None:  # the wagers come first, without asking the round each time
        if on_input is not None:
            on_input(tracker, event)
        tracker.apply(event)
        event = policy.wager(tracker)
    event = next_input(tracker, policy)
    while event is not None:
        if on_input is not None:
            on_input(tracker, event)
        for op in tracker.apply(event):
            if type(op) is HandEnded and op.forced and policy.confirms_stand(op.seat, op.hand):
                confirm = Decide(op.seat, op.hand, Action.STAND)
                if on_input is not None:
                    on_input(tracker, confirm)
                tracker.apply(confirm)
        event = next_input(tracker, policy)
    return tracker

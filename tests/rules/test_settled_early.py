"""What a live table settles before the round ends (RULES.md §2.15, §2.17, §3.10, §5.4): Lucky Lucky
right after the deal, insurance once the peek has answered, a Natural as soon as the dealer cannot
have one, each told as a step the dealer settles ("Paid") before the round goes on, and each row
exactly as the settlement shows it at the end."""

from __future__ import annotations

from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import (
    Action,
    CardDrawn,
    CloseInsurance,
    Decide,
    Input,
    Insure,
    NoMoreBets,
    PaymentsMade,
    PeekAnswered,
    PeekResult,
    PlaceWager,
    WagerKind,
)
from dealer_assist.rules.operations import NaturalPaidLater, Operation, PaymentDue, PaymentsDone
from dealer_assist.rules.outcomes import Result
from dealer_assist.rules.phases import Need
from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.settlement import Wager
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker


def _live(profile: str, pd: PlayerDealer | None, seats: int | None = None) -> RoundTracker:
    return RoundTracker(load_profile(profile), seats, pd, dealer_closes_betting=True, dealer_settles_early=True)


def _feed(tracker: RoundTracker, events: list[Input]) -> list[Operation]:
    ops: list[Operation] = []
    for event in events:
        ops += tracker.apply(event)
    return ops


def _cards(*codes: str) -> list[Input]:
    return [CardDrawn(parse_card(code)) for code in codes]


def test_lucky_lucky_and_a_natural_are_due_right_after_the_deal_in_4_0() -> None:
    """PD in seat 4 (bank $500) holds 9-7, the 9 up; seat 1 has a Natural and $5 Lucky Lucky (A-K-9 is
    20: 2:1), seat 2 holds 7-7 with $10 Lucky Lucky (7-7-9 is 23: it loses)."""
    tracker = _live("nobust-4.0", PlayerDealer(4, 50_000))
    deal = _feed(
        tracker,
        [
            PlaceWager(1, WagerKind.BASE, 1_000),
            PlaceWager(1, WagerKind.LUCKY_LUCKY, 500),
            PlaceWager(2, WagerKind.BASE, 2_000),
            PlaceWager(2, WagerKind.LUCKY_LUCKY, 1_000),
            NoMoreBets(),
            *_cards("AS", "7D", "9C", "KH", "7H", "7C"),
        ],
    )
    assert tracker.awaiting().need is Need.PAYMENTS
    due = [op for op in deal if isinstance(op, PaymentDue)]
    # Lucky Lucky from the seat after the PD (seats 5 to 8 are empty, then 1, 2); then seat 1's
    # Natural, 3:2, in its place in the base pass (the button: the PD's 7 counts to seat 1)
    assert due == [
        PaymentDue(1, 0, Wager.LUCKY_LUCKY, Result.WIN, 1_000),
        PaymentDue(2, 0, Wager.LUCKY_LUCKY, Result.LOSE, -1_000),
        PaymentDue(1, 0, Wager.BASE, Result.WIN, 1_500),
    ]
    assert "tap Paid" in tracker.prompt()
    refused = tracker.verify(Decide(2, 0, Action.STAND))
    assert refused is not None and refused.code == "payments_due" and refused.rule == "5.4"
    assert not tracker.takes_card()  # the shoe stays locked until the dealer has paid
    assert _feed(tracker, [PaymentsMade()]) == [PaymentsDone(3)]
    assert tracker.awaiting().need is Need.DECISION and tracker.awaiting().seat == 2
    _feed(tracker, [Decide(2, 0, Action.STAND), *_cards("TD")])  # the PD's 16 draws to 26
    final = {(r.seat, r.hand, r.wager): (r.result, r.amount) for r in tracker.rows}
    assert all(final[(d.seat, d.hand, d.wager)] == (d.result, d.amount) for d in due)
    assert set(tracker.settled_early) == {(1, 0, Wager.LUCKY_LUCKY), (2, 0, Wager.LUCKY_LUCKY), (1, 0, Wager.BASE)}
    refused = tracker.verify(PaymentsMade())
    assert refused is not None and refused.code == "nothing_due"


def test_insurance_is_collected_and_a_natural_paid_once_the_peek_says_no_natural() -> None:
    """21st Century 8.0: PD in seat 7 (bank $1,000), Ace up (its second card); seat 1 insures $5
    and seat 2 holds a Natural. The peek says no Natural: insurance is collected, the Natural paid 6:5."""
    tracker = _live("c21-8.0", PlayerDealer(7, 100_000))
    _feed(
        tracker,
        [
            PlaceWager(1, WagerKind.BASE, 1_000),
            PlaceWager(2, WagerKind.BASE, 2_000),
            NoMoreBets(),
            *_cards("9S", "AH", "8D", "7C", "KH", "AC"),
        ],
    )
    assert tracker.awaiting().need is Need.INSURANCE
    ops = _feed(tracker, [Insure(1, 500), CloseInsurance(), PeekAnswered(PeekResult.NONE)])
    assert [op for op in ops if isinstance(op, PaymentDue)] == [
        PaymentDue(1, 0, Wager.INSURANCE, Result.LOSE, -500),
        PaymentDue(2, 0, Wager.BASE, Result.WIN, 2_400),
    ]
    _feed(tracker, [PaymentsMade(), Decide(1, 0, Action.STAND)])  # the PD's soft 19 stands
    final = {(r.seat, r.wager): r.amount for r in tracker.rows}
    assert final[(1, Wager.INSURANCE)] == -500 and final[(2, Wager.BASE)] == 2_400


def test_a_natural_the_bank_may_not_reach_is_paid_at_settlement_and_the_dealer_is_told() -> None:
    """A $100 bank: seat 1's pair of 8s, $100, could split to four doubled hands and take the whole
    bank before seat 2's Natural comes in the base pass, so the Natural waits for its place."""
    tracker = _live("c21-8.0", PlayerDealer(7, 10_000))
    ops = _feed(
        tracker,
        [
            PlaceWager(1, WagerKind.BASE, 10_000),
            PlaceWager(2, WagerKind.BASE, 1_000),
            NoMoreBets(),
            *_cards("8S", "AH", "9D", "8C", "KH", "7C"),
        ],
    )
    assert [op for op in ops if isinstance(op, (PaymentDue, NaturalPaidLater))] == [NaturalPaidLater(2)]
    assert tracker.awaiting().need is Need.PAYMENTS and tracker.naturals_later == (2,)
    _feed(
        tracker, [PaymentsMade(), Decide(1, 0, Action.STAND), *_cards("4D")]
    )  # 16 against 20: the bank wins $100 first
    assert tracker.settled_early == {}
    (natural,) = [r for r in tracker.rows if r.seat == 2]
    assert natural.amount == 1_200  # reached after all, paid in its place on the settlement


def test_a_house_banked_blackjack_is_paid_at_once_and_a_round_that_ends_at_once_settles_it_all_at_the_end() -> None:
    tracker = _live("sd-buster-a", None)
    ops = _feed(
        tracker,
        [
            PlaceWager(1, WagerKind.BASE, 1_000),
            PlaceWager(2, WagerKind.BASE, 1_000),
            NoMoreBets(),
            *_cards("AS", "9S", "9H", "KD", "7D", "7C"),
        ],
    )  # the dealer's 9 up, no peek
    assert [op for op in ops if isinstance(op, PaymentDue)] == [PaymentDue(1, 0, Wager.BASE, Result.WIN, 1_500)]
    _feed(tracker, [PaymentsMade(), Decide(2, 0, Action.STAND), *_cards("TD")])
    assert [(r.seat, r.amount) for r in tracker.rows] == [(1, 1_500), (2, 1_000)]
    alone = _live("sd-buster-a", None)
    _feed(alone, [PlaceWager(1, WagerKind.BASE, 1_000), NoMoreBets(), *_cards("AS", "9H", "KD", "7C")])
    assert alone.phase.value == "settled"  # nothing left to play: the settlement has it all at once
    assert alone.due == () and alone.settled_early == {} and alone.awaiting().need is Need.NOTHING


def test_a_round_file_settles_everything_at_the_end() -> None:
    tracker = RoundTracker(load_profile("nobust-4.0"), None, PlayerDealer(4, 50_000))
    _feed(
        tracker,
        [
            PlaceWager(1, WagerKind.BASE, 1_000),
            PlaceWager(1, WagerKind.LUCKY_LUCKY, 500),
            *_cards("AS", "9C", "KH", "7C"),
        ],
    )
    assert tracker.awaiting().need is not Need.PAYMENTS and tracker.due == ()

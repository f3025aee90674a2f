"""Random wagers and decisions a table could see: the bench table, benchmarks and property tests.

Every choice is drawn from what the tracker says it would accept, so random play is legal play.
"""
from __future__ import annotations

import random
from collections.abc import Callable

from dealer_assist.cards import Card
from dealer_assist.inputs import (
    Action, CardDrawn, CheckedByHand, CloseInsurance, Decide, Input, Insure, PeekAnswered, PeekResult,
    PlaceWager, WagerKind,
)
from dealer_assist.money import Cents
from dealer_assist.profile import Profile
from dealer_assist.tracker import Need, PlayerDealer, RoundTracker


def _amount(rng: random.Random, low: Cents, high: Cents) -> Cents:
    """A chip-like amount: whole units mostly, from low to high."""
    return max(low, min(high, rng.choice([low, low * 2, low * 5, (low + high) // 2, high, rng.randint(low, high) // 100 * 100])))


def random_player_dealer(profile: Profile, rng: random.Random, seats: int) -> PlayerDealer | None:
    if not profile.player_dealer:
        return None
    return PlayerDealer(rng.randint(1, seats), rng.choice([5_000, 20_000, 50_000, 100_000, 500_000]))


def random_wagers(tracker: RoundTracker, rng: random.Random, *, full_table: bool = False) -> list[PlaceWager]:
    """Base wagers on some seats (every seat when full), side bets on some of those."""
    p = tracker.profile
    wagers = []
    seats = [s for s in range(1, tracker.seats + 1) if s != tracker.pd_seat]
    chosen = seats if full_table else [s for s in seats if rng.random() < 0.6] or [rng.choice(seats)]
    for seat in chosen:
        wagers.append(PlaceWager(seat, WagerKind.BASE, _amount(rng, p.table_min, p.table_max)))
        if p.lucky_lucky and (full_table or rng.random() < 0.4):
            wagers.append(PlaceWager(seat, WagerKind.LUCKY_LUCKY, _amount(rng, 100, 2_500)))
        if full_table or rng.random() < 0.4:
            wagers.append(PlaceWager(seat, WagerKind.BUSTER, _amount(rng, p.buster_min, p.buster_max)))
    return wagers


def random_decision(tracker: RoundTracker, rng: random.Random, draw: Callable[[], Card]) -> Input:
    """One legal input for the hand awaiting a decision: a card from the shoe is the hit."""
    wait = tracker.awaiting()
    assert wait.need is Need.DECISION and wait.seat is not None and wait.hand is not None
    options: list[Input] = [
        Decide(wait.seat, wait.hand, action)
        for action in (Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
    ]
    options.append(Decide(wait.seat, wait.hand, Action.DOUBLE, tracker.profile.table_min))
    legal = [o for o in options if tracker.can(o)]
    if tracker.takes_card() and (not legal or rng.random() < 0.55):
        return CardDrawn(draw())
    return rng.choice(legal)


def next_input(tracker: RoundTracker, rng: random.Random, draw: Callable[[], Card]) -> Input:
    """The next input of a random but legal round after the wagers are placed."""
    wait = tracker.awaiting()
    if wait.need in (Need.WAGERS, Need.CARD):
        return CardDrawn(draw())
    if wait.need is Need.DECISION:
        return random_decision(tracker, rng, draw)
    if wait.need is Need.INSURANCE:
        for seat in sorted(tracker.hands):
            if seat not in tracker.insurance and rng.random() < 0.3:
                insure = Insure(seat, tracker.wagers[seat][WagerKind.BASE] // 2 // 100 * 100)
                if tracker.can(insure):
                    return insure
        return CloseInsurance()
    if wait.need is Need.PEEK:
        return PeekAnswered(tracker.expected_peek_answer())
    if wait.need is Need.CHECK_BY_HAND:
        return CheckedByHand(tracker.expected_peek_answer() is PeekResult.NATURAL)
    raise RuntimeError(f"random play cannot answer {wait.need}")


def play_random_round(
    profile: Profile, rng: random.Random, draw: Callable[[], Card], *, full_table: bool = False,
    seats: int | None = None, on_input: Callable[[RoundTracker, Input], None] | None = None,
) -> RoundTracker:
    """A complete random round; `on_input` sees every input just before it is applied."""
    tracker = RoundTracker(profile, seats, random_player_dealer(profile, rng, seats or profile.seats))
    wagers = random_wagers(tracker, rng, full_table=full_table)
    while tracker.awaiting().need is not Need.NOTHING:
        event = wagers.pop(0) if wagers else next_input(tracker, rng, draw)
        if on_input:
            on_input(tracker, event)
        tracker.apply(event)
    return tracker

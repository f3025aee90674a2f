"""Random wagers and decisions a table could see: the bench table, benchmarks and property tests.

Every choice is drawn from what the tracker says it would accept, so random play is legal play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from dealer_assist.play.round_driver import RoundPolicy, play
from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import Action, Decide, Input, Insure, PlaceWager, WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker

__all__ = ["RandomTablePolicy"]


def _amount(rng: random.Random, low: Cents, high: Cents) -> Cents:
    """A chip-like amount: whole units mostly, from low to high."""
    return max(
        low,
        min(high, rng.choice([low, low * 2, low * 5, (low + high) // 2, high, rng.randint(low, high) // 100 * 100])),
    )


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


class RandomPolicy(RoundPolicy):
    """Random legal choices from what the tracker says it would accept; `pending` are the wagers
    still to place, `draw` the shoe."""

    def __init__(self, rng: random.Random, draw: Callable[[], Card], pending: Sequence[PlaceWager] = ()) -> None:
        self.rng = rng
        self.draw = draw
        self.pending = list(pending)

    def wager(self, tracker: RoundTracker) -> PlaceWager | None:
        return self.pending.pop(0) if self.pending else None

    def card(self, tracker: RoundTracker) -> Card:
        return self.draw()

    def decide(self, tracker: RoundTracker, seat: int, hand: int) -> Decide | None:
        """A legal decision, or a hit (None) more than half the time a card would be taken."""
        options = [
            Decide(seat, hand, action) for action in (Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
        ]
        options.append(Decide(seat, hand, Action.DOUBLE, tracker.profile.table_min))
        legal = [o for o in options if tracker.can(o)]
        if tracker.takes_card() and (not legal or self.rng.random() < 0.55):
            return None
        return self.rng.choice(legal)

    def insure(self, tracker: RoundTracker) -> Insure | None:
        for seat in sorted(tracker.hands):
            if seat not in tracker.insurance and self.rng.random() < 0.3:
                insure = Insure(seat, tracker.wagers[seat][WagerKind.BASE] // 2 // 100 * 100)
                if tracker.can(insure):
                    return insure
        return None


class RandomTablePolicy(RandomPolicy):
    """`RandomPolicy` that also chooses each round's wagers: drawn when the round asks for its
    first, as a table of players would place them."""

    def wager(self, tracker: RoundTracker) -> PlaceWager | None:
        if not self.pending and not tracker.wagers:
            self.pending = random_wagers(tracker, self.rng)
        return super().wager(tracker)


def play_random_round(
    profile: Profile,
    rng: random.Random,
    draw: Callable[[], Card],
    *,
    full_table: bool = False,
    seats: int | None = None,
    on_input: Callable[[RoundTracker, Input], None] | None = None,
) -> RoundTracker:
    """A complete random round; `on_input` sees every input just before it is applied."""
    tracker = RoundTracker(profile, seats, random_player_dealer(profile, rng, seats or profile.seats))
    return play(tracker, RandomPolicy(rng, draw, random_wagers(tracker, rng, full_table=full_table)), on_input)

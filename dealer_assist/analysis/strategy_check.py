"""The strategy table played through the round tracker, to check its EV by Monte Carlo.

One player at seat 1 bets the table minimum on the base game only and plays the table; a
player-dealer (where the profile has one) banks from the last seat with a bank no round can reach.
Cards come from an infinite deck (each card drawn at random, with replacement) or from a real
shoe, reshuffled at its cut card. The player's result per round, in units of the wager, gives the
mean and its standard error, over all rounds and by dealer column (to find where a difference lies).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from dealer_assist.analysis.base_game import BaseGame
from dealer_assist.analysis.game_sim import BANK_COVERS, Table, play_round
from dealer_assist.analysis.optimal_play import OptimalPlayer
from dealer_assist.play.shoe import FULL_DECK, Shoe
from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import PlaceWager, WagerKind
from dealer_assist.rules.settlement import Wager, seat_nets
from dealer_assist.rules.tracker import PlayerDealer

PLAYER_SEAT = 1


@dataclass(frozen=True, slots=True)
class Sample:
    """The mean result per round and its standard error; `by_column` the same for the rounds of
    each dealer column (the up card, or the player-dealer's two cards)."""

    rounds: int
    mean: float
    standard_error: float
    by_column: Mapping[str, Sample] = field(default_factory=dict)

    def distance(self, ev: float) -> float:
        """How many standard errors the mean lies from `ev`."""
        return (self.mean - ev) / self.standard_error


@dataclass
class _Sums:
    rounds: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, result: float) -> None:
        self.rounds += 1
        self.total += result
        self.squares += result * result

    def sample(self, by_column: Mapping[str, Sample] | None = None) -> Sample:
        mean = self.total / self.rounds
        if self.rounds < 2:
            return Sample(self.rounds, mean, math.inf, by_column or {})
        variance = (self.squares - self.rounds * mean * mean) / (self.rounds - 1)
        return Sample(self.rounds, mean, math.sqrt(max(variance, 0.0) / self.rounds), by_column or {})


def infinite_deck(rng: random.Random) -> Callable[[], Card]:
    return lambda: rng.choice(FULL_DECK)


def play_table(game: BaseGame, rounds: int, seed: int) -> Sample:
    """`rounds` rounds of `game`'s table; a real shoe of `game.decks` decks, else an infinite deck."""
    profile = game.profile
    wager = PlaceWager(PLAYER_SEAT, WagerKind.BASE, profile.table_min)
    bank = PlayerDealer(profile.seats, BANK_COVERS * wager.amount) if profile.player_dealer else None
    table = Table(profile, bank, (wager,))
    rng = random.Random(seed)
    shoe = None if game.decks is None else Shoe(game.decks, rng)
    draw = infinite_deck(rng) if shoe is None else shoe.draw
    player = OptimalPlayer(game)
    sums = _Sums()
    columns: dict[str, _Sums] = {}
    for _ in range(rounds):
        if shoe is not None and shoe.cut_reached:
            shoe.shuffle()
        tracker = play_round(table, draw, player.decide)
        base = (row for row in tracker.rows if row.wager is Wager.BASE)
        result = seat_nets(base, (PLAYER_SEAT,))[PLAYER_SEAT] / wager.amount
        sums.add(result)
        columns.setdefault(player.column(tracker).label, _Sums()).add(result)
    return sums.sample({label: column.sample() for label, column in columns.items()})

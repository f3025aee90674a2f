"""Monte Carlo of whole rounds through the live table's round tracker.

Each round is dealt from a shuffled shoe (reshuffled at the cut card) to the first `players`
seats, which bet the table minimum, the smallest Buster wager and, where offered, a $5 Lucky Lucky,
and play `player_strategy`; the tracker settles the round. The player-dealer's (or the house's)
result on each kind of wager is summed per round: rounds are independent, so the edge and its 95%
confidence interval come from the mean and spread of those sums over the stake of one round.
The bank covers every wager (a bank limit cuts action, it does not change the odds), and the
collection fees go to the card room, so they are left out.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from dealer_assist.analysis.options import Move
from dealer_assist.analysis.player_strategy import preferred_moves
from dealer_assist.errors import CommandCode
from dealer_assist.play.round_driver import RoundPolicy, play
from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import Action, Decide, PlaceWager, WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.refusals import InputError
from dealer_assist.rules.settlement import Wager, banker_net
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker

__all__ = ["check_game", "simulate"]

Z_95 = 1.959963984540054
LUCKY_LUCKY_WAGER: Cents = 500
BANK_COVERS = 1_000  # the bank is this many times all the round's wagers: more than a round can move
_ACTIONS = {Move.STAND: Action.STAND, Move.DOUBLE: Action.DOUBLE, Move.SPLIT: Action.SPLIT}
# The stake a settlement row's result is measured against: the free bonus rides on the Buster wager.
_STAKE_OF = {
    Wager.BASE: WagerKind.BASE,
    Wager.LUCKY_LUCKY: WagerKind.LUCKY_LUCKY,
    Wager.BUSTER: WagerKind.BUSTER,
    Wager.FREE_BONUS: WagerKind.BUSTER,
}


@dataclass(frozen=True, slots=True)
class EdgeEstimate:
    """The banker's average result per unit wagered on one kind of wager, with its 95% interval."""

    wager: Wager
    stake_per_round: Cents
    edge: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class GameEstimate:
    profile: str
    decks: int
    rounds: int
    seed: int
    players: int
    edges: tuple[EdgeEstimate, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """Who bets what and who banks, the same every round."""

    profile: Profile
    bank: PlayerDealer | None
    wagers: tuple[PlaceWager, ...]

    @classmethod
    def seated(cls, profile: Profile, players: int) -> Table:
        """`players` seats from seat 1; a player-dealer banks from the last seat."""
        pd_seat = profile.seats if profile.player_dealer else None
        most = profile.seats - (pd_seat is not None)
        if not 1 <= players <= most:
            raise InputError(
                CommandCode.BAD_PLAYERS, f"players: {players} is not from 1 to {most} for {profile.id}", "1"
            )
        wagers = []
        for seat in range(1, players + 1):
            wagers.append(PlaceWager(seat, WagerKind.BASE, profile.table_min))
            wagers.append(PlaceWager(seat, WagerKind.BUSTER, profile.buster_min))
            if profile.lucky_lucky:
                wagers.append(PlaceWager(seat, WagerKind.LUCKY_LUCKY, LUCKY_LUCKY_WAGER))
        bank = None if pd_seat is None else PlayerDealer(pd_seat, BANK_COVERS * sum(w.amount for w in wagers))
        return cls(profile, bank, tuple(wagers))

    def stake(self, kind: WagerKind) -> Cents:
        return sum(w.amount for w in self.wagers if w.kind is kind)


Chooser = Callable[[RoundTracker, int, int], Decide | None]  # a hand's decision; None is the hit


def check_game(profile: Profile, rounds: int, players: int) -> Table:
    """The seated table for a simulation of `rounds` rounds; raises InputError when it cannot be
    run, so a command can refuse before it computes anything else."""
    if rounds < 2:
        raise InputError(CommandCode.BAD_ROUNDS, f"rounds: {rounds} is too few for an interval: give at least 2", None)
    return Table.seated(profile, players)


def simulate(profile: Profile, rounds: int, seed: int, players: int, choose: Chooser | None = None) -> GameEstimate:
    """Play `rounds` rounds from one seeded shoe and estimate the banker's edge on each wager;
    `choose` takes the players' decisions (default: the short strategy)."""
    table = check_game(profile, rounds, players)
    shoe = Shoe(profile.decks, random.Random(seed))
    choose = short_strategy if choose is None else choose
    totals: dict[Wager, int] = {}
    squares: dict[Wager, int] = {}
    for _ in range(rounds):
        if shoe.cut_reached:
            shoe.shuffle()
        rows = play_round(table, shoe.draw, choose).rows
        for wager in dict.fromkeys(row.wager for row in rows):
            result = banker_net(row for row in rows if row.wager is wager)
            totals[wager] = totals.get(wager, 0) + result
            squares[wager] = squares.get(wager, 0) + result * result
    edges = tuple(
        _estimate(w, table.stake(_STAKE_OF[w]), rounds, totals[w], squares[w])
        for w in Wager
        if w in totals and w in _STAKE_OF
    )
    return GameEstimate(profile.id, profile.decks, rounds, seed, players, edges)


def _estimate(wager: Wager, stake: Cents, rounds: int, total: int, squares: int) -> EdgeEstimate:
    mean = Fraction(total, rounds)
    variance = (squares - total * mean) / (rounds - 1)
    half = Z_95 * math.sqrt(variance / rounds) / stake
    edge = float(mean / stake)
    return EdgeEstimate(wager, stake, edge, edge - half, edge + half)


class _Players(RoundPolicy):
    """The table's fixed wagers, no insurance, cards from `draw`, and `choose`'s decisions."""

    def __init__(self, table: Table, draw: Callable[[], Card], choose: Chooser) -> None:
        self.wagers = iter(table.wagers)
        self.draw = draw
        self.choose = choose

    def wager(self, tracker: RoundTracker) -> PlaceWager | None:
        return next(self.wagers, None)

    def card(self, tracker: RoundTracker) -> Card:
        return self.draw()

    def decide(self, tracker: RoundTracker, seat: int, hand: int) -> Decide | None:
        return self.choose(tracker, seat, hand)


def short_strategy(tracker: RoundTracker, seat: int, hand: int) -> Decide | None:
    """`player_strategy`'s first move the table accepts; None is the hit."""
    moves = preferred_moves(tracker.hands[seat][hand].cards, tracker.up_card)
    for move in moves:
        if move is Move.HIT:
            if tracker.takes_card():
                return None
            continue
        decision = Decide(seat, hand, _ACTIONS[move])
        if tracker.can(decision):
            return decision
    raise AssertionError(f"seat {seat} hand {hand + 1}: the table refuses every move of {moves}")


def play_round(table: Table, draw: Callable[[], Card], choose: Chooser = short_strategy) -> RoundTracker:
    """One round from the wagers to the settlement through the one round driver, every input
    checked by the tracker."""
    return play(RoundTracker(table.profile, None, table.bank), _Players(table, draw, choose))

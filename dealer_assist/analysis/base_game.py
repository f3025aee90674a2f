"""The base game's expected value per unit of initial wager for a player who plays the optimal
strategy, for one profile, with an infinite deck or a finite shoe.

Base game only: no side bets, no insurance (never taken), no fees, no payout cap, no rounding; the
bank covers every wager. The player decides against what the player sees (the dealer's up card
after the peek, or the player-dealer's two face-up cards in `nobust-4.0`).

Infinite deck: exact. Finite shoe (the approximation): each starting deal (the dealer's visible
cards and the player's two cards) has its exact chance from the full shoe, and is then computed
against the cards left after those, drawn with replacement for the rest of the round (the
dealer's hole card conditioned on the peek, every hit, double and split card). A table cell takes
the move best on average over the deals it covers; later decisions of a column are taken against
the shoe less the dealer's visible cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dealer_assist.analysis.card_odds import ACE, TEN, VALUES, CardOdds
from dealer_assist.analysis.dealer_totals import dealer_finals, natural_card
from dealer_assist.analysis.hand_values import HandValues
from dealer_assist.analysis.options import HandRules, Move, result_value
from dealer_assist.analysis.shoe import Shoe
from dealer_assist.analysis.strategy_table import (
    NATURAL,
    VALUE_LABEL,
    Column,
    best,
    play_on_tables,
    situation,
    start_moves,
)
from dealer_assist.rules.counts import count
from dealer_assist.rules.outcomes import Standing, Status, base_outcome
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.totals import TARGET

__all__ = ["BaseGame", "analyze"]

INFINITE = "infinite"


@dataclass(frozen=True, slots=True)
class Deal:
    """One starting deal of a column: the player's two first cards, its chance given the column,
    and the chance that the dealer has a Natural (only where the peek can find one)."""

    first: int
    second: int
    pair: bool
    chance: float
    natural: float
    odds: CardOdds


@dataclass
class BaseGame:
    """The answer for one profile: the strategy table and the EVs it yields."""

    profile: Profile
    decks: int | None  # None: infinite
    ev: float
    by_column: dict[str, float]
    columns: dict[str, Column]
    insurance: float | None  # EV per unit of an insurance wager; None where it is not offered

    @property
    def decks_label(self) -> str | int:
        return INFINITE if self.decks is None else self.decks

    def model(self) -> str:
        seen = (
            "the player-dealer's two face-up cards"
            if not self.profile.dealer_hole_card
            else "the dealer's up card, after the peek has ruled out a Natural"
        )
        shoe = (
            "an infinite deck (A-9 each 1/13, ten-value 4/13): exact, splits and re-splits to "
            f"{self.profile.max_hands} hands included"
            if self.decks is None
            else f"{count(self.decks, 'deck')}, approximated: each starting deal (the dealer's visible cards and "
            "the player's two cards) has its exact chance from the full shoe and is played against "
            "the cards left after it, drawn with replacement for the rest of the round; a table "
            "cell takes the move best on average over its deals; later decisions are taken against "
            "the shoe less the dealer's visible cards (for a player-dealer hand, its likeliest two cards)"
        )
        insurance = (
            "no insurance (not offered with both cards face up, RULES.md §2.14)"
            if self.insurance is None
            else f"insurance never taken (worth {self.insurance:+.4%} of the insurance wager)"
        )
        return (
            f"Base game of {self.profile.id}: expected value per unit of initial wager for a player who "
            f"plays each hand optimally against {seen}; {shoe}. No side bets, {insurance}, no fees, no "
            "payout cap, no rounding; a doubled hand stakes 2 units, each split hand 1, a surrender loses 1/2."
        )


def analyze(profile: Profile, decks: int | None) -> BaseGame:
    """`decks` None: an infinite deck."""
    rules = HandRules(profile)
    shoe = None if decks is None else Shoe.full(decks)
    groups: dict[str, list[tuple[tuple[int, ...], float]]] = {}
    for label, dealer_cards, chance in _columns(profile, shoe):
        groups.setdefault(label, []).append((dealer_cards, chance))
    columns: dict[str, Column] = {}
    by_column: dict[str, float] = {}
    total = 0.0
    for label, members in groups.items():
        column = Column(label)
        # A column's hands share one total (2-T and 5-7 are both hard 12), and the dealer's final
        # totals depend only on that total and the odds: equal odds share their values and moves.
        values: dict[CardOdds, HandValues] = {}
        known_moves: dict[tuple[CardOdds, int, int, bool], dict[Move, float]] = {}

        def values_for(odds: CardOdds, dealer_cards: tuple[int, ...]) -> HandValues:
            if odds not in values:
                values[odds] = _hand_values(rules, odds, dealer_cards)
            return values[odds]

        def moves_for(deal: Deal, dealer_cards: tuple[int, ...]) -> dict[Move, float]:
            key = (deal.odds, deal.first, deal.second, deal.pair)
            if key not in known_moves:
                known_moves[key] = start_moves(values_for(deal.odds, dealer_cards), deal.first, deal.second, deal.pair)
            return known_moves[key]

        evaluated: list[tuple[tuple[int, ...], float, Deal, dict[Move, float]]] = []
        for dealer_cards, chance in members:
            column_odds = _odds(profile, shoe, dealer_cards)
            for deal in _deals(profile, shoe, dealer_cards, column_odds):
                moves = {} if _no_decision(deal, dealer_cards) else moves_for(deal, dealer_cards)
                evaluated.append((dealer_cards, chance, deal, moves))
        if label != NATURAL:
            likeliest = max(members, key=lambda member: member[1])[0]
            play_on_tables(column, values_for(_odds(profile, shoe, likeliest), likeliest))
        _fill_start(
            column, [(chance * deal.chance * (1 - deal.natural), deal, moves) for _, chance, deal, moves in evaluated]
        )
        summed = sum(
            chance * deal.chance * _deal_ev(rules, deal, dealer_cards, column, moves)
            for dealer_cards, chance, deal, moves in evaluated
        )
        columns[label] = column
        by_column[label] = summed / sum(chance for _, chance in members)
        total += summed
    insurance = 3 * _odds(profile, shoe, (ACE,)).value[TEN - 1] - 1 if profile.dealer_hole_card else None
    return BaseGame(profile, decks, total, by_column, columns, insurance)


def _columns(profile: Profile, shoe: Shoe | None) -> Iterator[tuple[str, tuple[int, ...], float]]:
    """(label, the dealer's visible values, chance) for every visible dealer hand."""
    if profile.dealer_hole_card:
        for up in VALUES:
            yield VALUE_LABEL[up], (up,), _chance(profile, shoe, (), (up,))
        return
    for first in VALUES:
        for second in VALUES[first - 1 :]:
            yield situation(first, second, pair=False), (first, second), _chance(profile, shoe, (), (first, second))


def _chance(profile: Profile, shoe: Shoe | None, seen: tuple[int, ...], cards: tuple[int, ...]) -> float:
    """The chance of drawing the unordered `cards` after `seen` have left the shoe."""
    orders = 1 if len(cards) < 2 or cards[0] == cards[1] else 2
    if shoe is None:
        odds = CardOdds.infinite(profile.split_same_value).value
        probability = 1.0
        for card in cards:
            probability *= odds[card - 1]
        return orders * probability
    left = list(_left(shoe, seen))
    probability = 1.0
    for card in cards:
        probability *= left[card - 1] / sum(left)
        left[card - 1] -= 1
    return orders * probability


def _left(shoe: Shoe, seen: tuple[int, ...]) -> tuple[int, ...]:
    counts = list(shoe.counts)
    for card in seen:
        counts[card - 1] -= 1
    return tuple(counts)


def _odds(profile: Profile, shoe: Shoe | None, seen: tuple[int, ...]) -> CardOdds:
    if shoe is None:
        return CardOdds.infinite(profile.split_same_value)
    return CardOdds.of_counts(_left(shoe, seen), profile.split_same_value)


def _deals(profile: Profile, shoe: Shoe | None, dealer_cards: tuple[int, ...], column_odds: CardOdds) -> Iterator[Deal]:
    for first in VALUES:
        for second in VALUES[first - 1 :]:
            chance = _chance(profile, shoe, dealer_cards, (first, second))
            odds = column_odds if shoe is None else _odds(profile, shoe, dealer_cards + (first, second))
            peek = natural_card(dealer_cards[0]) if profile.dealer_hole_card else None
            natural = 0.0 if peek is None else odds.value[peek - 1]
            if first != second:
                yield Deal(first, second, False, chance, natural, odds)
                continue
            # by rank, only part of a ten-value pair is a pair; by value, all of it
            same = _pair_share(profile, shoe, dealer_cards, first)
            yield Deal(first, second, True, chance * same, natural, odds)
            if same < 1:
                yield Deal(first, second, False, chance * (1 - same), natural, odds)


def _pair_share(profile: Profile, shoe: Shoe | None, dealer_cards: tuple[int, ...], value: int) -> float:
    """Of two cards of value `value`, the share that are a pair the profile splits."""
    if profile.split_same_value or value != TEN:
        return 1.0
    if shoe is None:
        return 1 / 4
    tens = _left(shoe, dealer_cards)[TEN - 1]
    return (tens / 4 - 1) / (tens - 1)  # the tens left, spread evenly over T, J, Q, K


def _hand_values(rules: HandRules, odds: CardOdds, dealer_cards: tuple[int, ...]) -> HandValues:
    profile = rules.profile
    finals = dealer_finals(
        odds.value, sum(dealer_cards), ACE in dealer_cards, profile.dealer_hits_soft_17, peeked=profile.dealer_hole_card
    )
    return HandValues(rules, odds, finals)


def _no_decision(deal: Deal, dealer_cards: tuple[int, ...]) -> bool:
    """A player Natural stands; a dealer Natural seen before play ends it (RULES.md §8.2)."""
    return situation(deal.first, deal.second, deal.pair) == NATURAL or _is_natural(dealer_cards)


def _is_natural(cards: tuple[int, ...]) -> bool:
    return sorted(cards) == [ACE, TEN]


def _fill_start(column: Column, evaluated: list[tuple[float, Deal, dict[Move, float]]]) -> None:
    """Each cell's moves: their EVs averaged over the cell's deals, by the chance of each deal that
    reaches a decision."""
    sums: dict[str, dict[Move, float]] = {}
    weights: dict[str, float] = {}
    for weight, deal, moves in evaluated:
        if not moves:
            continue
        key = situation(deal.first, deal.second, deal.pair)
        cell = sums.setdefault(key, {})
        for move, ev in moves.items():
            cell[move] = cell.get(move, 0.0) + weight * ev
        weights[key] = weights.get(key, 0.0) + weight
    for key, cell in sums.items():
        column.start[key] = {move: ev / weights[key] for move, ev in cell.items()}


def _deal_ev(
    rules: HandRules, deal: Deal, dealer_cards: tuple[int, ...], column: Column, moves: dict[Move, float]
) -> float:
    """The deal's EV, the dealer's Natural included, playing the column's cell."""
    profile = rules.profile
    natural = Standing(Status.NATURAL, profile.natural_total, 2)
    player_natural = situation(deal.first, deal.second, deal.pair) == NATURAL
    player = natural if player_natural else Standing(Status.UNDER, 0, 2)
    against_natural = result_value(*base_outcome(player, natural, profile))
    if _is_natural(dealer_cards):
        return against_natural
    if player_natural:
        played = result_value(*base_outcome(player, Standing(Status.UNDER, TARGET, 2), profile))
    else:
        played = moves[best(column.start[situation(deal.first, deal.second, deal.pair)])]
    return deal.natural * against_natural + (1 - deal.natural) * played

"""Hand totals (RULES.md §1): Aces count 11 when that stays at or below 21, else 1."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.rules.cards import RANKS, TEN_VALUES, Card

__all__ = ["TARGET", "dealer_draws_on", "hand_total", "total_of"]

TARGET = 21
DEALER_STANDS_FROM = 17


@dataclass(frozen=True, slots=True)
class Total:
    value: int
    soft: bool

    @property
    def hard(self) -> bool:
        return not self.soft

    @property
    def over(self) -> bool:
        return self.value > TARGET


_VALUE = {rank: min(index + 1, 10) for index, rank in enumerate(RANKS)}
# Totals are values: one shared instance per (value, soft), so the hot path builds none.
_HARD = [Total(value, soft=False) for value in range(0, 64)]
_SOFT = [Total(value, soft=True) for value in range(0, TARGET + 1)]


def hand_total(cards: Sequence[Card]) -> Total:
    hard = 0
    ace = False
    for card in cards:
        rank = card.rank
        hard += _VALUE[rank]
        if rank == "A":
            ace = True
    return total_of(hard, ace)


def total_of(hard: int, ace: bool) -> Total:
    """The total of cards worth `hard` with every Ace as 1: one Ace counts 11 where that fits."""
    if ace and hard + 10 <= TARGET:
        return _SOFT[hard + 10]
    return _HARD[hard] if hard < 64 else Total(hard, soft=False)


def dealer_draws_on(total: Total, hits_soft_17: bool) -> bool:
    """The dealer's drawing rule (RULES.md §2.8-§2.9, §4.1): draw to 16, and on soft 17 where the
    profile says so; stand on everything else."""
    value = total.value
    return value < DEALER_STANDS_FROM or (value == DEALER_STANDS_FROM and total.soft and hits_soft_17)


def is_natural_pair(cards: Sequence[Card]) -> bool:
    """An Ace and a ten-value card as a hand's first two cards."""
    if len(cards) != 2:
        return False
    first, second = cards[0].rank, cards[1].rank
    return (first == "A" and second in TEN_VALUES) or (second == "A" and first in TEN_VALUES)

"""Hand totals (RULES.md §1): Aces count 11 when that stays at or below 21, else 1."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.cards import RANKS, TEN_VALUES, Card

TARGET = 21


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


def hand_total(cards: Sequence[Card]) -> Total:
    hard = 0
    ace = False
    for card in cards:
        hard += _VALUE[card.rank]
        ace = ace or card.rank == "A"
    if ace and hard + 10 <= TARGET:
        return Total(hard + 10, soft=True)
    return Total(hard, soft=False)


def is_natural_pair(cards: Sequence[Card]) -> bool:
    """An Ace and a ten-value card as a hand's first two cards."""
    if len(cards) != 2:
        return False
    first, second = cards[0].rank, cards[1].rank
    return (first == "A" and second in TEN_VALUES) or (second == "A" and first in TEN_VALUES)

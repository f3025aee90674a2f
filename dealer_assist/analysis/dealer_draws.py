"""The dealer's final hand from a full shoe, drawing without replacement (RULES.md §2.8, §4.1).

The chance of one drawing order is the product of the counts left at each draw, so every order of
the same cards has the same numerator: a hand is known by the multiset of values drawn, and the
enumeration walks multisets level by level (one more card each), carrying for each one the summed
integer numerator of all the orders that reach it with the dealer still drawing. Dividing by the
ordered draws from the shoe happens once per hand size, at the end.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dealer_assist.analysis.shoe import ACE, TEN, Shoe, falling
from dealer_assist.rules.totals import TARGET, dealer_draws_on, total_of


@dataclass(frozen=True, slots=True)
class DealerFinals:
    """Chance that the dealer busts with exactly n cards (n >= 3), and that the dealer stands."""

    bust_by_cards: dict[int, Fraction]
    stands: Fraction


def dealer_draws(hard: int, has_ace: bool, hits_soft_17: bool) -> bool:
    """The table's drawing rule on a hand known by its hard total and whether it holds an Ace."""
    return dealer_draws_on(total_of(hard, has_ace), hits_soft_17)


def dealer_finals(shoe: Shoe, hits_soft_17: bool) -> DealerFinals:
    """Every final dealer hand of the shoe, grouped by how it ends; a Natural stands."""
    size = len(shoe.values)
    # multiset (count of each value, in shoe order) -> [numerator, hard total, has an Ace]
    drawing: dict[tuple[int, ...], list[int]] = {(0,) * size: [1, 0, 0]}
    bust: dict[int, int] = {}
    stands: dict[int, int] = {}
    cards = 0
    while drawing:
        cards += 1
        reached: dict[tuple[int, ...], list[int]] = {}
        for drawn, (numerator, hard, has_ace) in drawing.items():
            for index, value in enumerate(shoe.values):
                left = shoe.counts[index] - drawn[index]
                if left == 0:
                    continue
                key = drawn[:index] + (drawn[index] + 1,) + drawn[index + 1 :]
                entry = reached.get(key)
                if entry is None:
                    reached[key] = [numerator * left, hard + value, has_ace or value == ACE]
                else:
                    entry[0] += numerator * left
        drawing = {}
        for key, entry in reached.items():
            numerator, hard, has_ace = entry
            if hard > TARGET:
                bust[cards] = bust.get(cards, 0) + numerator
            elif (cards == 2 and has_ace and hard == ACE + TEN) or not dealer_draws(hard, bool(has_ace), hits_soft_17):
                stands[cards] = stands.get(cards, 0) + numerator
            else:
                drawing[key] = entry
    return DealerFinals(
        bust_by_cards={n: Fraction(numerator, falling(shoe.size, n)) for n, numerator in sorted(bust.items())},
        stands=sum((Fraction(numerator, falling(shoe.size, n)) for n, numerator in stands.items()), Fraction(0)),
    )

"""The Lucky Lucky bet (RULES.md §2.17-§2.18): the player's first two cards and the dealer's up card,
three cards from the full shoe.

Only the three point values and whether the cards share a suit decide the line, so the enumeration
walks the 220 multisets of three values, counts the combinations of each (all of them, and those
in one suit), and lets the table's own judge, `lucky_line`, name the line of one suited and one
unsuited example of it.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb, prod

from dealer_assist.analysis.odds import BetOdds, PayLine
from dealer_assist.analysis.shoe import ACE, TEN, Shoe
from dealer_assist.rules.cards import SUITS, Card
from dealer_assist.rules.lucky_lucky import LUCKY_PAYS, LuckyLine, lucky_line

__all__ = ["lucky_odds"]

LUCKY_CARDS = 3


def _example(values: tuple[int, ...], suited: bool) -> list[Card]:
    ranks = ["A" if v == ACE else "T" if v == TEN else str(v) for v in values]
    return [Card(rank, SUITS[0] if suited else SUITS[i]) for i, rank in enumerate(ranks)]


def lucky_odds(decks: int, order: tuple[int, ...] | None = None) -> BetOdds:
    """Exact chance of every Lucky Lucky line; `order` only changes the visiting order."""
    shoe = Shoe.full(decks) if order is None else Shoe.full(decks, order)
    count = dict(zip(shoe.values, shoe.counts, strict=False))
    ways: Counter[LuckyLine | None] = Counter()
    for values in combinations_with_replacement(shoe.values, LUCKY_CARDS):
        drawn = Counter(values).items()
        every = prod(comb(count[v], m) for v, m in drawn)
        one_suit = len(SUITS) * prod(comb(count[v] // len(SUITS), m) for v, m in drawn)
        ways[lucky_line(_example(values, suited=True))] += one_suit
        ways[lucky_line(_example(values, suited=False))] += every - one_suit
    hands = comb(shoe.size, LUCKY_CARDS)
    return BetOdds(
        lines=tuple(PayLine(line.value, pays, Fraction(ways[line], hands)) for line, pays in LUCKY_PAYS.items()),
        loses=Fraction(ways[None], hands),
    )

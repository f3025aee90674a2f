"""A full shoe as counts of blackjack point values: only values matter to a total, so the four
ten-value ranks are one value of sixteen cards a deck, and the enumerations stay small."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.errors import CommandCode
from dealer_assist.rules.refusals import InputError

ACE = 1
TEN = 10


@dataclass(frozen=True, slots=True)
class Shoe:
    """Point values in the order the enumerations visit them, and how many cards of each."""

    values: tuple[int, ...]
    counts: tuple[int, ...]

    @classmethod
    def full(cls, decks: int, order: tuple[int, ...] = tuple(range(ACE, TEN + 1))) -> Shoe:
        """`decks` whole decks; `order` only changes the visiting order, never a result."""
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise InputError(CommandCode.BAD_DECKS, f"decks: {decks!r} is not a whole number of at least 1", None)
        return cls(order, tuple(decks * (16 if value == TEN else 4) for value in order))

    @property
    def size(self) -> int:
        return sum(self.counts)


def falling(n: int, k: int) -> int:
    """n (n-1) ... (n-k+1): the ordered ways to draw k cards from n."""
    product = 1
    for i in range(k):
        product *= n - i
    return product

"""The chance of the next card's point value, with replacement: what the strategy computations draw.

An infinite deck is the exact case (A to 9 each 1/13, ten-value 4/13). A finite shoe is turned into
the same form by taking the chances of the cards left after the cards already seen, and keeping them
for the rest of the hand; see `base_game` for where that approximation is made.
"""

from __future__ import annotations

from dataclasses import dataclass

ACE = 1
TEN = 10
VALUES: tuple[int, ...] = tuple(range(ACE, TEN + 1))
TEN_RANKS = 4  # T, J, Q, K: one point value, four ranks


@dataclass(frozen=True, slots=True)
class CardOdds:
    """`value[v - 1]`: the chance the next card has point value v. `pairing[v - 1]`: the chance it
    makes a pair with a card of value v, for splitting: the same value where the profile splits by
    value (K-Q is a pair), else the same rank, so only a quarter of the tens pair a ten."""

    value: tuple[float, ...]
    pairing: tuple[float, ...]

    @classmethod
    def infinite(cls, split_same_value: bool) -> CardOdds:
        value = tuple((TEN_RANKS if v == TEN else 1) / 13 for v in VALUES)
        return cls(value, value if split_same_value else value[:-1] + (1 / 13,))

    @classmethod
    def of_counts(cls, counts: tuple[int, ...], split_same_value: bool) -> CardOdds:
        """The cards left, by value. By rank, the tens left are taken as spread evenly over the four
        ten ranks, less the two of the pair being split."""
        size = sum(counts)
        value = tuple(count / size for count in counts)
        if split_same_value:
            return cls(value, value)
        same_rank_ten = max(counts[TEN - 1] / TEN_RANKS - 1.5, 0.0)
        return cls(value, value[:-1] + (same_rank_ten / size,))

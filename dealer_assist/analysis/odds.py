"""A bet's exact odds: the chance of each paying line, the chance it loses, and what that returns."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = ["BetOdds"]


@dataclass(frozen=True, slots=True)
class PayLine:
    """One way the bet wins: its name (the JSON key), its to-1 odds and its exact chance."""

    key: str
    pays: int
    probability: Fraction

    @property
    def player_return(self) -> Fraction:
        return self.pays * self.probability


@dataclass(frozen=True, slots=True)
class BetOdds:
    """The paying lines of a bet in the order of its pay table, and the chance that none comes."""

    lines: tuple[PayLine, ...]
    loses: Fraction

    @property
    def total_probability(self) -> Fraction:
        """Always 1 when the enumeration is complete; kept so a report can show it."""
        return sum((line.probability for line in self.lines), self.loses)

    @property
    def player_return(self) -> Fraction:
        """What a unit wager wins on average, net; negative when the bank has the edge."""
        return sum((line.player_return for line in self.lines), -self.loses)

    @property
    def house_edge(self) -> Fraction:
        """The banker's average win per unit wagered: the house's, or the player-dealer's."""
        return -self.player_return

    def probability(self, key: str) -> Fraction:
        return next(line.probability for line in self.lines if line.key == key)

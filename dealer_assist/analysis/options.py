"""The moves a profile allows a player hand, by state, for the strategy computations.

These are the tracker's checks (RULES.md §2.10-§2.13, §3.6-§3.9, §8.3-§8.8, §8.14-§8.15) in the
form the computation needs: by the hand's value instead of a live round. The property tests hold
them to the tracker: a move allowed here is one the tracker accepts in that state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from dealer_assist.analysis.card_odds import ACE
from dealer_assist.rules.outcomes import Result, Standing, Status, base_outcome
from dealer_assist.rules.profile import Profile, Surrender
from dealer_assist.rules.totals import TARGET, total_of

SURRENDER_FROM = 12  # no_ace_12_plus (RULES.md §3.9)


class Move(StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


def result_value(result: Result, odds: Fraction) -> float:
    """A base wager's result in units of its stake, from the player's side."""
    return float(odds) if result is Result.WIN else -1.0 if result is Result.LOSE else 0.0


@dataclass(frozen=True)
class HandRules:
    """One profile's options and outcomes, looked up by hand value."""

    profile: Profile
    _payoffs: dict[tuple[int, int, int], float] = field(default_factory=dict, compare=False)

    def payoff(self, total: int, cards: int, dealer_total: int) -> float:
        """A final non-Natural player hand against a final non-Natural dealer hand, from the rules
        core's comparison (RULES.md §2.5-§2.7, §3.4, §4.1)."""
        key = (total, cards, dealer_total)
        value = self._payoffs.get(key)
        if value is None:
            status = Status.OVER if total > TARGET else Status.UNDER
            dealer = Standing(Status.OVER if dealer_total > TARGET else Status.UNDER, dealer_total, 2)
            result, odds = base_outcome(Standing(status, total, cards), dealer, self.profile)
            value = result_value(result, odds)
            self._payoffs[key] = value
        return value

    def must_stand(self, hard: int, ace: bool) -> bool:
        """Hit and double refused (RULES.md §2.10): a hard total at or above the limit."""
        limit = self.profile.player_must_stand_from
        total = total_of(hard, ace)
        return bool(limit) and total.hard and total.value >= limit

    def can_stand(self, hard: int, ace: bool) -> bool:
        """Stand refused at or below the must-hit limit (RULES.md §2.10, §3.6)."""
        return total_of(hard, ace).value > self.profile.player_must_hit_to

    def later_moves(self, hard: int, ace: bool) -> tuple[Move, ...]:
        """A hand of three or more cards: 21 and over stand (§8.3), else stand and/or hit."""
        if total_of(hard, ace).value >= TARGET:
            return (Move.STAND,)
        moves = [Move.STAND] if self.can_stand(hard, ace) else []
        if not self.must_stand(hard, ace):
            moves.append(Move.HIT)
        return tuple(moves)

    def two_card_moves(self, hard: int, ace: bool, *, after_split: bool, split_aces: bool = False) -> tuple[Move, ...]:
        """A two-card hand that is no Natural, splitting aside: split Aces and 21 stand (§8.3,
        §8.15); double on two cards, not at a must-stand; surrender only before any split."""
        if split_aces or total_of(hard, ace).value >= TARGET:
            return (Move.STAND,)
        moves = list(self.later_moves(hard, ace))
        if not self.must_stand(hard, ace):
            moves.append(Move.DOUBLE)
        if not after_split and self.can_surrender(hard, ace):
            moves.append(Move.SURRENDER)
        return tuple(moves)

    def can_surrender(self, hard: int, ace: bool) -> bool:
        rule = self.profile.surrender
        if rule is Surrender.NONE:
            return False
        if rule is Surrender.NO_ACE_12_PLUS:
            return not ace and total_of(hard, ace).value >= SURRENDER_FROM
        return True

    def can_split(self, value: int, hands: int) -> bool:
        """A pair may be split while the seat has fewer than `max_hands`; Aces once (§8.15)."""
        return hands < self.profile.max_hands and not (value == ACE and hands > 1)

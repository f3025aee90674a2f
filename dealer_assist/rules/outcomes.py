"""Who wins a base wager (RULES.md §2.4-§2.7, §3.3-§3.4, §4.1) once both hands are final."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

from dealer_assist.rules.cards import Card
from dealer_assist.rules.profile import OverTie, Profile
from dealer_assist.rules.totals import TARGET, hand_total, is_natural_pair

__all__ = ["Result", "Standing", "Status", "base_outcome", "standing"]

EVEN = Fraction(1)


class Result(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    SURRENDER = "surrender"
    NO_ACTION = "no_action"


class Status(StrEnum):
    NATURAL = "natural"
    UNDER = "under"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Standing:
    """A final hand as the comparison sees it."""

    status: Status
    total: int
    cards: int


_standing = cache(Standing)  # shared values, built once each


def standing(cards: Sequence[Card], profile: Profile, *, from_split: bool = False) -> Standing:
    """A Natural is its own class; a hand made by a split is never one (RULES.md §2.4)."""
    if not from_split and is_natural_pair(cards):
        return _standing(Status.NATURAL, profile.natural_total, 2)
    total = hand_total(cards).value
    return _standing(Status.OVER if total > TARGET else Status.UNDER, total, len(cards))


def base_outcome(player: Standing, dealer: Standing, profile: Profile) -> tuple[Result, Fraction]:
    """The result of a base wager and, for a win, its odds to 1."""
    if player.status is Status.NATURAL:
        return (Result.PUSH, EVEN) if dealer.status is Status.NATURAL else (Result.WIN, profile.natural_pays)
    if dealer.status is Status.NATURAL:
        return Result.LOSE, EVEN
    if player.status is Status.UNDER:
        if dealer.status is Status.OVER or player.total > dealer.total:
            return Result.WIN, EVEN
        return (Result.PUSH if player.total == dealer.total else Result.LOSE), EVEN
    if dealer.status is Status.UNDER:
        return Result.LOSE, EVEN
    if player.total == dealer.total:
        return (Result.PUSH if profile.over_tie is OverTie.PUSH else Result.LOSE), EVEN
    if player.total < dealer.total and player.cards == 3 and player.total in profile.no_bust_push_totals:
        return Result.PUSH, EVEN
    return Result.LOSE, EVEN


def can_still_push(player: Standing, profile: Profile) -> bool:
    """An over hand is unresolved while some dealer hand could push it (RULES.md §8.16)."""
    return profile.over_tie is OverTie.PUSH or (player.cards == 3 and player.total in profile.no_bust_push_totals)

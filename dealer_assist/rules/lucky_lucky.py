"""The Lucky Lucky bonus (RULES.md §2.17-§2.18): the player's first two cards and the PD's up card."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from dealer_assist.rules.cards import Card
from dealer_assist.rules.totals import hand_total

__all__ = ["LUCKY_PAYS", "LuckyLine", "lucky_line"]


class LuckyLine(StrEnum):
    SUITED_777 = "suited_777"
    SUITED_678 = "suited_678"
    SEVENS = "777"
    SIX_SEVEN_EIGHT = "678"
    SUITED_21 = "suited_21"
    TWENTY_ONE = "21"
    TWENTY = "20"
    NINETEEN = "19"


# Highest line first; only the highest line a hand makes is paid (§2.18).
LUCKY_PAYS: dict[LuckyLine, int] = {
    LuckyLine.SUITED_777: 200,
    LuckyLine.SUITED_678: 100,
    LuckyLine.SEVENS: 50,
    LuckyLine.SIX_SEVEN_EIGHT: 30,
    LuckyLine.SUITED_21: 10,
    LuckyLine.TWENTY_ONE: 3,
    LuckyLine.TWENTY: 2,
    LuckyLine.NINETEEN: 2,
}


def lucky_line(cards: Sequence[Card]) -> LuckyLine | None:
    """The highest pay line three cards make, or None when they lose (18 or less)."""
    ranks = sorted(card.rank for card in cards)
    suited = len({card.suit for card in cards}) == 1
    if ranks == ["7", "7", "7"]:
        return LuckyLine.SUITED_777 if suited else LuckyLine.SEVENS
    if ranks == ["6", "7", "8"]:
        return LuckyLine.SUITED_678 if suited else LuckyLine.SIX_SEVEN_EIGHT
    total = hand_total(cards).value
    if total == 21:
        return LuckyLine.SUITED_21 if suited else LuckyLine.TWENTY_ONE
    if total == 20:
        return LuckyLine.TWENTY
    if total == 19:
        return LuckyLine.NINETEEN
    return None

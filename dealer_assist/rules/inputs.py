"""Everything that can change a round, as frozen input events (ARCHITECTURE.md "inputs in").

A card from the shoe, a wager or a decision the dealer taps, a peek answer: each is checked by
the round tracker and turned into operations, or refused with the rule that forbids it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.rules.cards import Card
from dealer_assist.rules.money import Cents

__all__ = [
    "Action",
    "CardDrawn",
    "CheckedByHand",
    "CloseInsurance",
    "Decide",
    "Input",
    "Insure",
    "NoMoreBets",
    "PaymentsMade",
    "PeekAnswered",
    "PeekResult",
    "PlaceWager",
    "WagerKind",
]


class WagerKind(StrEnum):
    BASE = "base"
    LUCKY_LUCKY = "lucky_lucky"
    BUSTER = "buster"

    @property
    def words(self) -> str:
        """As a message says it: "base", "Lucky Lucky", "Buster"."""
        return "base" if self is WagerKind.BASE else self.value.replace("_", " ").title()


class Action(StrEnum):
    """Decisions the dealer enters; a hit is never tapped: the card from the shoe is the hit."""

    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


class PeekResult(StrEnum):
    NATURAL = "natural"
    NONE = "none"
    NOREAD = "noread"
    NOCARD = "nocard"
    TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class PlaceWager:
    """Set a seat's wager of one kind before the deal; amount 0 takes it back (RULES.md §8.20)."""

    seat: int
    kind: WagerKind
    amount: Cents


@dataclass(frozen=True, slots=True)
class NoMoreBets:
    """The house dealer closes betting; at a live table the first card may come only after it
    (RULES.md §8.21)."""


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card left the shoe; the tracker decides whose it is."""

    card: Card


@dataclass(frozen=True, slots=True)
class Decide:
    """A player's decision on one hand; `amount` is a double for less, None for the full wager."""

    seat: int
    hand: int
    action: Action
    amount: Cents | None = None


@dataclass(frozen=True, slots=True)
class Insure:
    seat: int
    amount: Cents


@dataclass(frozen=True, slots=True)
class CloseInsurance:
    """The dealer has asked every seat; the peek comes next (RULES.md §3.10)."""


@dataclass(frozen=True, slots=True)
class PeekAnswered:
    """The Natural-peek device's answer, or the reason it gave none."""

    result: PeekResult


@dataclass(frozen=True, slots=True)
class CheckedByHand:
    """A person looked at the hole card after the device could not answer (RULES.md §6.2)."""

    natural: bool


@dataclass(frozen=True, slots=True)
class PaymentsMade:
    """The house dealer has paid and collected what was due before the round goes on (Lucky Lucky
    after the deal, insurance after the peek, a Natural settled early: RULES.md §2.15, §2.17, §5.4)."""


Input = (
    PlaceWager | NoMoreBets | CardDrawn | Decide | Insure | CloseInsurance | PeekAnswered | CheckedByHand | PaymentsMade
)

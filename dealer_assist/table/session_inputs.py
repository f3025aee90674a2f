"""Inputs of the table session around the rounds: the bank, the shoe, confirmations, corrections.

Corrections are inputs like any other: they never edit what was recorded, they add to it, and
each names the supervisor and the reason. The supervisor's PIN is checked before a correction
reaches the session (see pins.py).
"""
from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.rules.cards import Card
from dealer_assist.rules.money import Cents


@dataclass(frozen=True, slots=True)
class BankAccepted:
    """The seat the bank is offered to takes it for the next round with this bank."""

    seat: int
    bank: Cents
    proposition: bool = False


@dataclass(frozen=True, slots=True)
class BankRefused:
    seat: int


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    shoe_id: str
    decks: int


@dataclass(frozen=True, slots=True)
class CutCardReached:
    n: int


@dataclass(frozen=True, slots=True)
class CardsUnread:
    """Cards `first`..`last` of the shoe left it without a readable value (NOREAD, or a gap the
    shoe's numbering revealed); the round holds until a person names each of them."""

    first: int
    last: int
    missed: bool = False


@dataclass(frozen=True, slots=True)
class KeyCard:
    """A supervisor names the oldest card that left the shoe unread, after looking at it."""

    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class SettlementConfirmed:
    """The dealer has paid and collected every row; the round closes."""


@dataclass(frozen=True, slots=True)
class VoidRound:
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class RekeyCard:
    """A misread card of the open round: the `index`-th card of the round becomes `card`."""

    index: int
    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class DiscardMisdeal:
    """The card no hand could take goes to the discard tray; the round goes on."""

    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class ConfirmPeek:
    """The hole card checked by hand after the peek device failed, confirmed by a supervisor."""

    natural: bool
    supervisor: str
    reason: str


SessionInput = (BankAccepted | BankRefused | ShoeLoaded | CutCardReached | CardsUnread | KeyCard
                | SettlementConfirmed | VoidRound | RekeyCard | DiscardMisdeal | ConfirmPeek)

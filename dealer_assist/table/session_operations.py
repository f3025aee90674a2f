"""Operations of the table session, frozen for the journal beside the round's own operations."""
from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.rules.refusals import Refusal
from dealer_assist.rules.cards import Card
from dealer_assist.rules.money import Cents


@dataclass(frozen=True, slots=True)
class BankOffered:
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class BankTaken:
    seat: int
    bank: Cents
    turn: int
    proposition: bool


@dataclass(frozen=True, slots=True)
class BankDeclined:
    seat: int


@dataclass(frozen=True, slots=True)
class RoundOpened:
    round_id: int
    player_dealer_seat: int | None
    bank: Cents | None
    turn: int | None
    shoe_id: str


@dataclass(frozen=True, slots=True)
class RoundClosed:
    round_id: int
    player_dealer_net: Cents
    voided: bool


@dataclass(frozen=True, slots=True)
class ShoeChanged:
    shoe_id: str
    decks: int


@dataclass(frozen=True, slots=True)
class NewShoeDue:
    """The cut card came out: this round is the shoe's last."""

    n: int


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: Card


@dataclass(frozen=True, slots=True)
class MisdealHeld:
    """A card no hand may take left the shoe; the round holds for a supervisor (RULES.md §6.1)."""

    card: Card
    code: Refusal
    message: str
    rule: str | None


@dataclass(frozen=True, slots=True)
class CardsHeldUnread:
    """The round holds: these shoe cards must be named by a person before play goes on."""

    first: int
    last: int
    missed: bool


@dataclass(frozen=True, slots=True)
class CardKeyed:
    n: int
    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class MisdealDiscarded:
    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class RoundVoided:
    round_id: int
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class CardRekeyed:
    index: int
    was: Card
    now: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class PeekConfirmed:
    natural: bool
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class RotationWarning:
    """Minutes left before two other player-dealers must have banked (California rotation)."""

    minutes_left: int

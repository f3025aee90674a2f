"""Betting spots of a layout read by the wager reader (DEVICES.md §6), named as on the wire.

A seat has a base, a Lucky Lucky, a Buster and an insurance spot (`3.base`, `3.ll`, `3.buster`,
`3.ins`); the player-dealer's bank is `pd.bank`. Names are exact: `3.BASE`, `03.base` and
`pd.base` are not spots.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["BANK", "KIND_NAMES", "Spot", "SpotKind", "layout", "parse_spot"]

PLAYER_DEALER = "pd"


class SpotKind(StrEnum):
    BASE = "base"
    LUCKY_LUCKY = "ll"
    BUSTER = "buster"
    INSURANCE = "ins"
    BANK = "bank"


SEAT_KINDS = (SpotKind.BASE, SpotKind.LUCKY_LUCKY, SpotKind.BUSTER, SpotKind.INSURANCE)
# Each kind as the screens and messages name it; the wire's names are the kinds' values.
KIND_NAMES = {
    SpotKind.BASE: "Base",
    SpotKind.LUCKY_LUCKY: "Lucky Lucky",
    SpotKind.BUSTER: "Buster",
    SpotKind.INSURANCE: "Insurance",
    SpotKind.BANK: "Bank",
}


@dataclass(frozen=True, slots=True)
class Spot:
    """A seat's spot, or the player-dealer's bank (`seat` None), so a wager can later be told by seat."""

    seat: int | None
    kind: SpotKind

    def __post_init__(self) -> None:
        if (self.seat is None) != (self.kind is SpotKind.BANK):
            raise ValueError(f"a {self.kind.value} spot {'needs' if self.seat is None else 'has no'} seat")
        if self.seat is not None and self.seat < 1:
            raise ValueError(f"seat {self.seat} is not a positive number")

    def __str__(self) -> str:
        return f"{PLAYER_DEALER if self.seat is None else self.seat}.{self.kind.value}"

    @property
    def words(self) -> str:
        """The spot as a person reads it: "seat 3's base", "the player-dealer's bank"."""
        owner = "the player-dealer's" if self.seat is None else f"seat {self.seat}'s"
        name = KIND_NAMES[self.kind]
        return f"{owner} {name if name == 'Lucky Lucky' else name.lower()}"


BANK = Spot(None, SpotKind.BANK)


def parse_spot(text: str) -> Spot:
    """`<seat>.<kind>` or `pd.bank`; the error quotes the text."""
    seat, dot, kind = text.partition(".")
    if not dot:
        raise ValueError(f"spot {text!r} is not <seat>.<kind> or pd.bank")
    if seat == PLAYER_DEALER:
        if kind != SpotKind.BANK.value:
            raise ValueError(f"spot {text!r}: the player-dealer's only spot is pd.bank")
        return BANK
    if not (seat.isascii() and seat.isdigit()) or seat.startswith("0") or len(seat) > 9:
        raise ValueError(f"spot {text!r}: seat {seat!r} is not a positive decimal number")
    if kind not in {k.value for k in SEAT_KINDS}:
        raise ValueError(f"spot {text!r}: kind {kind!r} is not one of {'/'.join(k.value for k in SEAT_KINDS)}")
    return Spot(int(seat), SpotKind(kind))


def layout(seats: int, bank: bool = True) -> tuple[Spot, ...]:
    """Every spot of a table with `seats` seats, seat by seat, and the bank when the layout has one."""
    spots = [Spot(seat, kind) for seat in range(1, seats + 1) for kind in SEAT_KINDS]
    return (*spots, BANK) if bank else tuple(spots)

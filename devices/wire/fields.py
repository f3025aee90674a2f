"""The kinds of field a frame body carries (DEVICES.md §1-§3, §6), each parsed strictly and formatted back.

A parser raises ValueError with a message that quotes the offending text; the codec adds which
field of which TYPE it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dealer_assist.rules.cards import RANKS, SUITS, TEN_VALUES, Card
from dealer_assist.table.spots import Spot, parse_spot

HEX = "0123456789ABCDEF"


@dataclass(frozen=True, slots=True)
class FieldKind:
    """How one field is read from, and written to, a frame body."""

    name: str
    parse: Callable[[str], Any]
    format: Callable[[Any], str] = str
    rest: bool = False  # takes every remaining token, joined by single spaces ("" when none is left)
    choices: tuple[str, ...] = ()  # the only values a named-value field may take


def _hex(digits: int) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if len(text) != digits or any(char not in HEX for char in text):
            raise ValueError(f"{text!r} is not {digits} uppercase hex digits")
        return text

    return parse


def _number(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isascii() or not text.isdigit() or len(text) > 9:
            raise ValueError(f"{text!r} is not a decimal number")
        value = int(text)
        if value < minimum:
            raise ValueError(f"{text!r} is below {minimum}")
        return value

    return parse


def _card(text: str) -> Card:
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"{text!r} is not a rank of {RANKS} followed by a suit of {SUITS}")
    return Card(text[0], text[1])


def _up_rank(text: str) -> str:
    if text != "A" and text not in TEN_VALUES:
        raise ValueError(f"up card {text!r} is not A or a ten-value rank (TJQK)")
    return text


def _spots(text: str) -> tuple[Spot, ...]:
    if not text:
        raise ValueError("no spot listed")
    return tuple(parse_spot(item) for item in text.split(" "))


def _spot_or_none(text: str) -> Spot | None:
    return None if text == "-" else parse_spot(text)


def _alien(text: str) -> int:
    """The optional `ALIEN k` at the end of a SPOT: 0 when absent, else k >= 1."""
    if not text:
        return 0
    tag, _, count = text.partition(" ")
    if tag != "ALIEN":
        raise ValueError(f"{text!r} is not ALIEN followed by a count")
    return _number(1)(count)


def enum_kind(enum: type[StrEnum]) -> FieldKind:
    names = "/".join(member.value for member in enum)

    def parse(text: str) -> StrEnum:
        try:
            return enum(text)
        except ValueError:
            raise ValueError(f"{text!r} is not one of {names}") from None

    return FieldKind(enum.__name__, parse, choices=tuple(member.value for member in enum))


SEQ_REF = FieldKind("seq", lambda text: int(_hex(4)(text), 16), lambda value: f"{value:04X}")
COUNT = FieldKind("count", _number(0))
POSITIVE = FieldKind("positive number", _number(1))
CARD = FieldKind("card", _card)
TOKEN = FieldKind("token", lambda text: text)
BOOT = FieldKind("boot id", _hex(8))
UP_RANK = FieldKind("up-card rank", _up_rank)
TEXT = FieldKind("text", lambda text: text, rest=True)
SPOT = FieldKind("spot", parse_spot)
SPOT_OR_NONE = FieldKind("spot or -", _spot_or_none, lambda spot: "-" if spot is None else str(spot))
SPOT_LIST = FieldKind("spots", _spots, lambda spots: " ".join(map(str, spots)), rest=True)
ALIEN = FieldKind("alien", _alien, lambda count: f"ALIEN {count}" if count else "", rest=True)


def wire(kind: FieldKind) -> Any:
    """Declare a message field and how it travels; the codec reads this from the dataclass."""
    return field(metadata={"wire": kind})

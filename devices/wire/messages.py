"""The messages of the shoe, the Natural-peek device and the wager reader (DEVICES.md §2-§3, §6), one class per TYPE.

Each class names its wire TYPE and whether it is a ✓ frame (acknowledged, repeated until it is).
A receiver knows only the TYPEs of its direction: a `Vocabulary`; anything else is `unknown_type`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar

from dealer_assist.rules.cards import Card
from dealer_assist.table.spots import Spot
from devices.wire.fields import (
    ALIEN,
    BOOT,
    CARD,
    COUNT,
    POSITIVE,
    SEQ_REF,
    SPOT,
    SPOT_LIST,
    SPOT_OR_NONE,
    TEXT,
    TOKEN,
    UP_RANK,
    enum_kind,
    wire,
)

__all__ = [
    "Ack",
    "CardOut",
    "CutCard",
    "Fault",
    "HOST_TO_PEEK",
    "HOST_TO_SHOE",
    "HOST_TO_WAGERS",
    "Heartbeat",
    "Hello",
    "Ident",
    "Lid",
    "LidState",
    "Lock",
    "LockState",
    "Message",
    "Nak",
    "NewShoe",
    "NoRead",
    "PEEK_TO_HOST",
    "PeekAnswer",
    "PeekRequest",
    "PeekResult",
    "ReaderFault",
    "ReaderHello",
    "SHOE_TO_HOST",
    "Scan",
    "Scanned",
    "SpotClear",
    "SpotContent",
    "SpotList",
    "Status",
    "Vocabulary",
    "WAGERS_TO_HOST",
]


class LidState(StrEnum):
    OPEN = "OPEN"
    CLOSED = "CLOSED"


class LockState(StrEnum):
    ON = "ON"
    OFF = "OFF"


class PeekAnswer(StrEnum):
    NATURAL = "NATURAL"
    NONE = "NONE"
    NOREAD = "NOREAD"
    NOCARD = "NOCARD"


@dataclass(frozen=True, slots=True)
class Message:
    """Every frame body starts with the sender's SEQ; `seq` is that number, 0..0xFFFF."""

    TYPE: ClassVar[str] = ""
    ACKED: ClassVar[bool] = False
    seq: int


@dataclass(frozen=True, slots=True)
class Hello(Message):
    TYPE: ClassVar[str] = "HELLO"
    vendor: str = wire(TOKEN)
    model: str = wire(TOKEN)
    serial: str = wire(TOKEN)
    firmware: str = wire(TOKEN)
    proto: str = wire(TOKEN)
    boot: str = wire(BOOT)


@dataclass(frozen=True, slots=True)
class NewShoe(Message):
    TYPE: ClassVar[str] = "SHOE"
    ACKED: ClassVar[bool] = True
    shoe_id: str = wire(TOKEN)
    decks: int = wire(POSITIVE)


@dataclass(frozen=True, slots=True)
class CardOut(Message):
    TYPE: ClassVar[str] = "CARD"
    ACKED: ClassVar[bool] = True
    n: int = wire(POSITIVE)
    card: Card = wire(CARD)


@dataclass(frozen=True, slots=True)
class NoRead(Message):
    TYPE: ClassVar[str] = "NOREAD"
    ACKED: ClassVar[bool] = True
    n: int = wire(POSITIVE)


@dataclass(frozen=True, slots=True)
class CutCard(Message):
    TYPE: ClassVar[str] = "CUT"
    ACKED: ClassVar[bool] = True
    n: int = wire(COUNT)


@dataclass(frozen=True, slots=True)
class Lid(Message):
    TYPE: ClassVar[str] = "LID"
    ACKED: ClassVar[bool] = True
    state: LidState = wire(enum_kind(LidState))


@dataclass(frozen=True, slots=True)
class Lock(Message):
    """Card-stop: from the host a command, from the shoe the report that its state changed."""

    TYPE: ClassVar[str] = "LOCK"
    ACKED: ClassVar[bool] = True
    state: LockState = wire(enum_kind(LockState))


@dataclass(frozen=True, slots=True)
class Heartbeat(Message):
    TYPE: ClassVar[str] = "HB"
    n: int = wire(COUNT)


@dataclass(frozen=True, slots=True)
class Fault(Message):
    TYPE: ClassVar[str] = "FAULT"
    ACKED: ClassVar[bool] = True
    code: str = wire(TOKEN)
    text: str = wire(TEXT)


@dataclass(frozen=True, slots=True)
class Ack(Message):
    TYPE: ClassVar[str] = "ACK"
    of: int = wire(SEQ_REF)


@dataclass(frozen=True, slots=True)
class Nak(Message):
    TYPE: ClassVar[str] = "NAK"
    of: int = wire(SEQ_REF)


@dataclass(frozen=True, slots=True)
class Ident(Message):
    TYPE: ClassVar[str] = "ID"


@dataclass(frozen=True, slots=True)
class Status(Message):
    TYPE: ClassVar[str] = "STATUS"


@dataclass(frozen=True, slots=True)
class PeekRequest(Message):
    TYPE: ClassVar[str] = "PEEK"
    ACKED: ClassVar[bool] = True
    up: str = wire(UP_RANK)


@dataclass(frozen=True, slots=True)
class PeekResult(Message):
    """The answer to the PEEK whose SEQ is `request`; it never carries the hole card itself."""

    TYPE: ClassVar[str] = "RESULT"
    ACKED: ClassVar[bool] = True
    request: int = wire(SEQ_REF)
    answer: PeekAnswer = wire(enum_kind(PeekAnswer))


@dataclass(frozen=True, slots=True)
class ReaderHello(Hello):
    """The wager reader's HELLO: a shoe's, plus the casino id its chips must carry."""

    casino: str = wire(TOKEN)


@dataclass(frozen=True, slots=True)
class SpotList(Message):
    """Spots the reader has; a list too long for one frame comes as several in a row."""

    TYPE: ClassVar[str] = "SPOTS"
    ACKED: ClassVar[bool] = True
    spots: tuple[Spot, ...] = wire(SPOT_LIST)


@dataclass(frozen=True, slots=True)
class SpotContent(Message):
    """A spot's whole content, never a difference: chips read, their total in cents, other chips."""

    TYPE: ClassVar[str] = "SPOT"
    ACKED: ClassVar[bool] = True
    spot: Spot = wire(SPOT)
    chips: int = wire(COUNT)
    total: int = wire(COUNT)
    alien: int = wire(ALIEN)  # chips of another casino or unreadable ones, not in the total


@dataclass(frozen=True, slots=True)
class Scan(Message):
    TYPE: ClassVar[str] = "SCAN"
    ACKED: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class Scanned(Message):
    """The `n` SPOT frames before this one answer the SCAN whose SEQ is `request`."""

    TYPE: ClassVar[str] = "SCANNED"
    ACKED: ClassVar[bool] = True
    request: int = wire(SEQ_REF)
    n: int = wire(COUNT)


@dataclass(frozen=True, slots=True)
class ReaderFault(Message):
    """A reader fault; `spot` None (`-` on the wire) when it is not one spot's."""

    TYPE: ClassVar[str] = "FAULT"
    ACKED: ClassVar[bool] = True
    code: str = wire(TOKEN)
    spot: Spot | None = wire(SPOT_OR_NONE)
    text: str = wire(TEXT)


@dataclass(frozen=True, slots=True)
class SpotClear(Message):
    TYPE: ClassVar[str] = "CLEAR"
    ACKED: ClassVar[bool] = True
    spot: Spot = wire(SPOT)


Vocabulary = Mapping[str, type[Message]]


def vocabulary(*classes: type[Message]) -> Vocabulary:
    return MappingProxyType({cls.TYPE: cls for cls in classes})


SHOE_TO_HOST = vocabulary(Hello, NewShoe, CardOut, NoRead, CutCard, Lid, Lock, Heartbeat, Fault, Ack, Nak)
HOST_TO_SHOE = vocabulary(Ack, Nak, Ident, Status, Lock)
PEEK_TO_HOST = vocabulary(Hello, PeekResult, Heartbeat, Fault, Ack, Nak)
HOST_TO_PEEK = vocabulary(Ack, Nak, Ident, Status, PeekRequest)
WAGERS_TO_HOST = vocabulary(ReaderHello, SpotList, SpotContent, Scanned, Heartbeat, ReaderFault, SpotClear, Ack, Nak)
HOST_TO_WAGERS = vocabulary(Ack, Nak, Ident, Status, Scan)

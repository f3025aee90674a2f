"""The messages of the shoe scanner and the Natural-peek device (DEVICES.md §2-§3), one class per TYPE.

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
from devices.fields import BOOT, CARD, COUNT, POSITIVE, SEQ_REF, TEXT, TOKEN, UP_RANK, enum_kind, wire


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


Vocabulary = Mapping[str, type[Message]]


def vocabulary(*classes: type[Message]) -> Vocabulary:
    return MappingProxyType({cls.TYPE: cls for cls in classes})


SHOE_TO_HOST = vocabulary(Hello, NewShoe, CardOut, NoRead, CutCard, Lid, Lock, Heartbeat, Fault, Ack, Nak)
HOST_TO_SHOE = vocabulary(Ack, Nak, Ident, Status, Lock)
PEEK_TO_HOST = vocabulary(Hello, PeekResult, Heartbeat, Fault, Ack, Nak)
HOST_TO_PEEK = vocabulary(Ack, Nak, Ident, Status, PeekRequest)

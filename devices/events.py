"""What the device adapters tell the rest of the product: typed, frozen, free of wire details.

Mapping these to the round tracker's inputs happens outside `devices`. No event carries the hole
card: the peek device's answer is an outcome, never a rank or a suit.
"""
from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.rules.cards import Card
from devices.framing import RejectReason
from devices.link import LinkState
from devices.messages import LidState, LockState


@dataclass(frozen=True, slots=True)
class DeviceEvent:
    """Base of every adapter event."""


@dataclass(frozen=True, slots=True)
class LinkChanged(DeviceEvent):
    state: LinkState


@dataclass(frozen=True, slots=True)
class DeviceHello(DeviceEvent):
    vendor: str
    model: str
    serial: str
    firmware: str
    proto: str
    boot: str


@dataclass(frozen=True, slots=True)
class ShoeLoaded(DeviceEvent):
    shoe_id: str
    decks: int


@dataclass(frozen=True, slots=True)
class CardSeen(DeviceEvent):
    """The n-th card of the shoe left it and was read."""

    n: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardUnread(DeviceEvent):
    """The n-th card left the shoe but could not be read: a person must name it."""

    n: int


@dataclass(frozen=True, slots=True)
class CutReached(DeviceEvent):
    n: int


@dataclass(frozen=True, slots=True)
class LidChanged(DeviceEvent):
    state: LidState


@dataclass(frozen=True, slots=True)
class LockChanged(DeviceEvent):
    state: LockState


@dataclass(frozen=True, slots=True)
class DeviceFault(DeviceEvent):
    """A fault the device reported (JAM, SENSOR, POWER, ...)."""

    code: str
    text: str


@dataclass(frozen=True, slots=True)
class CardsMissed(DeviceEvent):
    """Card numbers `first`..`last` of this shoe never arrived: the round must account for them."""

    first: int
    last: int


@dataclass(frozen=True, slots=True)
class FrameRejected(DeviceEvent):
    reason: RejectReason
    detail: str


@dataclass(frozen=True, slots=True)
class LinkStats:
    """Frames that passed the checks (duplicates included), frames refused, duplicates dropped."""

    accepted: int
    rejected: int
    duplicates: int

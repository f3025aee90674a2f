"""What the device adapters tell the rest of the product: typed, frozen, free of wire details.

Mapping these to the round tracker's inputs happens outside `devices`. No event carries the hole
card: the peek device's answer is an outcome, never a rank or a suit.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.rules.cards import Card
from dealer_assist.table.spots import Spot
from devices.wire.framing import RejectReason
from devices.wire.link import LinkState
from devices.wire.messages import LidState, LockState

__all__ = [
    "CardSeen",
    "CardUnread",
    "CardsMissed",
    "CutReached",
    "DeviceEvent",
    "DeviceFault",
    "DeviceHello",
    "FrameRejected",
    "LidChanged",
    "LinkChanged",
    "LockChanged",
    "ReadingsUntrusted",
    "ScanCompleted",
    "ShoeLoaded",
    "SpotCleared",
    "SpotRead",
    "SpotsListed",
    "WagersFault",
    "WagersHello",
]


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
class WagersHello(DeviceHello):
    """The wager reader's HELLO: its chips must carry this casino id."""

    casino: str


@dataclass(frozen=True, slots=True)
class SpotsListed(DeviceEvent):
    """The reader's spots as known now: the union of its SPOTS frames since its last HELLO."""

    spots: tuple[Spot, ...]


@dataclass(frozen=True, slots=True)
class SpotRead(DeviceEvent):
    """A spot's whole content: chips read, their total in cents, and `alien` chips of another casino
    (or unreadable) that lie there too and are not in the total."""

    spot: Spot
    chips: int
    total: int
    alien: int


@dataclass(frozen=True, slots=True)
class ScanCompleted(DeviceEvent):
    """Every spot was read again at the host's SCAN: the readings can be used from here on.

    `spots` holds the content of every spot the scan read; spots under a fault are `left_out`."""

    request_seq: int
    spots: tuple[SpotRead, ...]
    left_out: tuple[Spot, ...]


class Distrust(StrEnum):
    OUTAGE = "outage"  # the link went down: a scan follows the next HELLO
    NEW_BOOT = "new_boot"  # the reader powered up again: it is scanned now


@dataclass(frozen=True, slots=True)
class ReadingsUntrusted(DeviceEvent):
    """The readings must not be used until the next `ScanCompleted`; sent once each time they were usable."""

    reason: Distrust


@dataclass(frozen=True, slots=True)
class WagersFault(DeviceEvent):
    """A fault the reader reported: that spot cannot be read until `SpotCleared`, or the reader's (spot None)."""

    code: str
    spot: Spot | None
    text: str


@dataclass(frozen=True, slots=True)
class SpotCleared(DeviceEvent):
    """The spot's fault is over; its content follows in a `SpotRead`."""

    spot: Spot


@dataclass(frozen=True, slots=True)
class LinkStats:
    """Frames that passed the checks (duplicates included), frames refused, duplicates dropped."""

    accepted: int
    rejected: int
    duplicates: int

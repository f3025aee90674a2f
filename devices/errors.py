"""What a device, an emulated device or a camera source cannot do, as codes the bench commands print."""

from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import Failure

__all__ = ["DeviceCode", "DeviceError"]


class DeviceCode(StrEnum):
    PORT_UNAVAILABLE = "port_unavailable"
    SHOE_BUSY = "shoe_busy"
    SHOE_LOCKED = "shoe_locked"  # the bench's Deal while the card-stop is on: refused, never queued
    FOREIGN_SHOE = "foreign_shoe"
    SHOE_NOT_DUE = "shoe_not_due"
    SOURCE_UNREADABLE = "source_unreadable"
    BAD_DECODER = "bad_decoder"


class DeviceError(Failure):
    """A device, an emulated device or a camera source that cannot do what was asked."""

    def __init__(self, code: DeviceCode, message: str) -> None:
        super().__init__(code, message)

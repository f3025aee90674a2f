"""Device link status as a plain object: reader threads report, the screens listen (no Qt here).

Beside the devices, other links of the table (the card room's) put a status item on the same line."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from dealer_assist.table.device_state import DeviceState

__all__ = ["DeviceLink", "DeviceStatus"]


@dataclass(frozen=True, slots=True)
class DeviceLink:
    name: str
    up: bool
    last_read: str | None = None
    at: float | None = None  # time.monotonic() of the last read
    text: str | None = None  # a status item's own words ("up", "down · 312 to send"), shown instead of up/down
    state: DeviceState | None = None  # a device's state as the table's owner knows it: its light and its word


Listener = Callable[[tuple[DeviceLink, ...]], None]


class DeviceStatus:
    """The latest word from each device; listeners hear every change, on the reporting thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._links: dict[str, DeviceLink] = {}
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        with self._lock:
            self._listeners.append(listener)

    def links(self) -> tuple[DeviceLink, ...]:
        with self._lock:
            return tuple(self._links.values())

    def link(self, name: str, up: bool) -> None:
        self._set(name, lambda old: replace(old, up=up) if old else DeviceLink(name, up))

    def state(self, name: str, state: DeviceState) -> None:
        """A device's state, from the table's owner; its link is up unless the state says it is down."""
        self._set(name, lambda old: replace(old or DeviceLink(name, True), up=state.link_up, state=state))

    def status(self, name: str, text: str, ok: bool = True) -> None:
        """A status item that is not a device: its name, its words, and whether all is well."""
        self._set(name, lambda old: DeviceLink(name, ok, None, None, text))

    def read(self, name: str, what: str) -> None:
        self._set(
            name, lambda old: replace(old or DeviceLink(name, True), up=True, last_read=what, at=time.monotonic())
        )

    def _set(self, name: str, change: Callable[[DeviceLink | None], DeviceLink]) -> None:
        with self._lock:
            self._links[name] = change(self._links.get(name))
            links, listeners = tuple(self._links.values()), list(self._listeners)
        for listener in listeners:
            listener(links)

"""Device link status as a plain object: reader threads report, the screens listen (no Qt here).

Beside the devices, other links of the table (the card room's) put a status item on the same line."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DeviceLink:
    name: str
    up: bool
    last_read: str | None = None
    at: float | None = None  # time.monotonic() of the last read
    text: str | None = None  # a status item's own words ("up", "down · 312 to send"), shown instead of up/down
    fault: str | None = None  # what a device that is up cannot do ("seat 3 base faulted"): amber, in these words


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
        self._set(name, lambda old: DeviceLink(name, up, old.last_read if old else None, old.at if old else None,
                                               fault=old.fault if old else None))

    def fault(self, name: str, fault: str | None) -> None:
        """What a device whose link is up cannot do now, in words; None once it can again."""
        with self._lock:
            old = self._links.get(name)
        if old is not None and old.fault != fault:
            self._set(name, lambda old: DeviceLink(name, old.up if old else False, old.last_read if old else None,
                                                   old.at if old else None, old.text if old else None, fault))

    def status(self, name: str, text: str, ok: bool = True) -> None:
        """A status item that is not a device: its name, its words, and whether all is well."""
        self._set(name, lambda old: DeviceLink(name, ok, None, None, text))

    def read(self, name: str, what: str) -> None:
        self._set(name, lambda old: DeviceLink(name, True, what, time.monotonic(), fault=old.fault if old else None))

    def _set(self, name: str, change: Callable[[DeviceLink | None], DeviceLink]) -> None:
        with self._lock:
            self._links[name] = change(self._links.get(name))
            links, listeners = tuple(self._links.values()), list(self._listeners)
        for listener in listeners:
            listener(links)

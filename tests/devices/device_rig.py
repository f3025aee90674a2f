"""Shared pieces of the device tests: collecting events, running an emulator with an adapter, a wire."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pytest

from devices.kinds.adapter import DeviceAdapter
from devices.kinds.events import DeviceEvent
from devices.wire.clock import MonotonicClock
from devices.wire.codec import decode
from devices.wire.framing import Frame, Framer
from devices.wire.messages import Message, Vocabulary
from hw_sims.device import EmulatedDevice
from hw_sims.endpoints import Endpoint, InProcessEndpoint, PtyEndpoint, TcpEndpoint

Emulator = TypeVar("Emulator", bound=EmulatedDevice)
Adapter = TypeVar("Adapter", bound=DeviceAdapter)
Event = TypeVar("Event", bound=DeviceEvent)

_names = itertools.count()
LINKS: dict[str, Callable[[], Endpoint]] = {
    "in-process": lambda: InProcessEndpoint(f"device-{next(_names)}"),
    "pseudo-terminal": PtyEndpoint,
    "tcp": TcpEndpoint,
}


class EventLog:
    """Collects adapter events from the reader thread; tests wait on what they expect to see."""

    def __init__(self) -> None:
        self.events: list[DeviceEvent] = []
        self._changed = threading.Condition()

    def __call__(self, event: DeviceEvent) -> None:
        with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    def of(self, *kinds: type[Event]) -> list[Event]:
        with self._changed:
            return [event for event in self.events if isinstance(event, kinds)]

    def wait_for(self, done: Callable[[EventLog], bool], limit: float = 20.0) -> None:
        """Block until `done(self)` holds; fail with the events seen if it never does."""
        deadline = time.monotonic() + limit
        with self._changed:
            while not done(self):
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    pytest.fail(f"gave up waiting; events so far: {self.events}")
                self._changed.wait(min(remaining, 0.1))


@contextmanager
def running(emulator: Emulator, adapter: Adapter) -> Iterator[tuple[Emulator, Adapter]]:
    """Serve the emulator and run the adapter against it; both are stopped however the test ends."""
    emulator.start()
    adapter.start()
    try:
        yield emulator, adapter
    finally:
        adapter.stop()
        emulator.stop()


class Wire:
    """A write function that decodes what was written, for the pure link and delivery tests."""

    def __init__(self, vocabulary: Vocabulary) -> None:
        self._vocabulary = vocabulary
        self._framer = Framer()
        self.sent: list[Message] = []

    def __call__(self, data: bytes) -> None:
        for item in self._framer.feed(data):
            assert isinstance(item, Frame)
            self.sent.append(decode(item.body, self._vocabulary))


class JumpingClock(MonotonicClock):
    """Real time plus the jumps a test makes with `advance`: a wait ends once a jump carries it past its end.

    Both ends of a link share it, so a test passes a timeout, a silence or a back-off at once.
    """

    STEP = 0.002  # how often a wait looks at the clock again

    def __init__(self) -> None:
        self._offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self._offset

    def wait(self, event: threading.Event, seconds: float) -> bool:
        end = self.now() + seconds
        while (left := end - self.now()) > 0:
            if event.wait(min(left, self.STEP)):
                return True
        return event.is_set()

    def advance(self, seconds: float) -> None:
        self._offset += seconds


class SleepingClock(MonotonicClock):
    """The real clock, where `advance` sleeps: the same test, in real time."""

    def advance(self, seconds: float) -> None:
        time.sleep(seconds)


RigClock = JumpingClock | SleepingClock

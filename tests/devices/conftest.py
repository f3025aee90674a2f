"""Shared fixtures: every contract test runs over each link a device can be reached by."""
from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from devices.events import DeviceEvent
from hw_sims.endpoints import Endpoint, InProcessEndpoint, PtyEndpoint, TcpEndpoint

_names = itertools.count()
LINKS: dict[str, Callable[[], Endpoint]] = {
    "in-process": lambda: InProcessEndpoint(f"device-{next(_names)}"),
    "pseudo-terminal": PtyEndpoint,
    "tcp": TcpEndpoint,
}


@pytest.fixture(params=sorted(LINKS))
def endpoint(request: pytest.FixtureRequest) -> Iterator[Endpoint]:
    """A fresh endpoint per test; the emulator that serves it closes it."""
    yield LINKS[request.param]()


class EventLog:
    """Collects adapter events from the reader thread; tests wait on what they expect to see."""

    def __init__(self) -> None:
        self.events: list[DeviceEvent] = []
        self._changed = threading.Condition()

    def __call__(self, event: DeviceEvent) -> None:
        with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    def of(self, *kinds: type[DeviceEvent]) -> list[DeviceEvent]:
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

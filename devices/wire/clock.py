"""The time a link runs on: the monotonic clock, or one a test moves forward over a timeout.

The port's reopen back-off, the peek timeout, the shoe's stall check and the emulators' own clocks
read `now()` and wait with `wait()`, so a test can pass DEVICES.md's seconds without sleeping them.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol

__all__ = ["Clock", "MONOTONIC"]


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a clock that never goes back."""
        ...

    def wait(self, event: threading.Event, seconds: float) -> bool:
        """Block until `event` is set or `seconds` have passed on this clock; whether it was set."""
        ...


class MonotonicClock:
    """The real time, `time.monotonic`."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, event: threading.Event, seconds: float) -> bool:
        return event.wait(max(0.0, seconds))


MONOTONIC = MonotonicClock()

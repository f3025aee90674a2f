"""Every contract test runs over each link a device can be reached by (see `device_rig.LINKS`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from device_rig import LINKS, JumpingClock, RigClock, SleepingClock

from hw_sims.endpoints import Endpoint


# pyserial's socket port pauses 0.3 s at every close, so TCP runs in the slow lane; the quick lane's
# in-process link runs that same socket port code over a socket pair.
@pytest.fixture(
    params=[pytest.param(name, marks=pytest.mark.slow) if name == "tcp" else name for name in sorted(LINKS)]
)
def endpoint(request: pytest.FixtureRequest) -> Iterator[Endpoint]:
    """A fresh endpoint per test; the emulator that serves it closes it."""
    yield LINKS[request.param]()


@pytest.fixture(params=["jumping", pytest.param("real", marks=pytest.mark.slow)])
def clock(request: pytest.FixtureRequest) -> RigClock:
    """The clock both ends run on: jumped over a timeout in the quick lane, slept through in real time."""
    return JumpingClock() if request.param == "jumping" else SleepingClock()

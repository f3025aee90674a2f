"""What the shoe and peek adapters share: a link, its reader thread, events out, counts."""

from __future__ import annotations

import logging
from collections.abc import Callable

from devices.kinds.events import DeviceEvent, DeviceHello, FrameRejected, LinkChanged, LinkStats
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.framing import Rejection
from devices.wire.link import HostLink, LinkHandler, LinkState
from devices.wire.messages import Hello, Message, Vocabulary
from devices.wire.port import PortRunner

__all__ = ["DeviceAdapter", "EventSink"]

EventSink = Callable[[DeviceEvent], None]
log = logging.getLogger(__name__)


class DeviceAdapter(LinkHandler):
    """Runs one device's link on its own thread and delivers typed events to `on_event` on that thread."""

    def __init__(
        self, url: str, vocabulary: Vocabulary, on_event: EventSink, name: str, clock: Clock = MONOTONIC
    ) -> None:
        self._sink = on_event
        self._link = HostLink(vocabulary, self)
        self._runner = PortRunner(url, self._link, name, clock)
        self._clock = clock
        self.extra_duplicates = 0
        self._stopping = False

    def start(self) -> None:
        self._runner.start()

    def _on_event(self, event: DeviceEvent) -> None:
        """Hand an event on; a failing receiver is logged, and must not stop the device's reader."""
        try:
            self._sink(event)
        except Exception:
            log.exception("the receiver of %s events failed on a %s", self._runner.name, type(event).__name__)

    def stop(self) -> None:
        self._stopping = True  # closing the port on purpose is not a link failure to report
        self._runner.stop()

    def wait_opened(self, timeout: float) -> Exception | None:
        """Wait for the first attempt to open the port; what went wrong if it failed."""
        self._runner.opened.wait(timeout)
        return self._runner.open_error

    def stats(self) -> LinkStats:
        decoder = self._link.decoder
        return LinkStats(
            decoder.accepted, sum(decoder.rejected.values()), self._link.duplicates + self.extra_duplicates
        )

    def link_changed(self, state: LinkState) -> None:
        if not self._stopping:
            self._on_event(LinkChanged(state))

    def rejected(self, rejection: Rejection) -> None:
        self._on_event(FrameRejected(rejection.reason, rejection.detail))

    def message(self, message: Message) -> None:
        if isinstance(message, Hello):
            self._on_event(
                DeviceHello(
                    message.vendor, message.model, message.serial, message.firmware, message.proto, message.boot
                )
            )
        else:
            self.handle(message)

    def handle(self, message: Message) -> None:
        """A device-specific message other than HELLO; heartbeats and unknowns are not events."""

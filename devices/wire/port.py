"""The reader thread of one device: opens its URL, feeds the link, reopens with back-off, forever.

The read loop, the framing and the message handling are separate (the pyserial `threaded` idea):
this class only moves bytes and time; `HostLink` frames and checks; the adapter gives meaning.
Work from other threads (a LOCK, a PEEK) is queued here and run on this thread, so the link's
state is only ever touched by one thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

import serial

from devices.wire.clock import MONOTONIC, Clock
from devices.wire.link import HostLink
from devices.wire.timing import BACKOFF_FIRST, BACKOFF_MAX

__all__ = ["PortRunner"]

READ_WAIT = 0.01  # longest a read blocks, so queued work and the link's clocks run on time
BAUD = 115200


def open_port(url: str) -> serial.SerialBase:
    """Open a device path, a pseudo-terminal or `socket://host:port` at 115200 8N1, no flow control."""
    return serial.serial_for_url(
        url,
        baudrate=BAUD,
        bytesize=8,
        parity="N",
        stopbits=1,
        timeout=READ_WAIT,
        xonxoff=False,
        rtscts=False,
        exclusive=True,  # a second reader on the same device would steal half its frames
    )


def _read_available(port: serial.SerialBase) -> tuple[bytes, bool]:
    """What has arrived (waiting up to READ_WAIT for the first byte), and whether the port was lost after it.

    A socket port says only that more is waiting, not how much, so it is read until it says no;
    bytes read before the connection dropped are still handed on.
    """
    data = port.read(port.in_waiting or 1)
    try:
        while data and port.in_waiting:
            data += port.read(port.in_waiting)
    except (serial.SerialException, OSError):
        return data, True
    return data, False


class PortRunner:
    def __init__(self, url: str, link: HostLink, name: str, clock: Clock = MONOTONIC) -> None:
        self.url = url
        self.name = name
        self.clock = clock
        self._link = link
        self._work: queue.SimpleQueue[Callable[[float], None]] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"{name}-reader", daemon=True)
        self.open_error: Exception | None = None
        self.opened = threading.Event()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()

    def call(self, work: Callable[[float], None]) -> None:
        """Run `work(now)` on the reader thread, within one read wait."""
        self._work.put(work)

    def _run(self) -> None:
        backoff = BACKOFF_FIRST
        next_open = self.clock.now()
        while not self.clock.wait(self._stop, next_open - self.clock.now()):
            try:
                port = open_port(self.url)
            except (serial.SerialException, OSError, ValueError) as error:
                self.open_error = error
                self.opened.set()
                next_open = self.clock.now() + backoff
                backoff = min(backoff * 2, BACKOFF_MAX)
                continue
            self.open_error = None
            self.opened.set()
            came_up = self._serve(port)
            down_at = self.clock.now()
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
            self._link.closed()
            if came_up:
                backoff = BACKOFF_FIRST
            next_open = down_at + backoff
            backoff = min(backoff * 2, BACKOFF_MAX)

    def _serve(self, port: serial.SerialBase) -> bool:
        """Read and tick until the link must close; True if a HELLO brought it up meanwhile."""
        came_up = False
        try:
            self._link.opened(port.write, self.clock.now())
            while not self._stop.is_set():
                data, lost = _read_available(port)
                now = self.clock.now()
                if data:
                    self._link.received(data, now)
                if lost:
                    break
                while not self._work.empty():
                    self._work.get()(now)
                came_up = came_up or self._link.up
                if not self._link.tick(now):
                    break
        except (serial.SerialException, OSError):
            pass
        return came_up or self._link.up

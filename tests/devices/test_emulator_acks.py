"""The emulator counts the duplicates a host sees, ACK by ACK: the test is the host, on a raw socket,
and answers each sending of a ✓ frame when it likes."""

from __future__ import annotations

import socket
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from dealer_assist.table.spots import Spot, SpotKind
from devices.wire.codec import decode, encode
from devices.wire.framing import Frame, Framer, encode_frame
from devices.wire.messages import WAGERS_TO_HOST, Ack, Ident, Message, SpotContent
from devices.wire.timing import REPEAT_EVERY
from hw_sims.endpoints import InProcessEndpoint
from hw_sims.faults import FaultKind
from hw_sims.wagers import STILL_FOR, WagerEmulator

ONE = Spot(1, SpotKind.BASE)


@dataclass
class RawHost:
    """The host end of the line, driven by the test."""

    line: socket.socket
    framer: Framer = field(default_factory=Framer)
    seq: int = 0
    heard: deque[Message] = field(default_factory=deque)

    def say(self, message: Message) -> None:
        self.line.sendall(encode_frame(encode(replace(message, seq=self.seq))))
        self.seq += 1

    def answer(self, seconds: float) -> SpotContent | None:
        """Acknowledge every ✓ frame at once for this long, or until a SPOT comes, which is returned unanswered."""
        deadline = time.monotonic() + seconds
        while True:
            while self.heard:
                message = self.heard.popleft()
                if isinstance(message, SpotContent):
                    return message
                if message.ACKED:
                    self.say(Ack(0, message.seq))
            if (left := deadline - time.monotonic()) <= 0:
                return None
            self.line.settimeout(left)
            try:
                data = self.line.recv(4096)
            except TimeoutError:
                return None
            self.heard.extend(
                decode(item.body, WAGERS_TO_HOST) for item in self.framer.feed(data) if isinstance(item, Frame)
            )

    def next_spot(self, within: float = 5.0) -> SpotContent:
        spot = self.answer(within)
        assert spot is not None, "the reader sent no SPOT"
        return spot


@contextmanager
def reader_on_raw_line(name: str, **faults: float) -> Iterator[tuple[WagerEmulator, RawHost]]:
    endpoint = InProcessEndpoint(name)
    emulator = WagerEmulator(endpoint, seats=1, faults={FaultKind(kind): rate for kind, rate in faults.items()})
    emulator.start()
    host = RawHost(endpoint.connect())
    try:
        host.say(Ident(0))
        assert host.answer(STILL_FOR) is None  # its HELLO and SPOTS, each answered at once
        yield emulator, host
    finally:
        host.line.close()
        emulator.stop()
        endpoint.close()


def _eventually(done: object, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if callable(done) and done():
            return True
        time.sleep(0.01)
    return False


def test_a_repeat_that_crosses_a_late_ack_is_counted_when_the_second_ack_comes() -> None:
    with reader_on_raw_line("acks-late") as (emulator, host):
        before = emulator.stats.duplicates
        emulator.sim_place(ONE, [500])
        first = host.next_spot()
        again = host.next_spot(within=REPEAT_EVERY * 3)  # unanswered: sent again 200 ms later
        assert again == first and emulator.stats.duplicates == before
        host.say(Ack(0, first.seq))  # the first sending's ACK, late
        host.say(Ack(0, again.seq))  # and the repeat's: the host had the frame twice
        assert _eventually(lambda: emulator.stats.duplicates == before + 1)


def test_the_second_ack_of_a_frame_written_twice_on_purpose_is_not_counted_again() -> None:
    with reader_on_raw_line("acks-doubled", duplicate=1.0) as (emulator, host):
        before = emulator.stats.duplicates
        emulator.sim_place(ONE, [500])
        first = host.next_spot()
        second = host.next_spot(within=REPEAT_EVERY / 2)  # written twice at once: the DUPLICATE fault
        assert second == first and emulator.stats.duplicates == before + 1
        host.say(Ack(0, first.seq))
        host.say(Ack(0, second.seq))
        host.answer(REPEAT_EVERY / 2)
        assert emulator.stats.duplicates == before + 1

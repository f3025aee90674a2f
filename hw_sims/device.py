"""What both emulated devices share: the device end of the link (DEVICES.md §1) and fault injection.

The emulator runs the same delivery rules as a real device: it answers `ID` with `HELLO`, sends `HB`
every second, acknowledges the host's ✓ frames, keeps one ✓ frame outstanding and holds it across
an outage. Controls for tests and the bench are the `sim_*` methods, safe from any thread.
"""

from __future__ import annotations

import queue
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from devices.wire.clock import MONOTONIC, Clock
from devices.wire.decoding import Decoder
from devices.wire.delivery import Delivery
from devices.wire.framing import Rejection
from devices.wire.messages import Ack, Heartbeat, Hello, Ident, Message, Nak, Status, Vocabulary
from devices.wire.timing import HEARTBEAT_EVERY
from hw_sims.endpoints import Endpoint
from hw_sims.faults import (
    BAD_FRAMES,
    LINE_FAULTS,
    SHOE_MALFORMED,
    SILENCE_LENGTH,
    FaultKind,
    SimStats,
    bad_frame,
    noise,
)

POLL = 0.002  # the emulator's clock resolution


@dataclass(frozen=True, slots=True)
class Identity:
    vendor: str
    model: str
    serial: str
    firmware: str
    proto: str = "1.2"


class EmulatedDevice:
    # bodies after the SEQ that this device's host knows by TYPE and must call malformed
    malformed_bodies: ClassVar[tuple[str, ...]] = SHOE_MALFORMED

    def __init__(
        self,
        endpoint: Endpoint,
        vocabulary: Vocabulary,
        identity: Identity,
        *,
        seed: int,
        faults: Mapping[FaultKind, float],
        clock: Clock = MONOTONIC,
    ) -> None:
        self.endpoint = endpoint
        self.clock = clock
        self.stats = SimStats()
        self.rng = random.Random(seed)  # the device's own draws: its shoe, its cards' faults
        self.line_rng = random.Random(f"{seed}:line")  # the line's, per frame written (LINE_FAULTS)
        self.boot = f"{self.rng.getrandbits(32):08X}"
        self._identity = identity
        self._faults = dict(faults)
        self._decoder = Decoder(vocabulary)
        self._delivery = Delivery(self._write_good, self._first_send)
        self._delivery.paused = True  # until the host's ID
        self._work: queue.SimpleQueue[Callable[[float], None]] = queue.SimpleQueue()
        self._due: deque[FaultKind] = deque()  # link faults waiting for a quiet moment
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._host_ready = False
        self.host_seen = False  # a host has asked who is there since power-up
        self._silent_until = 0.0
        self._last_heartbeat = 0.0
        self._acks_to_drop = 0  # ACKs for the outstanding frame to ignore, as if lost on the line
        self._acked: int | None = None  # the SEQ of the ✓ frame last acknowledged
        self._doubled: set[int] = set()  # SEQs a DUPLICATE fault wrote twice, counted when written
        self.sim_on_first_send: Callable[[Message], None] | None = None  # sees each ✓ frame as it is written

    # running

    def start(self) -> None:
        """Serve on a thread of its own (tests, the benchmark)."""
        self._thread = threading.Thread(target=self.serve, name=f"{type(self).__name__}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        self.endpoint.close()

    def serve(self) -> None:
        """Run until `stop()`: power up, then answer the host and run the device's clocks."""
        self._say_hello(self.clock.now())
        self.powered_up(self.clock.now())
        while not self._stop.is_set():
            attached = self.endpoint.connected
            data = self.endpoint.poll(POLL)
            now = self.clock.now()
            if attached and not self.endpoint.connected:
                self._host_lost()
            while not self._work.empty():  # controls first: they were asked for before these bytes came
                self._work.get()(now)
            for item in self._decoder.feed(data):
                self._received(item, now)
            self.tick(now)
            if now - self._last_heartbeat >= HEARTBEAT_EVERY:
                self._last_heartbeat = now
                self._delivery.send(Heartbeat(0, self.heartbeat_count()))
            self._delivery.pump(now)
            self._run_due_fault(now)

    # controls

    def sim_call(self, work: Callable[[float], None]) -> None:
        """Run `work(now)` on the emulator's thread."""
        self._work.put(work)

    def sim_disconnect(self) -> None:
        """Drop the line at the next moment nothing is outstanding."""
        self.sim_call(lambda now: self._due.append(FaultKind.DISCONNECT))

    def sim_silence(self) -> None:
        """Send nothing for 3.5 s from the next quiet moment."""
        self.sim_call(lambda now: self._due.append(FaultKind.SILENCE))

    def sim_drop_acks(self, count: int) -> None:
        """Ignore the host's next `count` ACKs for the frame in flight; six make the device give up."""
        self.sim_call(lambda now: setattr(self, "_acks_to_drop", self._acks_to_drop + count))

    def sim_set_fault_rate(self, kind: FaultKind, rate: float) -> None:
        self.sim_call(lambda now: self._faults.__setitem__(kind, rate))

    def sim_power_up(self) -> None:
        """Power off and on now: a new boot id, SEQ from 0000, nothing held or queued, the host's SEQ
        forgotten; then HELLO and what the device says at power-up. The line stays as it was."""
        self.sim_call(self._power_up)

    # for subclasses

    def hello(self) -> Hello:
        """The HELLO this device sends; one that says more (the wager reader's casino) extends it."""
        i = self._identity
        return Hello(0, i.vendor, i.model, i.serial, i.firmware, i.proto, self.boot)

    def said_hello(self, now: float) -> None:
        """Queue what the device sends after every HELLO, ahead of anything else but a frame held over an outage."""

    def powered_up(self, now: float) -> None:
        """Queue what the device says at power-up, after its HELLO."""

    def tick(self, now: float) -> None:
        """The device's own clock: deal a card, answer a peek."""

    def command(self, message: Message, now: float) -> None:
        """A ✓ frame from the host, accepted and not a duplicate."""

    def heartbeat_count(self) -> int:
        return 0

    def post(self, message: Message, now: float) -> None:
        self._delivery.post(message, now)

    def post_first(self, messages: Sequence[Message], now: float) -> None:
        self._delivery.post_first(messages, now)

    def chance(self, kind: FaultKind) -> bool:
        rate = self._faults.get(kind, 0.0)
        return rate > 0 and (self.line_rng if kind in LINE_FAULTS else self.rng).random() < rate

    def schedule(self, kind: FaultKind) -> None:
        self._due.append(kind)

    # the link

    def _say_hello(self, now: float) -> None:
        self._delivery.send(self.hello())
        self.said_hello(now)

    def _power_up(self, now: float) -> None:
        self.boot = f"{self.rng.getrandbits(32):08X}"
        self._delivery = Delivery(self._write_good, self._first_send)
        self._delivery.paused = not self._host_ready
        self._acks_to_drop = 0
        self._acked = None
        self._doubled.clear()
        self._say_hello(now)
        self.powered_up(now)

    def _received(self, item: Message | Rejection, now: float) -> None:
        if isinstance(item, Rejection):
            if item.seq is not None:
                self._delivery.send(Nak(0, item.seq))
        elif isinstance(item, Ack):
            if self._acks_to_drop and item.of == self._delivery.in_flight:
                self._acks_to_drop -= 1
                self.stats.duplicates += 1  # the host has the frame: the next sending of it is a duplicate
            elif self._delivery.acknowledged(item.of, now) is not None:
                self._acked = item.of
            elif item.of in self._doubled:
                self._doubled.discard(item.of)  # the second ACK of a DUPLICATE fault's pair, counted when written
            elif item.of == self._acked:
                self.stats.duplicates += 1  # a repeat crossed a late ACK: the host had the frame twice
        elif isinstance(item, Nak):
            self._delivery.refused(item.of, now)
        elif isinstance(item, Ident):
            self._delivery.forget_peer()
            self._host_ready = self.host_seen = True
            self._say_hello(now)
            if self._delivery.paused:  # the link was down: what it held goes again now (ICD §1)
                self._delivery.resume(now, renumber=False)
            # else a host that asked again before our HELLO reached it: the frame in flight is
            # repeated on its own clock if need be, never sent twice at once (a duplicate)
        elif isinstance(item, Status):
            self._say_hello(now)
            self._delivery.send(Heartbeat(0, self.heartbeat_count()))
        elif item.ACKED and self._delivery.accept(item):
            self.command(item, now)

    def _host_lost(self) -> None:
        self._host_ready = False
        self._delivery.paused = True
        self._doubled.clear()  # their second ACKs were lost with the line

    def _first_send(self, message: Message, now: float) -> None:
        if self.sim_on_first_send is not None:
            self.sim_on_first_send(message)
        if not self._host_ready or now < self._silent_until:
            return
        if self.chance(FaultKind.WITHHELD_ACK):
            self._acks_to_drop += 1
        elif self.chance(FaultKind.DUPLICATE) and self._write_good_counted(message):
            self.stats.duplicates += 1
            self._doubled.add(message.seq)

    def _write_good_counted(self, message: Message) -> bool:
        before = self.stats.frames
        self._delivery.write_frame(message)
        return self.stats.frames > before

    def _write_good(self, frame: bytes) -> None:
        """Every good frame goes out here, after whatever bad bytes the fault rates call for.

        Until the host's first `ID` on this connection nothing is written: a host clears its input
        when it opens the port, so earlier bytes would be counted here but never seen there.
        """
        if self.clock.now() < self._silent_until or not self._host_ready or not self.endpoint.connected:
            return
        if self.chance(FaultKind.NOISE):
            self.endpoint.write(noise(self.line_rng))
        for kind in BAD_FRAMES:  # TRUNCATED comes last: the good frame's STX is what cuts it short
            if self.chance(kind) and self.endpoint.write(self._bad_frame(kind)):
                self.stats.bad[kind.value] += 1
        if self.chance(FaultKind.SPLIT):
            written = self._write_split(frame)
        else:
            written = self.endpoint.write(frame)
        if written:
            self.stats.frames += 1

    def _bad_frame(self, kind: FaultKind) -> bytes:
        return bad_frame(kind, self._delivery.stamp(Ident(0)).seq, self.line_rng, self.malformed_bodies)

    def _write_split(self, frame: bytes) -> bool:
        at = 0
        while at < len(frame):
            step = self.line_rng.randint(1, 3)
            if not self.endpoint.write(frame[at : at + step]):
                return False
            at += step
            time.sleep(0.0002)
        return True

    def _run_due_fault(self, now: float) -> None:
        """Drop the line or fall silent only between exchanges, so the host's counts stay exact."""
        quiet = self._host_ready and self._delivery.idle and not self._acks_to_drop and now >= self._silent_until
        if not self._due or not quiet:
            return
        kind = self._due.popleft()
        if kind is FaultKind.DISCONNECT:
            self.stats.disconnects += 1
            self.endpoint.hang_up()
            self._host_lost()
        else:
            self.stats.silences += 1
            self._silent_until = now + SILENCE_LENGTH

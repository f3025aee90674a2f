"""Delivery of ✓ frames, the same at both ends of a link (DEVICES.md §1).

At most one ✓ frame is outstanding; it is sent again with the same SEQ every 200 ms, and at once on
a NAK for it, at most 5 times. Then the sender gives up and holds it until the link is back; nothing
queued behind it is lost. Incoming ✓ frames are acknowledged, and one whose SEQ equals the last
accepted one from the peer is reported as a duplicate.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from devices.wire.codec import encode
from devices.wire.framing import encode_frame
from devices.wire.messages import Ack, Message
from devices.wire.timing import MAX_REPEATS, REPEAT_EVERY

__all__ = ["Delivery"]

Write = Callable[[bytes], object]


@dataclass(slots=True)
class _Outstanding:
    message: Message
    last_sent: float
    repeats: int = 0


class Delivery:
    def __init__(self, write: Write, on_first_send: Callable[[Message, float], None] | None = None) -> None:
        self._write = write
        self._on_first_send = on_first_send
        self._next_seq = 0
        self._queue: deque[Message] = deque()
        self._outstanding: _Outstanding | None = None
        self._last_accepted: int | None = None
        self.paused = False

    def stamp(self, message: Message) -> Message:
        """Give a message the sender's next SEQ, wrapping 0xFFFF -> 0x0000."""
        stamped = replace(message, seq=self._next_seq)
        self._next_seq = (self._next_seq + 1) & 0xFFFF
        return stamped

    def send(self, message: Message) -> Message:
        """Send a frame that is not ✓ (HB, HELLO, ID, ACK, NAK...) now, with a SEQ of its own."""
        stamped = self.stamp(message)
        self.write_frame(stamped)
        return stamped

    def write_frame(self, message: Message) -> None:
        self._write(encode_frame(encode(message)))

    def post(self, message: Message, now: float) -> None:
        """Queue a ✓ message; it goes out when everything before it is acknowledged."""
        self._queue.append(message)
        self.pump(now)

    def post_first(self, messages: Sequence[Message], now: float) -> None:
        """Queue ✓ messages ahead of all queued ones, which drop any of the same TYPEs they replace
        (a reader's spot list after each HELLO); a frame already sent stays outstanding."""
        replaced = {message.TYPE for message in messages}
        self._queue = deque([*messages, *(message for message in self._queue if message.TYPE not in replaced)])
        self.pump(now)

    @property
    def in_flight(self) -> int | None:
        """The SEQ of the outstanding ✓ frame, if any."""
        return None if self._outstanding is None else self._outstanding.message.seq

    @property
    def idle(self) -> bool:
        """Nothing outstanding and nothing queued."""
        return self._outstanding is None and not self._queue

    def pump(self, now: float) -> bool:
        """Send the next ✓ frame or repeat the outstanding one; False when the sender must give up."""
        if self.paused:
            return True
        current = self._outstanding
        if current is None:
            if self._queue:
                message = self.stamp(self._queue.popleft())
                self._outstanding = _Outstanding(message, now)
                if self._on_first_send is not None:  # before the write: an answer may come at once
                    self._on_first_send(message, now)
                self.write_frame(message)
            return True
        if now - current.last_sent < REPEAT_EVERY:
            return True
        if current.repeats >= MAX_REPEATS:
            self.paused = True
            return False
        self._repeat(current, now)
        return True

    def acknowledged(self, of: int, now: float) -> Message | None:
        """An ACK arrived; if it is for the outstanding frame, that frame is done."""
        current = self._outstanding
        if current is None or current.message.seq != of:
            return None
        self._outstanding = None
        self.pump(now)
        return current.message

    def refused(self, of: int, now: float) -> None:
        """A NAK arrived: repeat at once if it names the outstanding frame and repeats remain."""
        current = self._outstanding
        if current is not None and current.message.seq == of and current.repeats < MAX_REPEATS and not self.paused:
            self._repeat(current, now)

    def accept(self, message: Message) -> bool:
        """Acknowledge an incoming ✓ frame; False when it repeats the last one accepted (a duplicate)."""
        self.send(Ack(0, message.seq))
        duplicate = message.seq == self._last_accepted
        self._last_accepted = message.seq
        return not duplicate

    def forget_peer(self) -> None:
        """Forget the peer's last SEQ: a new boot (host side) or an `ID` (device side)."""
        self._last_accepted = None

    def restart_numbering(self) -> None:
        """The host starts its SEQ at 0000 whenever it opens the port."""
        self._next_seq = 0

    def resume(self, now: float, *, renumber: bool) -> None:
        """The link is back: send the held frame again, with a new SEQ if numbering restarted."""
        self.paused = False
        current = self._outstanding
        if current is not None:
            message = self.stamp(current.message) if renumber else current.message
            self._outstanding = _Outstanding(message, now)
            self.write_frame(message)
        self.pump(now)

    def _repeat(self, current: _Outstanding, now: float) -> None:
        current.repeats += 1
        current.last_sent = now
        self.write_frame(current.message)

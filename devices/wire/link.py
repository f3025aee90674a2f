"""The host end of one device link (DEVICES.md §1): start-up, supervision, acknowledgement, duplicates.

It does no I/O and reads no clock: the port runner hands it bytes, the time and a write function,
and it hands accepted messages to a `LinkHandler`. That keeps it testable frame by frame.
"""

from __future__ import annotations

from enum import StrEnum

from devices.wire.decoding import Decoder
from devices.wire.delivery import Delivery, Write
from devices.wire.framing import Rejection
from devices.wire.messages import Ack, Hello, Ident, Message, Nak, Vocabulary
from devices.wire.timing import ID_EVERY, SILENCE_LIMIT

__all__ = ["HostLink", "LinkHandler", "LinkState"]


class LinkState(StrEnum):
    UP = "up"
    DOWN = "down"


class LinkHandler:
    """What a device adapter hears from its link; every method is called on the port's thread."""

    def link_changed(self, state: LinkState) -> None:
        """The link came up (after a HELLO) or went down (silence, port lost, repeats exhausted)."""

    def message(self, message: Message) -> None:
        """A message that passed every check and is not a duplicate by SEQ."""

    def rejected(self, rejection: Rejection) -> None:
        """A frame refused by the framer or the codec; it was counted."""

    def sent(self, message: Message, now: float) -> None:
        """A ✓ message of the host went out for the first time, with its SEQ."""

    def refuse(self, message: Message) -> str | None:
        """Why a message that decoded does not fit what the device said before; it is then malformed."""
        return None


class HostLink:
    def __init__(self, vocabulary: Vocabulary, handler: LinkHandler) -> None:
        self.decoder = Decoder(vocabulary, handler.refuse)
        self.delivery = Delivery(self._write, handler.sent)
        self.delivery.paused = True  # nothing ✓ goes out before the first HELLO
        self.duplicates = 0
        self.up = False
        self._handler = handler
        self._port_write: Write | None = None
        self._boot: str | None = None
        self._last_id = 0.0
        self._last_frame = 0.0
        self.last_acked_frame = 0.0  # when the last ✓ frame came in, duplicates included
        self._restart = False

    def opened(self, write: Write, now: float) -> None:
        """A port is open: SEQ restarts at 0000 and the host asks who is there."""
        self._port_write = write
        self.delivery.restart_numbering()
        self._send_id(now)

    def closed(self) -> None:
        self._port_write = None
        rejection = self.decoder.reset()
        if rejection is not None:
            self._handler.rejected(rejection)
        self.delivery.paused = True
        if self.up:
            self.up = False
            self._handler.link_changed(LinkState.DOWN)

    def post(self, message: Message, now: float) -> None:
        self.delivery.post(message, now)

    def received(self, data: bytes, now: float) -> None:
        for item in self.decoder.feed(data):
            self._last_frame = now
            if isinstance(item, Rejection):
                self._handler.rejected(item)
                if item.seq is not None:
                    self.delivery.send(Nak(0, item.seq))
            else:
                self._dispatch(item, now)

    def restart(self) -> None:
        """Close and reopen the port at the next tick, so the device gets an `ID` and resends what it holds."""
        self._restart = True

    def tick(self, now: float) -> bool:
        """Run the clocks; False when the link is down and the port must be closed."""
        if self._restart:
            self._restart = False
            return False
        if not self.up:
            if now - self._last_id >= ID_EVERY:
                self._send_id(now)
            return True
        if now - self._last_frame >= SILENCE_LIMIT:
            return False
        return self.delivery.pump(now)

    def _dispatch(self, message: Message, now: float) -> None:
        if isinstance(message, Ack):
            self.delivery.acknowledged(message.of, now)
        elif isinstance(message, Nak):
            self.delivery.refused(message.of, now)
        elif isinstance(message, Hello):
            self._hello(message, now)
        elif message.ACKED and not self.delivery.accept(message):
            self.last_acked_frame = now
            self.duplicates += 1
        else:
            if message.ACKED:
                self.last_acked_frame = now
            self._handler.message(message)

    def _hello(self, hello: Hello, now: float) -> None:
        if hello.boot != self._boot:
            self._boot = hello.boot
            self.delivery.forget_peer()
        self._handler.message(hello)
        if not self.up:
            self.up = True
            self._last_frame = now
            self._handler.link_changed(LinkState.UP)
            self.delivery.resume(now, renumber=True)

    def _send_id(self, now: float) -> None:
        self._last_id = now
        self.delivery.send(Ident(0))

    def _write(self, data: bytes) -> None:
        if self._port_write is not None:
            self._port_write(data)

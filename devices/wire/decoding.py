"""Bytes in, messages or counted rejections out: the framer and the codec behind one call.

The counts are what `devices monitor` reports in its stats line: every frame that passed the checks,
of any type, and every refused frame by reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

from devices.wire.codec import CodecError, decode
from devices.wire.framing import Framer, Rejection, RejectReason
from devices.wire.messages import Message, Vocabulary

__all__ = ["Decoder"]

Refuse = Callable[[Message], str | None]


class Decoder:
    """`refuse` names what makes a message that decoded still malformed against what the device said
    before (a spot its reader never listed); None when nothing does."""

    def __init__(self, vocabulary: Vocabulary, refuse: Refuse = lambda message: None) -> None:
        self._vocabulary = vocabulary
        self._refuse = refuse
        self._framer = Framer()
        self.accepted = 0
        self.rejected: Counter[RejectReason] = Counter()

    def feed(self, data: bytes) -> Iterator[Message | Rejection]:
        for item in self._framer.feed(data):
            if isinstance(item, Rejection):
                yield self._count(item)
                continue
            try:
                message = decode(item.body, self._vocabulary)
            except CodecError as error:
                yield self._count(Rejection(error.reason, error.detail, error.seq))
                continue
            detail = self._refuse(message)
            if detail is not None:
                yield self._count(Rejection(RejectReason.MALFORMED, detail, message.seq))
            else:
                self.accepted += 1
                yield message

    def reset(self) -> Rejection | None:
        """The port closed: an unfinished frame is counted as truncated."""
        item = self._framer.reset()
        return None if item is None else self._count(item)

    def _count(self, rejection: Rejection) -> Rejection:
        self.rejected[rejection.reason] += 1
        return rejection

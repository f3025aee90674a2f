"""The broker client ingest reads the stream with: nats.py's own, handing one subscription's messages
over as they are read.

nats.py makes each message it reads a `Msg`: it reads the header block line by line, queues the message
for the subscription's task and hands it to the callback on a later turn of the event loop. For the
records consumer's messages that cost about a seventh of ingest's time in a profile, more than
judging a record's chain. A subscription made with `hand_over` skips all of it: each message goes,
as the protocol parser read it, to a plain function, in the order the broker sent them.
"""

from __future__ import annotations

from collections.abc import Callable

from nats.aio.client import Client
from nats.aio.subscription import Subscription

__all__ = ["IngestClient"]

# subject, reply, data, and the raw header block (None without one), as the broker sent them
Take = Callable[[bytes, bytes, bytes, bytes | None], None]


class IngestClient(Client):
    def __init__(self) -> None:
        super().__init__()
        self._handed: dict[int, Take] = {}  # subscription id -> where its messages go

    async def hand_over(self, subject: str, take: Take) -> Subscription:
        """Subscribe to `subject`, each message going straight to `take` (which must not block)."""
        sub = await self.subscribe(subject)
        self._handed[sub._id] = take  # nats.py knows a subscription by this id on the wire, reconnected too
        return sub

    async def take_back(self, sub: Subscription) -> None:
        """Unsubscribe a subscription made with `hand_over`."""
        self._handed.pop(sub._id, None)
        await sub.unsubscribe()

    async def _process_msg(self, sid: int, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        take = self._handed.get(sid)
        if take is None:
            await super()._process_msg(sid, subject, reply, data, headers)  # type: ignore[arg-type]
            return
        self.stats["in_msgs"] += 1
        self.stats["in_bytes"] += len(data)
        take(subject, reply, data, headers)

"""What the store lacks of what the stream holds, journal by journal (PIT.md §8).

The stream keeps every record (limits retention, never a work queue), so a pit whose store came
back behind what it had acknowledged (a promoted standby that missed the primary's last commits),
or whose records consumer moved on past records another pit service was given and never stored,
reads those journals again from the stream, each from the stream position of its witnessed head.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from nats.errors import TimeoutError as NatsTimeout
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.client import JetStreamContext
from nats.js.errors import NotFoundError

from pit.service.ingest.pull import Delivery
from pit.stream.wire import STREAM, STREAM_SUBJECTS

READ_BATCH = 1000
READ_TIMEOUT_S = 2.0


@dataclass(frozen=True, slots=True)
class Behind:
    """A journal the store holds less of than the stream: read it from stream seq `start` to `upto`,
    at most `most` records."""

    subject: str
    start: int  # the stream seq of the first record after the witnessed head
    upto: int
    most: int

    def joined(self, other: Behind) -> Behind:
        """Both stretches of one journal, as one."""
        start, upto = min(self.start, other.start), max(self.upto, other.upto)
        return Behind(self.subject, start, upto, upto - start + 1)


@dataclass(frozen=True, slots=True)
class Handed:
    """How far a consumer has handed out the stream: the stream seq of its last message, and its count
    of deliveries (0 and 0 for a consumer that does not exist yet)."""

    stream_seq: int
    delivery_seq: int


@dataclass(frozen=True, slots=True)
class Witnessed:
    """A journal's witnessed head as the store has it."""

    seq: int
    stream_seq: int
    diverged: bool


def journal_of_subject(subject: str) -> str:
    """`da.records.<table>.<journal>` -> the journal."""
    return subject.rsplit(".", 1)[-1]


async def handed_out(js: JetStreamContext, consumer: str) -> Handed:
    try:
        info = await js.consumer_info(STREAM, consumer)
    except NotFoundError:
        return Handed(0, 0)
    if info.delivered is None:
        return Handed(0, 0)
    return Handed(int(info.delivered.stream_seq or 0), int(info.delivered.consumer_seq or 0))


async def behind(js: JetStreamContext, heads: dict[str, Witnessed], upto: int) -> list[Behind]:
    """The journals whose records in the stream outnumber the store's witnessed head and whose first
    record after it is at or before `upto`; a journal that diverged is left alone (nothing after its
    refused record is stored)."""
    if upto <= 0:
        return []
    info = await js.stream_info(STREAM, subjects_filter=STREAM_SUBJECTS)
    found = []
    for subject, count in sorted((info.state.subjects or {}).items()):
        head = heads.get(journal_of_subject(subject))
        if head is not None and (head.diverged or head.seq >= count):
            continue
        if (wanted := await after_head(js, subject, head, upto)) is not None:
            found.append(wanted)
    return found


async def after_head(js: JetStreamContext, subject: str, head: Witnessed | None, upto: int) -> Behind | None:
    """Where the journal's first record after the witnessed head's stream position is in the stream
    (asked of the broker), if at or before `upto`. That position never passes a record not yet stored
    (`writes._move_heads`), so every record the store lacks is read from there."""
    try:
        first = await js.get_msg(STREAM, seq=head.stream_seq + 1 if head is not None else 1, subject=subject, next=True)
    except NotFoundError:
        return None
    if first.seq is None or first.seq > upto:
        return None
    return Behind(subject, first.seq, upto, upto - first.seq + 1)  # no more records than stream places between them


async def read(js: JetStreamContext, wanted: Behind) -> AsyncIterator[list[Delivery]]:
    """The journal's messages from `wanted.start` to `wanted.upto`, in batches, through an ephemeral
    consumer of its subject alone that acknowledges nothing (the records consumer is left as it is)."""
    config = ConsumerConfig(
        filter_subject=wanted.subject,
        ack_policy=AckPolicy.NONE,
        mem_storage=True,
        num_replicas=1,
        inactive_threshold=30.0,
        deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
        opt_start_seq=wanted.start,
    )
    consumer = await js.add_consumer(STREAM, config)
    try:
        sub = await js.pull_subscribe_bind(consumer.name, STREAM)
        try:
            left = wanted.most
            while left > 0:
                try:
                    batch = await sub.fetch(min(READ_BATCH, left), timeout=READ_TIMEOUT_S)
                except NatsTimeout:
                    return
                kept = [Delivery.of(msg) for msg in batch if msg.metadata.sequence.stream <= wanted.upto]
                if kept:
                    yield kept
                left -= len(batch)
                if len(kept) < len(batch) or batch[-1].metadata.num_pending == 0:
                    return
        finally:
            await sub.unsubscribe()
    finally:
        await _delete(js, consumer.name)


async def _delete(js: JetStreamContext, name: str) -> None:
    try:
        await js.delete_consumer(STREAM, name)
    except Exception:  # gone already, or the broker went away: its inactivity limit removes it
        pass

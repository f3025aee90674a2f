"""The journal is the outbox: what the stream lacks is read from the file, never from memory.

What to send is asked of the broker: which records of this journal's subject the stream holds,
gaps included (a record refused while the stream had no leader, and later ones stored), not just
its last message. That is checked against the file: a stream that holds a record the file lacks,
or another hash for its last record, means the journal is behind what the pit has seen (cut short,
restored, rewritten), and nothing more is shipped from it. Only the missing records are sent, so
no resend ever relies on the broker's duplicate window. Both the table's shipper and `journal
ship` use these.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from nats.aio.client import Client
from nats.js.api import PubAck
from nats.js.client import JetStreamContext

from dealer_assist.journal.journal_file import Record, last_seq, read_records, record_at
from pit.errors import PitCode, PitError
from pit.stream.broker import held_seqs, last_shipped
from pit.stream.wire import RecordMessage, journal_identity

BATCH = 500  # records read from the file at a time (a short read transaction each)
WINDOW = 256  # publishes in flight before the oldest's acknowledgement is awaited
ACK_TIMEOUT_S = 5.0


class Divergence(PitError):
    """The journal is behind what the stream holds of it; the text names the record and both hashes."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.DIVERGED, message, 1)


class LinkLost(PitError):
    """The broker connection dropped, or a publish went unanswered; the text says which."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.LINK_LOST, message, 1)


class Refused(LinkLost):
    """The broker is reached but does not store a record (refused, or not acknowledged in time)."""


@dataclass(frozen=True, slots=True)
class Holding:
    """What the stream holds of a journal: its highest seq, and the seqs below it that it lacks."""

    top: int
    missing: tuple[int, ...] = ()

    @property
    def first_missing(self) -> int:
        return self.missing[0] if self.missing else self.top + 1

    def complete(self, head: int) -> bool:
        return not self.missing and self.top >= head

    def lacking(self, head: int) -> int:
        """How many of the journal's `head` records the stream does not have."""
        return len(self.missing) + max(0, head - self.top)


def journal_of(path: Path) -> str | None:
    """The journal's identity (its header's hash), or None while the file has no record yet."""
    try:
        return journal_identity(record_at(path, 1))
    except KeyError:
        return None


async def holding(client: Client, table_id: str, journal: str, path: Path) -> Holding:
    """What the stream holds of `journal`, checked against the file."""
    last = await last_shipped(client.jetstream(timeout=ACK_TIMEOUT_S), table_id, journal)
    if last is None:
        return Holding(0)
    head = last_seq(path)
    try:
        mine = record_at(path, last.seq)
    except KeyError:
        raise _behind(journal, last.seq, last.hash, head) from None
    if mine.hash.hex() != last.hash:
        raise Divergence(
            f"journal {journal[:12]}: record {last.seq} differs from the pit's stream (stream hash "
            f"{last.hash[:16]}, journal hash {mine.hash.hex()[:16]}): the journal was rewritten"
        )
    seqs = set(await held_seqs(client, table_id, journal))
    top = max(seqs | {last.seq})
    if top > head:
        raise _behind(journal, top, None, head)
    return Holding(top, tuple(seq for seq in range(1, top) if seq not in seqs))


def _behind(journal: str, seq: int, digest: str | None, head: int) -> Divergence:
    held = f"record {seq}" + (f" (hash {digest[:16]})" if digest else "")
    return Divergence(
        f"journal {journal[:12]}: the pit's stream holds {held} but the journal ends at record {head}: "
        "it was cut short or restored from an old copy"
    )


async def fill(
    js: JetStreamContext, table_id: str, journal: str, path: Path, missing: Iterable[int], lost: asyncio.Event
) -> None:
    """Publish the records the stream lacks below its highest one (`Holding.missing`). Raises LinkLost."""
    await _publish(js, table_id, journal, (record_at(path, seq) for seq in missing), lost, lambda seq: None)


async def ship_from(
    js: JetStreamContext,
    table_id: str,
    journal: str,
    path: Path,
    after: int,
    lost: asyncio.Event,
    on_acked: Callable[[int], None],
) -> int:
    """Publish every record of the file after seq `after`, in order, up to WINDOW in flight; call
    `on_acked(seq)` as each is acknowledged (in order) and return the last. Raises LinkLost.

    The first record goes alone, the others once the stream has taken it: while the stream has no
    leader (its node lost, an election under way) the broker refuses a publish ("no responders"), and
    a window sent into that moment could have its first records refused and later ones stored once a
    leader comes, a hole behind the stream's last record. A session opening onto a stream without a
    leader thus stops at its first record; a leader lost mid-window leaves a gap that the next look at
    what the stream holds finds (`holding`), and `fill` mends."""
    return await _publish(js, table_id, journal, _records_after(path, after), lost, on_acked, after)


def _records_after(path: Path, after: int) -> Iterable[Record]:
    while batch := _batch(path, after):
        yield from batch
        after = batch[-1].seq


async def _publish(
    js: JetStreamContext,
    table_id: str,
    journal: str,
    records: Iterable[Record],
    lost: asyncio.Event,
    on_acked: Callable[[int], None],
    shipped: int = 0,
) -> int:
    """Publish `records` in order, the first alone (see `ship_from`), then up to WINDOW in flight."""
    in_flight: deque[tuple[int, asyncio.Future[PubAck]]] = deque()
    first = True
    try:
        for record in records:
            message = RecordMessage.of(table_id, journal, record)
            future = await js.publish_async(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
            in_flight.append((record.seq, future))
            if len(in_flight) >= WINDOW or first:
                shipped = await _acked(*in_flight.popleft(), lost)
                on_acked(shipped)
            first = False
        while in_flight:
            shipped = await _acked(*in_flight.popleft(), lost)
            on_acked(shipped)
    finally:
        for _, future in in_flight:
            future.cancel()
    return shipped


def _batch(path: Path, after: int) -> list[Record]:
    """The next records after `after`; the reader is dropped here, which ends its read transaction
    so that the table's checkpoints are never held back by the shipper."""
    return list(islice(read_records(path, since=after), BATCH))


async def _acked(seq: int, future: asyncio.Future[PubAck], lost: asyncio.Event) -> int:
    """Wait for one acknowledgement; a dropped connection ends the wait at once."""
    if not future.done():
        loss = asyncio.ensure_future(lost.wait())
        waits: set[asyncio.Future[Any]] = {future, loss}
        try:
            await asyncio.wait(waits, timeout=ACK_TIMEOUT_S, return_when=asyncio.FIRST_COMPLETED)
        finally:
            loss.cancel()
    if not future.done():
        if lost.is_set():
            raise LinkLost(f"record {seq}: the connection to the broker dropped")
        raise Refused(f"record {seq}: the broker did not acknowledge it within {ACK_TIMEOUT_S:.0f} s")
    try:
        future.result()
    except asyncio.CancelledError:
        raise LinkLost(f"record {seq}: the publish was cancelled as the connection closed") from None
    except Exception as error:
        if lost.is_set():
            raise LinkLost(f"record {seq}: the connection to the broker dropped ({error})") from None
        raise Refused(f"record {seq}: the broker refused it ({error or type(error).__name__})") from None
    return seq

"""The journal is the outbox: what the stream lacks is read from the file, never from memory.

Where to resume is asked of the broker (the last record of this journal's subject), then checked
against the file: a stream that holds a record the file lacks, or another hash at the same seq,
means the journal is behind what the pit has seen (cut short, restored, rewritten), and nothing
more is shipped from it. Both the table's shipper and `journal ship` use these.
"""
from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

from nats.js.api import PubAck
from nats.js.client import JetStreamContext

from dealer_assist.journal.journal_file import Record, last_seq, read_records, record_at
from pit.errors import PitCode, PitError
from pit.stream.broker import last_shipped
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


def journal_of(path: Path) -> str | None:
    """The journal's identity (its header's hash), or None while the file has no record yet."""
    try:
        return journal_identity(record_at(path, 1))
    except KeyError:
        return None


async def position(js: JetStreamContext, table_id: str, journal: str, path: Path) -> int:
    """The last seq of `journal` the stream holds (0 for none), checked against the file."""
    last = await last_shipped(js, table_id, journal)
    if last is None:
        return 0
    try:
        mine = record_at(path, last.seq)
    except KeyError:
        raise Divergence(f"journal {journal[:12]}: the pit's stream holds record {last.seq} (hash {last.hash[:16]}) "
                         f"but the journal ends at record {last_seq(path)}: it was cut short or restored "
                         "from an old copy") from None
    if mine.hash.hex() != last.hash:
        raise Divergence(f"journal {journal[:12]}: record {last.seq} differs from the pit's stream (stream hash "
                         f"{last.hash[:16]}, journal hash {mine.hash.hex()[:16]}): the journal was rewritten")
    return last.seq


async def ship_from(js: JetStreamContext, table_id: str, journal: str, path: Path, after: int, lost: asyncio.Event,
                    on_acked: Callable[[int], None]) -> int:
    """Publish every record of the file after seq `after`, in order, up to WINDOW in flight; call
    `on_acked(seq)` as each is acknowledged (in order) and return the last. Raises LinkLost.

    The first record goes alone, the others once the stream has taken it: while the stream has no
    leader (its node lost, an election under way) the broker refuses a publish ("no responders"), and
    a window sent into that moment could have its first records refused and later ones stored once a
    leader comes, a hole behind the stream's last record. A session opening onto a stream without a
    leader thus stops at its first record; a leader lost mid-window is mended by the caller, which
    sends again from the first record it did not see acknowledged (`Shipper._session`)."""
    in_flight: deque[tuple[int, asyncio.Future[PubAck]]] = deque()
    shipped = sent = after
    try:
        while batch := _batch(path, sent):
            for record in batch:
                message = RecordMessage.of(table_id, journal, record)
                future = await js.publish_async(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
                in_flight.append((record.seq, future))
                sent = record.seq
                if len(in_flight) >= WINDOW or sent == after + 1:
                    shipped = await _acked(*in_flight.popleft(), lost)
                    on_acked(shipped)
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
        raise LinkLost(f"record {seq}: the connection to the broker dropped" if lost.is_set()
                       else f"record {seq}: the broker did not acknowledge it within {ACK_TIMEOUT_S:.0f} s")
    try:
        future.result()
    except asyncio.CancelledError:
        raise LinkLost(f"record {seq}: the publish was cancelled as the connection closed") from None
    except Exception as error:
        raise LinkLost(f"record {seq}: the broker refused it ({error})") from None
    return seq

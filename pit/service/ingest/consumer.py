"""The records consumer: records from the `DA_RECORDS` stream into the store, on the ingest lock's session.

Records come from a durable pull consumer in batches. Each batch is judged by the witness (`batch`)
while the batches before it are written, then written in one transaction (`writes`), and acked only
after that transaction commits, so a kill of the broker, the pit or the store anywhere loses nothing
and stores nothing twice: what was not acked is delivered again and is then a duplicate, a no-op.
One ack, of the batch's last message, acks every message handed out before it. What the store lacks
though it was acked (a promoted standby that missed the last commits), or a record's predecessor
that went to a pit that died, is read again from the stream, journal by journal (`catch_up`).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import psycopg
from nats.errors import Error as NatsError
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.client import JetStreamContext
from nats.js.errors import Error as JetStreamError
from nats.js.errors import NotFoundError

from pit.service.ingest import catch_up
from pit.service.ingest.batch import Known, Plan, planning
from pit.service.ingest.catch_up import Behind
from pit.service.ingest.gaps import Gaps, GapTiming, Held
from pit.service.ingest.pull import Delivery, Puller
from pit.service.ingest.witness import Verdict
from pit.service.ingest.writes import keep_refused, look_up, rolled_back, stored_copies, write_plan, write_records
from pit.service.store.lease import Session, pause
from pit.stream.broker import ensure_stream, room_of_source, seq_of_source
from pit.stream.ingest_client import IngestClient
from pit.stream.wire import STREAM, RecordMessage, WireError, parse_record_message, records_subject

CONSUMER = "pit-ingest"
BATCH = 1000
READ_SLICE = 50  # messages read between two looks at the store's answers
WRITES_AHEAD = 2  # batches judged and waiting to be written, or being written
ACK_WAIT_S = 10.0
RETRY_EARLY_S = 5.0  # a record still early after its journal was read again: read again this often
log = logging.getLogger("pit.ingest")


@dataclass(slots=True)
class Read:
    """A batch of record messages read: each one parsed and checked (None: refused as it is, with
    its subject, why, and its data in `refused`)."""

    parsed: list[RecordMessage | None] = field(default_factory=list)
    refused: list[tuple[str, str, bytes]] = field(default_factory=list)

    def of(self, messages: Sequence[Delivery], store_refused: str | None = None) -> Read:
        """`store_refused`: why the store refused these messages as they are."""
        for msg in messages:
            try:
                if store_refused is not None:
                    raise WireError(f"record message: the store refused it: {store_refused}")
                message = parse_record_message(msg.data)
                if message.subject != msg.subject:
                    raise WireError(f"record message: subject {msg.subject} is not the record's {message.subject}")
                self.parsed.append(message)
            except WireError as error:
                self.parsed.append(None)
                self.refused.append((msg.subject, str(error), msg.data))
        return self

    async def beside(self, messages: Sequence[Delivery]) -> Read:
        """Read in slices, handing the loop back between them: the batch before this one goes on with
        the store meanwhile, whose answers would otherwise wait for the whole batch to be read."""
        for start in range(0, len(messages), READ_SLICE):
            self.of(messages[start : start + READ_SLICE])
            await asyncio.sleep(0)
        return self


class RecordsConsumer:
    """The records consumer of one pit service: runs on the ingest lock's session while this pit
    holds it (`run`), from where the store stands."""

    def __init__(
        self, nc: IngestClient, batch: int = BATCH, rooms: Sequence[str] = (), gap_timing: GapTiming = GapTiming()
    ) -> None:
        self._nc = nc
        self.gaps = Gaps(nc, gap_timing)
        self.batch = batch
        self.rooms = tuple(rooms)  # a head office's: the rooms whose streams its own sources
        self.taken: dict[str, int] = {}  # a head office's: room -> the last seq of its stream written here
        self.stored = 0  # records stored since start
        self._known: Known | None = None  # of the journals ingest has judged, as of the last batch planned
        self._generation = 0  # moves on each time `_known` is forgotten
        self._covered = 0  # the records consumer's deliveries up to this count are stored, or this pit's to store
        self._retry: dict[str, Behind] = {}  # subject -> where records of it still early are in the stream
        self._retry_at = 0.0

    async def run(self, session: Session, stop: asyncio.Event) -> None:
        """Consume until `stop`, subscribing again whenever the broker is lost; what ingest knew of the
        store is forgotten first (another pit may have written since)."""
        self._forget()
        await self.gaps.load(session)
        nc = self._nc
        js = nc.jetstream(timeout=5)
        config = ConsumerConfig(
            durable_name=CONSUMER,
            ack_policy=AckPolicy.ALL,
            ack_wait=ACK_WAIT_S,
            deliver_policy=DeliverPolicy.ALL,
            max_ack_pending=20 * self.batch,
            max_waiting=16,
        )
        while not stop.is_set():
            try:
                await ensure_stream(js, self.rooms)
                self._covered = await self._catch_up(js, session)
                await self._consumer(js, config)
                puller = await Puller(nc, STREAM, CONSUMER, self.batch).start()
                try:
                    await self._pull(js, session, puller, stop)
                finally:
                    await puller.stop()
            except (TimeoutError, NatsError, JetStreamError, OSError) as error:
                log.warning("records consumer: %s; subscribing again", str(error) or type(error).__name__)
                await pause(stop, 0.5)

    async def _consumer(self, js: JetStreamContext, config: ConsumerConfig) -> None:
        """The records consumer, made if there is none. One of an earlier release, which wanted each
        message acknowledged, is made again to go on from its first message not acknowledged."""
        try:
            info = await js.consumer_info(STREAM, CONSUMER)
        except NotFoundError:
            await js.add_consumer(STREAM, config)
            self._covered = 0
            return
        if info.config.ack_policy != AckPolicy.ALL:  # the broker's answer is read as a plain string
            floor = (info.ack_floor.stream_seq or 0) if info.ack_floor is not None else 0
            await js.delete_consumer(STREAM, CONSUMER)
            await js.add_consumer(
                STREAM, replace(config, deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=floor + 1)
            )
            self._covered = 0

    async def _pull(self, js: JetStreamContext, session: Session, puller: Puller, stop: asyncio.Event) -> None:
        """Each batch is read and judged while the batches before it are written, and written once they
        are stored and acknowledged, so batches stay in stream order; the store's answers come meanwhile."""
        writes: collections.deque[asyncio.Task[None]] = collections.deque()  # each one awaits the one before
        try:
            while not stop.is_set():
                messages = await puller.fetch(timeout=1.0)
                while writes and writes[0].done():
                    await writes.popleft()  # what went wrong in it, at once
                if self.gaps.open:
                    await self.gaps.tick(session)
                if not messages:
                    if not writes and self._retry and time.monotonic() >= self._retry_at:
                        await self._read_early_again(js, session, {})
                    continue
                read = await Read().beside(messages)
                rooms = await self._rooms_of(messages)
                before = writes[-1] if writes else None
                planned, generation = await self._plan(session, messages, read, before)
                writes.append(
                    asyncio.create_task(
                        self._write(js, puller, session, messages, read, (planned, generation), rooms, before)
                    )
                )
                while len(writes) > WRITES_AHEAD:
                    await writes.popleft()
            while writes:
                await writes.popleft()
        finally:
            for write in writes:  # stopped, or the broker lost: what was not acknowledged is handed out again
                write.cancel()
            await asyncio.gather(*writes, return_exceptions=True)

    async def _plan(
        self, session: Session, messages: list[Delivery], read: Read, before: asyncio.Task[None] | None
    ) -> tuple[Plan, int]:
        """Judge a batch on what ingest knows; what it does not know yet (a journal it has not asked
        the store of, a witnessed seq's stored copy) is asked once the batches `before` it are written."""
        known, held = self._known, {}
        if known is None or known.lacks(read.parsed) or known.witnessed(read.parsed):
            if before is not None:
                await before
            async with session.transaction() as conn:
                known = self._known = await look_up(conn, self._known, read.parsed)
                held = await stored_copies(conn, known.witnessed(read.parsed), known.heads)
        for step in planning(known, read.parsed, held, lambda i: messages[i].stream_seq):
            if step is not None:
                return step, self._generation
            await asyncio.sleep(0)  # the writes before this batch go on meanwhile
        raise AssertionError("planning ends with its plan")

    async def _write(
        self,
        js: JetStreamContext,
        puller: Puller,
        session: Session,
        messages: list[Delivery],
        read: Read,
        planned: tuple[Plan, int],
        rooms: dict[str, str],
        before: asyncio.Task[None] | None,
    ) -> None:
        """A judged batch in one transaction once the batches before it are written, then acknowledged.
        A batch judged on what is no longer so is judged again (and so is every batch judged before
        that); a batch the store will not take as it is goes in as `_store` finds it can."""
        if before is not None:
            await before
        batch, generation = planned
        if generation != self._generation:
            self._forget()
            batch, _ = await self._plan(session, messages, read, None)
        try:
            async with session.lock:
                try:
                    outcome = await write_plan(session.conn, batch, rooms, read.refused, begin=True)
                except BaseException:
                    await rolled_back(session.conn)
                    raise
        except psycopg.OperationalError:
            self._forget()
            raise  # the lock's session is gone: this batch waits, unacknowledged, for whoever ingests next
        except psycopg.Error:
            verdicts = await self._store(session, messages, rooms)
        else:
            self.stored += outcome.stored
            verdicts = outcome.verdicts
        await self._acknowledge(js, puller, session, messages, verdicts)
        self._took(messages)

    def _took(self, messages: list[Delivery]) -> None:
        """At a head office, how far into each room's stream the written messages go (sourced in order)."""
        for msg in messages if self.rooms else []:
            room = room_of_source(msg.source, self.rooms)
            if room is not None:
                self.taken[room] = max(self.taken.get(room, 0), seq_of_source(msg.source))

    def _forget(self) -> None:
        """What ingest knew of the store is no longer so (written otherwise than planned, or lost)."""
        self._known = None
        self._generation += 1

    async def _acknowledge(
        self,
        js: JetStreamContext,
        puller: Puller,
        session: Session,
        messages: list[Delivery],
        verdicts: list[Verdict | None],
    ) -> None:
        """Acknowledge a written batch by its last message: the consumer takes that as every message
        it handed out up to it (AckPolicy ALL). So first, what the consumer handed to another pit
        service meanwhile (a gap in its deliveries: a pit that lost the ingest lock) is read again from
        the stream; and a record whose predecessor the store lacks has its journal read again from the
        stream (PIT.md §8), and if that did not help, again later (`_retry`) until it does."""
        early: dict[str, Behind] = {}
        for msg, verdict in zip(messages, verdicts, strict=False):
            if verdict is Verdict.EARLY:
                found = Behind(msg.subject, msg.stream_seq, msg.stream_seq, 1)
                early[msg.subject] = early[msg.subject].joined(found) if msg.subject in early else found
        moved = bool(self._retry) and any(
            msg.subject in self._retry
            for msg, verdict in zip(messages, verdicts, strict=False)
            if verdict is Verdict.STORE
        )
        if early or moved or (self._retry and time.monotonic() >= self._retry_at):
            await self._read_early_again(js, session, early)
        if await self._all_handed_here(js, session, messages):
            await puller.acknowledge_upto(messages[-1])

    async def _all_handed_here(self, js: JetStreamContext, session: Session, messages: list[Delivery]) -> bool:
        """Whether every delivery of the consumer up to `messages` came to this pit (its deliveries count
        on with no gap from `_covered`), or is stored after reading again from the stream what the store
        lacks up to what the consumer has handed out."""
        first, last = messages[0].delivery_seq, messages[-1].delivery_seq
        if first == self._covered + 1 and last - first + 1 == len(messages):
            self._covered = last
            return True
        for _ in range(2):
            after = [seq for seq in (msg.delivery_seq for msg in messages) if seq > self._covered]
            if after == list(range(self._covered + 1, self._covered + 1 + len(after))):
                self._covered = max(self._covered, last)
                return True
            log.warning(
                "the records consumer handed messages %d-%d to another; reading the stream again",
                self._covered + 1,
                after[-1],
            )
            self._covered = max(self._covered, await self._catch_up(js, session))
        return False  # handed out again once their wait is up

    async def _read_early_again(self, js: JetStreamContext, session: Session, early: dict[str, Behind]) -> None:
        """Read again the journals with records still early, from their witnessed heads up to them; those
        still early after are read again later."""
        heads = await self._witnessed(session)
        wanted = dict(self._retry)
        for subject, found in early.items():
            after = await catch_up.after_head(js, subject, heads.get(catch_up.journal_of_subject(subject)), found.upto)
            found = found.joined(after) if after is not None else found
            wanted[subject] = wanted[subject].joined(found) if subject in wanted else found
        await self._read_again(js, session, list(wanted.values()))

    async def _catch_up(self, js: JetStreamContext, session: Session) -> int:
        """Read again from the stream what the store lacks of every journal, up to what the records
        consumer has handed out; returns the consumer's count of deliveries then, every one of which
        is now stored (or refused)."""
        handed = await catch_up.handed_out(js, CONSUMER)
        heads = await self._witnessed(session)
        wanted = {behind.subject: behind for behind in await catch_up.behind(js, heads, handed.stream_seq)}
        for gap in self.gaps.open.values():  # a gap found before: read again whatever `behind` says of it
            subject = records_subject(gap.table_id, gap.journal)
            if subject not in wanted:
                found = await catch_up.after_head(js, subject, heads.get(gap.journal), handed.stream_seq)
                wanted[subject] = found or Behind(subject, handed.stream_seq + 1, handed.stream_seq, 0)
        await self._read_again(js, session, list(wanted.values()))
        return handed.delivery_seq

    async def _witnessed(self, session: Session) -> dict[str, catch_up.Witnessed]:
        async with session.lock:
            rows = await (
                await session.conn.execute(
                    "SELECT journal, head_seq, head_stream_seq, diverged_at IS NOT NULL FROM journals"
                )
            ).fetchall()
        return {
            journal: catch_up.Witnessed(int(seq), int(place), bool(diverged)) for journal, seq, place, diverged in rows
        }

    async def _read_again(self, js: JetStreamContext, session: Session, wanted: list[Behind]) -> None:
        """Store what the stream holds of these stretches of journals; those with a record still early
        are read again later (`_retry`) and are gaps until a read finds none (`gaps`)."""
        still: dict[str, Held] = {}
        for journal in wanted:
            before, held, held_from = self.stored, 0, 0
            if journal.most > 0:
                async for batch in catch_up.read(js, journal):
                    verdicts = await self._store(session, batch, await self._rooms_of(batch))
                    for msg, verdict in zip(batch, verdicts, strict=False):
                        if verdict is Verdict.EARLY:
                            held, held_from = held + 1, held_from or msg.stream_seq
            name = catch_up.journal_of_subject(journal.subject)
            if held:
                still[name] = Held(held, held_from, journal.upto)
                self._retry[journal.subject] = journal
            else:
                self._retry.pop(journal.subject, None)
            if self.stored > before:
                log.warning(
                    "%s: %d records the store lacked were read again from the stream",
                    journal.subject,
                    self.stored - before,
                )
        self._retry_at = time.monotonic() + RETRY_EARLY_S
        await self.gaps.found(
            session, {catch_up.journal_of_subject(b.subject): (b.subject.split(".")[2], b.upto) for b in wanted}, still
        )

    async def _rooms_of(self, messages: list[Delivery]) -> dict[str, str]:
        """At a head office, each journal's room: the room whose stream the message was sourced from, as
        its Nats-Stream-Source header names it (kept with the journal when its first record is stored)."""
        found: dict[str, str] = {}
        for msg in messages if self.rooms else []:
            room = room_of_source(msg.source, self.rooms)
            if room is not None:
                found[catch_up.journal_of_subject(msg.subject)] = room
        return found

    async def _store(
        self,
        session: Session,
        messages: list[Delivery],
        rooms: dict[str, str] | None = None,
        store_refused: str | None = None,
    ) -> list[Verdict | None]:
        """One batch in one transaction on the lock's session, judged on what the store holds now; a
        verdict per message (None: refused as it is); `rooms` names new journals' rooms at a head
        office. `store_refused` is why the store refused this message, alone, as it is."""
        self._forget()
        read = Read().of(messages, store_refused)
        try:
            async with session.transaction() as conn:
                outcome = await write_records(conn, read.parsed, lambda i: messages[i].stream_seq, rooms)
                await keep_refused(conn, read.refused)
        except psycopg.OperationalError:
            raise  # the lock's session is gone: this batch waits, unacknowledged, for whoever ingests next
        except psycopg.Error as error:  # something in the data the store will not take
            if store_refused is not None:
                raise
            if len(messages) > 1:  # find which, one message at a time, in order
                return [verdict for msg in messages for verdict in await self._store(session, [msg], rooms)]
            log.error("the store refused %s: %s; kept in refused_messages", messages[0].subject, error)
            return await self._store(session, messages, rooms, str(error).strip())
        self.stored += outcome.stored
        return outcome.verdicts


async def ingest_lag(js: JetStreamContext) -> int:
    """Messages of DA_RECORDS not yet stored: not yet handed to ingest, or handed and not yet acknowledged."""
    try:
        info = await js.consumer_info(STREAM, CONSUMER)
    except NotFoundError:
        try:
            return int((await js.stream_info(STREAM)).state.messages)
        except NotFoundError:
            return 0
    return int(info.num_pending or 0) + int(info.num_ack_pending or 0)

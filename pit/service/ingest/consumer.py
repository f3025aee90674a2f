"""The pit's ingest: records from the `DA_RECORDS` stream, and status messages, into PostgreSQL.

Exactly one pit service ingests at a time: the one holding the ingest lock (`lease`), and every
write of ingest goes through that lock's session. Records come from a durable pull consumer in
batches. Each batch is judged by the witness (`batch`) while the batches before it are written,
then written in one transaction (records by COPY, heads, derived rows and alerts in one statement
each), and acked only after that transaction commits, so a kill of the broker, the pit or the store
anywhere loses nothing and stores nothing twice: what was not acked is delivered again and is then
a duplicate, a no-op. One ack, of the batch's last message, acks every message handed out before
it. What the store lacks though it was acked (a promoted standby that missed the last commits), or
a record's predecessor that went to a pit that died, is read again from the stream, journal by
journal (`catch_up`).

Status messages (core NATS) update each table's live status; a clock raises what silence raises.
Every change is announced with NOTIFY `pit_changes` ("table:<id>" / "alert:<id>") in the same
transaction, so the dashboards of every pit service hear of it once it is stored.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from decimal import Decimal
from enum import StrEnum
from typing import Any

import psycopg
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.client import JetStreamContext
from nats.js.errors import Error as JetStreamError
from nats.js.errors import NotFoundError

from dealer_assist.journal.journal_file import RecordKind
from pit.service.floor import alerts as rules
from pit.service.ingest import catch_up, dealing_rows
from pit.service.store import lease
from pit.service.floor.alerts import AlertCause
from pit.service.ingest.batch import Known, Plan, plan, planning
from pit.service.ingest.catch_up import Behind
from pit.service.ingest.pull import Delivery, Puller
from pit.service.floor.round_facts import Correction, Fact, Header, RoundClose, RoundOpen, facts
from pit.service.ingest.witness import Head, Verdict
from pit.stream.broker import ensure_stream
from pit.stream.ingest_client import IngestClient
from pit.stream.wire import (
    STREAM, RecordMessage, StatusMessage, WireError, json_text, parse_record_message, parse_status_message,
)

CONSUMER = "pit-ingest"
BATCH = 1000
READ_SLICE = 50  # messages read between two looks at the store's answers
WRITES_AHEAD = 2  # batches judged and waiting to be written, or being written
ACK_WAIT_S = 10.0
RETRY_EARLY_S = 5.0  # a record still early after its journal was read again: read again this often
CHANNEL = "pit_changes"
HEALTH_EVERY_S = 1.0
HEALTH_TIMEOUT_S = 1.0
THRESHOLD = "SELECT value FROM settings WHERE name = 'payout_threshold'"
log = logging.getLogger("pit.ingest")


def table_change(table_id: str) -> str:
    return f"table:{table_id}"


@dataclass(slots=True)
class Outcome:
    """What a batch did: a verdict per message, the records stored, the alerts raised now."""

    verdicts: list[Verdict | None] = field(default_factory=list)  # None: a refused message
    stored: int = 0
    raised: list[AlertCause] = field(default_factory=list)


async def payout_threshold(conn: psycopg.AsyncConnection[Any]) -> Decimal:
    return _threshold(await (await conn.execute(THRESHOLD)).fetchone())


def _threshold(row: tuple[Any, ...] | None) -> Decimal:
    return Decimal(str(row[0])) if row is not None else rules.DEFAULT_PAYOUT_THRESHOLD


async def raise_alerts(conn: psycopg.AsyncConnection[Any], causes: Sequence[AlertCause]) -> list[AlertCause]:
    """Insert each cause not yet raised, and announce it, in one statement; returns those raised now."""
    return await _raised(await _raising(conn, causes), causes)


async def _raising(conn: psycopg.AsyncConnection[Any], causes: Sequence[AlertCause]
                   ) -> psycopg.AsyncCursor[Any] | None:
    """`raise_alerts`'s statement, sent (queued, in a pipeline); its answer is read by `_raised`."""
    if not causes:
        return None
    return await conn.execute(
        "WITH raised AS (INSERT INTO alerts (cause, kind, table_id, journal, round_id, seq, raised, text)"
        " SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::bigint[], %s::bigint[],"
        " %s::timestamptz[], %s::text[]) ON CONFLICT (cause) DO NOTHING RETURNING cause, table_id)"
        " SELECT cause, pg_notify(%s, 'alert:' || table_id) FROM raised",
        ([c.cause for c in causes], [c.kind.value for c in causes], [c.table_id for c in causes],
         [c.journal for c in causes], [c.round_id for c in causes], [c.seq for c in causes], [c.at for c in causes],
         [c.text for c in causes], CHANNEL))


async def _raised(cur: psycopg.AsyncCursor[Any] | None, causes: Sequence[AlertCause]) -> list[AlertCause]:
    if cur is None:
        return []
    now = {row[0] for row in await cur.fetchall()}
    return [cause for cause in causes if cause.cause in now]


async def notify(conn: psycopg.AsyncConnection[Any], payloads: set[str]) -> None:
    if payloads:
        await conn.execute("SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload", (CHANNEL, sorted(payloads)))


async def look_up(conn: psycopg.AsyncConnection[Any], known: Known | None,
                  messages: Sequence[RecordMessage | None]) -> Known:
    """`known` with what it lacks of these messages' journals read from the store: their heads and
    dealing watches, in one round trip."""
    if known is None:
        known = Known()
    missing = known.lacks(messages)
    if missing:
        async with conn.pipeline():
            heads = await conn.execute("SELECT journal, table_id, head_seq, head_hash, diverged_at FROM journals"
                                       " WHERE journal = ANY(%s) ORDER BY journal FOR UPDATE", (missing,))
            watches = await conn.execute(dealing_rows.WATCHES, (missing,))
        for journal, table_id, seq, digest, diverged_at in await heads.fetchall():
            known.heads[journal] = Head(table_id, seq, digest, diverged_at)
        known.watches.update(dealing_rows.restored(await watches.fetchall()))
        known.looked_up.update(missing)
    return known


async def write_records(conn: psycopg.AsyncConnection[Any], messages: Sequence[RecordMessage | None],
                        stream_seq: Callable[[int], int] | None = None, rooms: Mapping[str, str] | None = None
                        ) -> Outcome:
    """Judge and store one batch inside the caller's transaction (None: a refused message, skipped), on
    what the store holds now. `stream_seq(i)` is message i's place in this pit's stream (each journal's
    head keeps its own, for reading again from there); `rooms` names a new journal's room at a head
    office."""
    known = await look_up(conn, None, messages)
    held = await stored_copies(conn, known.witnessed(messages), known.heads)
    return await write_plan(conn, plan(known, messages, held, stream_seq), rooms or {})


async def write_plan(conn: psycopg.AsyncConnection[Any], planned: Plan, rooms: Mapping[str, str],
                     refused: Sequence[tuple[str, str, bytes]] = (), begin: bool = False) -> Outcome:
    """A judged batch into the store in three round trips: the new journals with the payout threshold set
    now; the records by COPY; what they tell, the heads, the alerts, the news and the messages refused
    as they are. Inside the caller's transaction, or with `begin` in one of its own, begun in the first
    round trip and committed in the last (`rolled_back` ends it when anything fails)."""
    async with conn.pipeline():
        if begin:
            await conn.execute("BEGIN")
        await _new_journals(conn, planned.told, rooms)
        asked = await conn.execute(THRESHOLD)
    await _copy_records(conn, planned.told)
    threshold = _threshold(await asked.fetchone())
    causes = [cause for message in planned.stored for cause in rules.record_alerts(message, threshold)]
    async with conn.pipeline():
        closed = await write_derived(conn, planned.told)
        await dealing_rows.write(conn, planned.dealing, sorted({m.journal for m in planned.stored}))
        await _move_heads(conn, planned.moving, planned.heads, closed, planned.places)
        raising = await _raising(conn, causes + planned.causes)
        await notify(conn, {table_change(m.table_id) for m in planned.stored})
        await _keep_refused(conn, refused)
        if begin:
            await conn.execute("COMMIT")
    return Outcome(planned.verdicts, len(planned.stored), await _raised(raising, causes + planned.causes))


async def rolled_back(conn: psycopg.AsyncConnection[Any]) -> None:
    """End a transaction `write_plan` began, after it failed (nothing to do when the session is gone)."""
    with contextlib.suppress(psycopg.Error):
        await conn.execute("ROLLBACK")


async def stored_copies(conn: psycopg.AsyncConnection[Any], messages: Sequence[RecordMessage],
                        heads: Mapping[str, Head]) -> dict[tuple[str, int], RecordMessage]:
    if not messages:
        return {}
    cur = await conn.execute(
        "SELECT r.journal, r.seq, r.wall, r.mono_ns, r.round_id, r.kind, r.body, r.hash FROM records r"
        " JOIN unnest(%s::text[], %s::bigint[]) AS wanted(journal, seq) USING (journal, seq)",
        ([m.journal for m in messages], [m.seq for m in messages]))
    return {(journal, seq): RecordMessage(heads[journal].table_id, journal, seq, wall, mono_ns, round_id,
                                          RecordKind(kind), body, digest)
            for journal, seq, wall, mono_ns, round_id, kind, body, digest in await cur.fetchall()}


async def _new_journals(conn: psycopg.AsyncConnection[Any], told: Sequence[tuple[RecordMessage, list[Fact]]],
                       rooms: Mapping[str, str]) -> None:
    """A journal's row, from its header record, before any of its records."""
    new = [(message.journal, message.table_id, json_text(fact.body), fact.profile_id, fact.profile_hash, fact.software,
            message.hash, rooms.get(message.journal)) for message, found in told for fact in found if isinstance(fact, Header)]
    if new:
        async with conn.cursor() as cur:
            await cur.executemany(
                "INSERT INTO journals (journal, table_id, header, profile_id, profile_hash, software, head_seq,"
                " head_hash, room) VALUES (%s, %s, %s, %s, %s, %s, 0, %s, %s)", new)


async def _copy_records(conn: psycopg.AsyncConnection[Any], told: Sequence[tuple[RecordMessage, list[Fact]]]) -> None:
    async with conn.cursor().copy("COPY records (journal, seq, wall, mono_ns, round_id, kind, body, hash)"
                                  " FROM STDIN") as copy:
        for m, _ in told:
            await copy.write_row((m.journal, m.seq, m.wall, m.mono_ns, m.round_id, m.kind.value, m.body, m.hash))


async def _keep_refused(conn: psycopg.AsyncConnection[Any], refused: Sequence[tuple[str, str, bytes]]) -> None:
    """Messages that are not what PIT.md §2 describes, each with why: kept as evidence, never stored."""
    for subject, why, data in refused:
        await conn.execute("INSERT INTO refused_messages (subject, error, data) VALUES (%s, %s, %s)", (subject, why, data))


async def _move_heads(conn: psycopg.AsyncConnection[Any], moving: list[str], heads: Mapping[str, Head],
                      closed: dict[str, int], places: dict[str, int]) -> None:
    if moving:
        await conn.execute(
            "UPDATE journals j SET head_seq = u.seq, head_hash = u.hash, diverged_at = u.diverged_at,"
            " rounds_closed = j.rounds_closed + u.closed, head_stream_seq = coalesce(u.place, j.head_stream_seq),"
            " last_record = CASE WHEN j.head_seq <> u.seq THEN now() ELSE j.last_record END"
            " FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::bigint[], %s::int[], %s::bigint[])"
            " AS u(journal, seq, hash, diverged_at, closed, place) WHERE j.journal = u.journal",
            (moving, [heads[j].seq for j in moving], [heads[j].hash for j in moving],
             [heads[j].diverged_at for j in moving], [closed.get(j, 0) for j in moving], [places.get(j) for j in moving]))


async def write_derived(conn: psycopg.AsyncConnection[Any], told: Sequence[tuple[RecordMessage, list[Fact]]]
                        ) -> dict[str, int]:
    """Rounds and corrections from stored records' facts, each kind in one pipelined statement (the
    rounds opened before those closed); returns the rounds closed per journal."""
    closed: dict[str, int] = {}
    opened: list[tuple[Any, ...]] = []
    closing: list[tuple[Any, ...]] = []
    corrected: list[tuple[Any, ...]] = []
    for message, found in told:
        for fact in found:
            if isinstance(fact, RoundOpen):
                opened.append((message.journal, fact.round_id, message.table_id, fact.wall))
            elif isinstance(fact, RoundClose):
                closed[message.journal] = closed.get(message.journal, 0) + 1
                closing.append((message.journal, fact.round_id, message.table_id, fact.wall, fact.wall,
                                rules.wall_time(fact.wall), fact.seq, fact.voided, fact.player_dealer_net,
                                fact.fees_players, fact.fees_player_dealer,
                                json_text(fact.ledger) if fact.ledger is not None else None, list(fact.dealers)))
            elif isinstance(fact, Correction):
                corrected.append((message.journal, message.seq, fact.position, message.table_id, fact.round_id,
                                  rules.wall_time(fact.wall), fact.type, fact.supervisor, fact.reason))
    async with conn.cursor() as cur:
        if opened:
            await cur.executemany("INSERT INTO rounds (journal, round_id, table_id, opened) VALUES (%s, %s, %s, %s)"
                                  " ON CONFLICT DO NOTHING", opened)
        if closing:
            await cur.executemany(
                "INSERT INTO rounds (journal, round_id, table_id, opened, closed, closed_at, close_seq, voided,"
                " player_dealer_net, fees_players, fees_player_dealer, ledger, dealers)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (journal, round_id) DO UPDATE"
                " SET closed = excluded.closed, closed_at = excluded.closed_at, close_seq = excluded.close_seq,"
                " voided = excluded.voided, player_dealer_net = excluded.player_dealer_net,"
                " fees_players = excluded.fees_players, fees_player_dealer = excluded.fees_player_dealer,"
                " ledger = excluded.ledger, dealers = excluded.dealers", closing)
        if corrected:
            await cur.executemany(
                "INSERT INTO corrections (journal, seq, position, table_id, round_id, at, type, supervisor, reason)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING", corrected)
    return closed


async def rebuild(conn: psycopg.AsyncConnection[Any], chunk: int = 5000) -> int:
    """The derived tables again from the stored records alone (rounds, corrections, rounds closed, who
    dealt and what the wager reader found), and any alert the records raise that is missing; inside
    the caller's transaction. Returns the records read. Alerts already raised stay as they are, with
    their acknowledgements."""
    await conn.execute("DELETE FROM corrections")
    await conn.execute("DELETE FROM rounds")
    await dealing_rows.forget(conn)
    threshold = await payout_threshold(conn)
    journals = await (await conn.execute("SELECT journal, table_id FROM journals ORDER BY journal")).fetchall()
    read = 0
    for journal, table_id in journals:
        closed, since = 0, 0
        while True:
            rows = await (await conn.execute(
                "SELECT seq, wall, mono_ns, round_id, kind, body, hash FROM records WHERE journal = %s AND seq > %s"
                " ORDER BY seq LIMIT %s", (journal, since, chunk))).fetchall()
            if not rows:
                break
            found = [RecordMessage(table_id, journal, seq, wall, mono_ns, round_id, RecordKind(kind), body, digest)
                     for seq, wall, mono_ns, round_id, kind, body, digest in rows]
            closed += sum((await write_derived(conn, [(m, facts(m)) for m in found])).values())
            await raise_alerts(conn, [cause for m in found for cause in rules.record_alerts(m, threshold)]
                               + await dealing_rows.follow(conn, found))
            since, read = found[-1].seq, read + len(found)
        await conn.execute("UPDATE journals SET rounds_closed = %s WHERE journal = %s", (closed, journal))
    return read


@dataclass(slots=True)
class LiveTable:
    status: StatusMessage
    received: float
    down_since: dict[str, float]


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
            self.of(messages[start:start + READ_SLICE])
            await asyncio.sleep(0)
        return self


class Role(StrEnum):
    INGEST = "ingest"  # holds the ingest lock: takes the records and status messages into the store
    STANDBY = "standby"  # serves the dashboard and the API; takes over when the lock comes free


@dataclass(frozen=True, slots=True)
class Health:
    """What `GET /api/health` answers (PIT.md §8)."""

    role: Role = Role.STANDBY
    broker: bool = False
    store: bool = False
    ingest_lag: int = 0  # messages of DA_RECORDS not yet stored (the last known while the broker is down)

    def as_json(self) -> dict[str, Any]:
        return {"role": self.role.value, "broker": "up" if self.broker else "down",
                "store": "up" if self.store else "down", "ingest_lag": self.ingest_lag}


class Session:
    """The ingest lock's session: every write of ingest goes through it, one transaction at a time,
    so that nothing is written by a pit that has lost the lock."""

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        async with self.lock:
            async with self.conn.transaction():
                yield self.conn


class Ingest:
    """Runs until `stop` is set: stands by until it holds the ingest lock, then runs the records
    consumer, the status listener and the clock on the lock's session until the lock is lost; and
    watches the broker and the store for `health` throughout."""

    def __init__(self, nats_url: str, dsn: str, seed: str, batch: int = BATCH, rooms: Sequence[str] = ()) -> None:
        self.nats_url = nats_url
        self.rooms = tuple(rooms)  # a head office's: the rooms whose streams its own sources
        self.dsn = dsn
        self.seed = seed
        self.batch = batch
        self.stored = 0  # records stored since start
        self._known: Known | None = None  # of the journals ingest has judged, as of the last batch planned
        self._generation = 0  # moves on each time `_known` is forgotten
        self.live: dict[str, LiveTable] = {}
        self.statuses: asyncio.Queue[tuple[str, bytes, float]] = asyncio.Queue()
        self._health = Health()
        self.known = asyncio.Event()  # health has been looked at once: what it says is so, not a default
        self._found_rooms: dict[str, str] = {}  # table id -> its room, at a head office
        self._nc: IngestClient | None = None
        self._covered = 0  # the records consumer's deliveries up to this count are stored, or this pit's to store
        self._retry: dict[str, Behind] = {}  # subject -> where records of it still early are in the stream
        self._retry_at = 0.0

    def health(self) -> Health:
        return self._health

    def _tell(self, **changes: Any) -> None:
        self._health = replace(self._health, **changes)

    async def run(self, stop: asyncio.Event) -> None:
        nc = self._nc = await self._connect(stop)
        if nc is None:
            return
        watching = asyncio.create_task(self._watch(nc, stop))
        try:
            while not stop.is_set():
                conn = await lease.acquire(self.dsn, stop)
                if conn is None:
                    break
                try:
                    await self._lead(nc, Session(conn), stop)
                except psycopg.OperationalError as error:
                    log.warning("the ingest lock's session ended (%s); standing by", str(error).strip())
                finally:
                    self._tell(role=Role.STANDBY)
                    await lease.quietly_close(conn)
        finally:
            watching.cancel()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(nc.close(), 2.0)

    async def _connect(self, stop: asyncio.Event) -> IngestClient | None:
        while not stop.is_set():
            nc = IngestClient()
            try:
                await nc.connect(servers=self.nats_url.split(","), nkeys_seed_str=self.seed, max_reconnect_attempts=-1,
                                 reconnect_time_wait=0.5,  # type: ignore[arg-type]  # a float: nats.py sleeps it
                                 connect_timeout=2, error_cb=_log_error, disconnected_cb=_disconnected)
                return nc
            except (NatsError, OSError) as error:
                log.warning("broker %s unreachable (%s); trying again", self.nats_url, error)
                self.known.set()  # the broker is down, as health says
                await _pause(stop, 1.0)
        return None

    async def _lead(self, nc: IngestClient, session: Session, stop: asyncio.Event) -> None:
        """Ingest while this pit holds the lock; returns at `stop`, raises OperationalError when the
        lock's session ends (and anything else that stops a part of ingest, loudly)."""
        log.info("this pit service holds the ingest lock: ingesting")
        self._forget()
        await self._load_live(session)
        self._tell(role=Role.INGEST)
        while not self.statuses.empty():
            self.statuses.get_nowait()
        listening = await nc.subscribe("da.status.>", cb=self._on_status)
        tasks = [asyncio.create_task(self._records(nc, session, stop)),
                 asyncio.create_task(self._status_loop(session, stop)),
                 asyncio.create_task(self._clock(session, stop)),
                 asyncio.create_task(self._keep(session, stop))]
        stopping = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait([stopping, *tasks], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in [stopping, *tasks]:
                task.cancel()
            with contextlib.suppress(Exception):
                await listening.unsubscribe()
        failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True)
                  if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]
        if failed and not stop.is_set():
            raise failed[0]

    async def _keep(self, session: Session, stop: asyncio.Event) -> None:
        """Ask the lock's session every second, so an idle pit finds out at once that it is gone."""
        while not stop.is_set():
            await _pause(stop, lease.TRY_EVERY_S)
            async with session.lock:
                await session.conn.execute("SELECT 1")

    async def _watch(self, nc: Client, stop: asyncio.Event) -> None:
        """Once a second, whatever the role: is the broker up, the store up, and how far behind is ingest."""
        js = nc.jetstream(timeout=HEALTH_TIMEOUT_S)
        probe: psycopg.AsyncConnection[Any] | None = None
        while not stop.is_set():
            lag = self._health.ingest_lag
            if nc.is_connected:
                with contextlib.suppress(NatsError, JetStreamError, asyncio.TimeoutError):
                    lag = await ingest_lag(js)
            try:
                if probe is None or probe.closed:
                    probe = await asyncio.wait_for(lease.connect(self.dsn), HEALTH_TIMEOUT_S * 3)
                await asyncio.wait_for(probe.execute("SELECT 1"), HEALTH_TIMEOUT_S)
                store = True
            except (psycopg.Error, asyncio.TimeoutError, OSError):
                store = False
                if probe is not None:
                    await lease.quietly_close(probe)
                    probe = None
            self._tell(broker=nc.is_connected, store=store, ingest_lag=lag)
            self.known.set()
            await _pause(stop, HEALTH_EVERY_S)
        if probe is not None:
            await lease.quietly_close(probe)

    # --- records ------------------------------------------------------------------------------------

    async def _records(self, nc: IngestClient, session: Session, stop: asyncio.Event) -> None:
        js = nc.jetstream(timeout=5)
        config = ConsumerConfig(durable_name=CONSUMER, ack_policy=AckPolicy.ALL, ack_wait=ACK_WAIT_S,
                                deliver_policy=DeliverPolicy.ALL, max_ack_pending=20 * self.batch,
                                max_waiting=16)
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
            except (NatsError, JetStreamError, OSError, asyncio.TimeoutError) as error:
                log.warning("records consumer: %s; subscribing again", str(error) or type(error).__name__)
                await _pause(stop, 0.5)

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
            await js.add_consumer(STREAM, replace(config, deliver_policy=DeliverPolicy.BY_START_SEQUENCE,
                                                  opt_start_seq=floor + 1))
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
                if not messages:
                    if not writes and self._retry and time.monotonic() >= self._retry_at:
                        await self._read_early_again(js, session, {})
                    continue
                read = await Read().beside(messages)
                rooms = await self._rooms_of(messages)
                before = writes[-1] if writes else None
                planned, generation = await self._plan(session, messages, read, before)
                writes.append(asyncio.create_task(self._write(js, puller, session, messages, read, (planned, generation),
                                                              rooms, before)))
                while len(writes) > WRITES_AHEAD:
                    await writes.popleft()
            while writes:
                await writes.popleft()
        finally:
            for write in writes:  # stopped, or the broker lost: what was not acknowledged is handed out again
                write.cancel()
            await asyncio.gather(*writes, return_exceptions=True)

    async def _plan(self, session: Session, messages: list[Delivery], read: Read,
                    before: asyncio.Task[None] | None) -> tuple[Plan, int]:
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

    async def _write(self, js: JetStreamContext, puller: Puller, session: Session, messages: list[Delivery], read: Read,
                     planned: tuple[Plan, int], rooms: dict[str, str], before: asyncio.Task[None] | None) -> None:
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

    def _forget(self) -> None:
        """What ingest knew of the store is no longer so (written otherwise than planned, or lost)."""
        self._known = None
        self._generation += 1

    async def _acknowledge(self, js: JetStreamContext, puller: Puller, session: Session, messages: list[Delivery],
                           verdicts: list[Verdict | None]) -> None:
        """Acknowledge a written batch by its last message: the consumer takes that as every message
        it handed out up to it (AckPolicy ALL). So first, what the consumer handed to another pit
        service meanwhile (a gap in its deliveries: a pit that lost the ingest lock) is read again from
        the stream; and a record whose predecessor the store lacks has its journal read again from the
        stream (PIT.md §8), and if that did not help, again later (`_retry`) until it does."""
        early: dict[str, Behind] = {}
        for msg, verdict in zip(messages, verdicts):
            if verdict is Verdict.EARLY:
                found = Behind(msg.subject, msg.stream_seq, msg.stream_seq, 1)
                early[msg.subject] = early[msg.subject].joined(found) if msg.subject in early else found
        moved = bool(self._retry) and any(msg.subject in self._retry for msg, verdict in zip(messages, verdicts)
                                    if verdict is Verdict.STORE)
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
            log.warning("the records consumer handed messages %d-%d to another; reading the stream again",
                        self._covered + 1, after[-1])
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
        self._retry = {behind.subject: behind for behind in await self._read_again(js, session, list(wanted.values()))}
        self._retry_at = time.monotonic() + RETRY_EARLY_S
        for subject in self._retry:
            log.warning("%s: records whose predecessor the stream has not given yet; reading again in %.0f s",
                        subject, RETRY_EARLY_S)

    async def _catch_up(self, js: JetStreamContext, session: Session) -> int:
        """Read again from the stream what the store lacks of every journal, up to what the records
        consumer has handed out; returns the consumer's count of deliveries then, every one of which
        is now stored (or refused)."""
        handed = await catch_up.handed_out(js, CONSUMER)
        wanted = await catch_up.behind(js, await self._witnessed(session), handed.stream_seq)
        await self._read_again(js, session, wanted)
        return handed.delivery_seq

    async def _witnessed(self, session: Session) -> dict[str, catch_up.Witnessed]:
        async with session.lock:
            rows = await (await session.conn.execute(
                "SELECT journal, head_seq, head_stream_seq, diverged_at IS NOT NULL FROM journals")).fetchall()
        return {journal: catch_up.Witnessed(int(seq), int(place), bool(diverged)) for journal, seq, place, diverged in rows}

    async def _read_again(self, js: JetStreamContext, session: Session, wanted: list[Behind]) -> list[Behind]:
        """Store what the stream holds of these stretches of journals; returns those with a record still early."""
        still: list[Behind] = []
        for journal in wanted:
            before, early = self.stored, False
            async for batch in catch_up.read(js, journal):
                verdicts = await self._store(session, batch, await self._rooms_of(batch))
                early = early or Verdict.EARLY in verdicts
            if early:
                still.append(journal)
            if self.stored > before:
                log.warning("%s: %d records the store lacked were read again from the stream", journal.subject,
                            self.stored - before)
        return still

    async def _rooms_of(self, messages: list[Delivery]) -> dict[str, str]:
        """At a head office, each journal's room: the room whose own stream holds its table's records,
        asked once per table through the room's JetStream domain."""
        found: dict[str, str] = {}
        nc = self._nc
        if not self.rooms or nc is None:
            return found
        for msg in messages:
            table_id = msg.subject.split(".")[2]
            if table_id not in self._found_rooms:
                for room in self.rooms:
                    try:
                        await nc.jetstream(domain=room, timeout=2.0).get_last_msg(STREAM, msg.subject)
                    except (NatsError, JetStreamError, asyncio.TimeoutError):  # not there, or the room is away
                        continue
                    self._found_rooms[table_id] = room
                    break
            if table_id in self._found_rooms:
                found[catch_up.journal_of_subject(msg.subject)] = self._found_rooms[table_id]
        return found

    async def _store(self, session: Session, messages: list[Delivery], rooms: dict[str, str] | None = None,
                     store_refused: str | None = None) -> list[Verdict | None]:
        """One batch in one transaction on the lock's session, judged on what the store holds now; a
        verdict per message (None: refused as it is); `rooms` names new journals' rooms at a head
        office. `store_refused` is why the store refused this message, alone, as it is."""
        self._forget()
        read = Read().of(messages, store_refused)
        try:
            async with session.transaction() as conn:
                outcome = await write_records(conn, read.parsed, lambda i: messages[i].stream_seq, rooms)
                await _keep_refused(conn, read.refused)
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

    # --- status ---------------------------------------------------------------------------------------

    async def _on_status(self, msg: Msg) -> None:
        self.statuses.put_nowait((msg.subject, msg.data, time.time()))

    async def _load_live(self, session: Session) -> None:
        async with session.lock:
            cur = await session.conn.execute("SELECT status, extract(epoch FROM received), down_since FROM table_status")
            rows = await cur.fetchall()
        for status, received, down_since in rows:
            message = parse_status_message(json.dumps(status).encode())
            self.live[message.table_id] = LiveTable(message, float(received), dict(down_since))

    async def _status_loop(self, session: Session, stop: asyncio.Event) -> None:
        while not stop.is_set():
            batch = [await self.statuses.get()]
            while not self.statuses.empty():
                batch.append(self.statuses.get_nowait())
            async with session.transaction() as conn:
                await self._write_statuses(conn, batch)

    async def _write_statuses(self, conn: psycopg.AsyncConnection[Any], batch: list[tuple[str, bytes, float]]) -> None:
        changes: set[str] = set()
        for subject, data, received in batch:
            try:
                status = parse_status_message(data)
                if status.subject != subject:
                    raise WireError(f"status message: subject {subject} is not the table's {status.subject}")
            except WireError as error:
                await _keep_refused(conn, [(subject, str(error), data)])
                continue
            previous = self.live.get(status.table_id)
            row = await (await conn.execute(
                "SELECT j.head_seq, j.head_hash, r.wall FROM journals j JOIN records r"
                " ON r.journal = j.journal AND r.seq = %s WHERE j.journal = %s",
                (status.last_seq + 1, status.journal))).fetchone()
            at = datetime.fromtimestamp(received, timezone.utc)
            causes = rules.status_alerts(previous.status if previous else None, status,
                                         rules.WitnessedPast(int(row[0]), str(row[1]), str(row[2])) if row else None, at)
            down = rules.links_down(previous.down_since if previous else {}, status.devices, received)
            await conn.execute(
                "INSERT INTO table_status (table_id, journal, status, received, down_since) VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (table_id) DO UPDATE SET journal = excluded.journal, status = excluded.status,"
                " received = excluded.received, down_since = excluded.down_since",
                (status.table_id, status.journal, status.encode().decode(), at, json.dumps(down)))
            self.live[status.table_id] = LiveTable(status, received, down)
            changed = previous is None or _shown(previous.status) != _shown(status) or previous.received < received - 15
            if changed:
                changes.add(table_change(status.table_id))
            await raise_alerts(conn, causes)
        await notify(conn, changes)

    async def _clock(self, session: Session, stop: asyncio.Event) -> None:
        """Once a second: a table silent for 15 s, a device link down for 10 s, counted from when this
        pit began to listen at the earliest (a status it could not hear was not the table's silence)."""
        listening = time.time()
        while not stop.is_set():
            await _pause(stop, 1.0)
            now = time.time()
            causes = []
            for table_id, live in self.live.items():
                causes += rules.timed_alerts(table_id, live.status.journal, live.status.round_id,
                                             max(live.received, listening), live.down_since, now)
            if causes:
                async with session.transaction() as conn:
                    raised = await raise_alerts(conn, causes)
                    await notify(conn, {table_change(c.table_id) for c in raised})


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


def _shown(status: StatusMessage) -> tuple[Any, ...]:
    """What the floor shows of a status: a change in any of it is a change of the table."""
    return (status.journal, status.profile, status.round_id, status.phase, json.dumps(status.player_dealer),
            json.dumps(status.devices, sort_keys=True), status.to_ship > 0, status.divergence)


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except asyncio.TimeoutError:
        pass


async def _log_error(error: Exception) -> None:
    log.warning("broker: %s", str(error) or type(error).__name__)


async def _disconnected() -> None:
    log.warning("broker link down; reconnecting")

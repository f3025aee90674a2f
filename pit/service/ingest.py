"""The pit's ingest: records from the `DA_RECORDS` stream, and status messages, into PostgreSQL.

Records come from a durable pull consumer in batches. Each batch is judged by the witness and
written in one transaction (records by COPY, heads, derived rows, alerts), and acked only after
that transaction commits, so a kill of the broker, the pit or the store anywhere loses nothing and
stores nothing twice: what was not acked is delivered again and is then a duplicate, a no-op. A
record whose predecessor has not arrived yet is handed back to the broker for later.

Status messages (core NATS) update each table's live status; a clock raises what silence raises.
Every change is announced with NOTIFY `pit_changes` ("table:<id>" / "alert:<id>") in the same
transaction, so the dashboard hears of it once it is stored.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import Decimal
from typing import Any

import nats
import psycopg
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.errors import Error as NatsError
from nats.errors import TimeoutError as NatsTimeout
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.errors import Error as JetStreamError
from psycopg_pool import AsyncConnectionPool

from dealer_assist.journal.journal_file import RecordKind
from pit.service import alerts as rules
from pit.service.alerts import AlertCause
from pit.service.round_facts import Correction, Fact, Header, RoundClose, RoundOpen, facts
from pit.service.witness import Head, Judgement, Verdict, judge, moved
from pit.stream.broker import ensure_stream
from pit.stream.wire import (
    STREAM, STREAM_SUBJECTS, RecordMessage, StatusMessage, WireError, parse_record_message, parse_status_message,
)

CONSUMER = "pit-ingest"
BATCH = 1000
ACK_WAIT_S = 10.0
CHANNEL = "pit_changes"
log = logging.getLogger("pit.ingest")


def table_change(table_id: str) -> str:
    return f"table:{table_id}"


def alert_change(table_id: str) -> str:
    return f"alert:{table_id}"


@dataclass(slots=True)
class Outcome:
    """What a batch did: a verdict per message, the records stored, the alerts raised now."""

    verdicts: list[Verdict | None] = field(default_factory=list)  # None: a refused message
    stored: int = 0
    raised: list[AlertCause] = field(default_factory=list)


async def payout_threshold(conn: psycopg.AsyncConnection[Any]) -> Decimal:
    row = await (await conn.execute("SELECT value FROM settings WHERE name = 'payout_threshold'")).fetchone()
    return Decimal(str(row[0])) if row is not None else rules.DEFAULT_PAYOUT_THRESHOLD


async def raise_alerts(conn: psycopg.AsyncConnection[Any], causes: Sequence[AlertCause]) -> list[AlertCause]:
    """Insert each cause not yet raised; returns those raised now."""
    raised = []
    for cause in causes:
        cur = await conn.execute(
            "INSERT INTO alerts (cause, kind, table_id, journal, round_id, seq, raised, text)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (cause) DO NOTHING RETURNING id",
            (cause.cause, cause.kind.value, cause.table_id, cause.journal, cause.round_id, cause.seq, cause.at,
             cause.text))
        if await cur.fetchone() is not None:
            raised.append(cause)
    return raised


async def notify(conn: psycopg.AsyncConnection[Any], payloads: set[str]) -> None:
    for payload in sorted(payloads):
        await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


async def write_records(conn: psycopg.AsyncConnection[Any], messages: Sequence[RecordMessage | None]) -> Outcome:
    """Judge and store one batch inside the caller's transaction (None: a refused message, skipped)."""
    outcome = Outcome()
    present = [m for m in messages if m is not None]
    journals = sorted({m.journal for m in present})
    heads: dict[str, Head] = {}
    cur = await conn.execute("SELECT journal, table_id, head_seq, head_hash, diverged_at FROM journals"
                             " WHERE journal = ANY(%s) FOR UPDATE", (journals,))
    for journal, table_id, seq, digest, diverged_at in await cur.fetchall():
        heads[journal] = Head(table_id, seq, digest, diverged_at)
    held = await _stored_copies(conn, [m for m in present if m.journal in heads and m.seq <= heads[m.journal].seq],
                                heads)
    threshold = await payout_threshold(conn)
    known = set(heads)
    stored: list[RecordMessage] = []
    causes: list[AlertCause] = []
    for message in messages:
        if message is None:
            outcome.verdicts.append(None)
            continue
        head = heads.get(message.journal) or Head(message.table_id)
        judgement: Judgement = judge(head, message, held.get((message.journal, message.seq)))
        heads[message.journal] = moved(head, message, judgement)
        outcome.verdicts.append(judgement.verdict)
        if judgement.verdict is Verdict.STORE:
            stored.append(message)
            held[(message.journal, message.seq)] = message
            causes += rules.record_alerts(message, threshold)
        elif judgement.verdict is Verdict.DIVERGED:
            causes.append(rules.divergence(message.table_id, message.journal, message.seq, message.round_id,
                                           judgement.text, datetime.now(timezone.utc)))
    await _store(conn, stored, known, heads)
    outcome.stored = len(stored)
    outcome.raised = await raise_alerts(conn, causes)
    await notify(conn, {table_change(m.table_id) for m in stored}
                 | {alert_change(cause.table_id) for cause in outcome.raised})
    return outcome


async def _stored_copies(conn: psycopg.AsyncConnection[Any], messages: Sequence[RecordMessage],
                         heads: dict[str, Head]) -> dict[tuple[str, int], RecordMessage]:
    if not messages:
        return {}
    cur = await conn.execute(
        "SELECT r.journal, r.seq, r.wall, r.mono_ns, r.round_id, r.kind, r.body, r.hash FROM records r"
        " JOIN unnest(%s::text[], %s::bigint[]) AS wanted(journal, seq) USING (journal, seq)",
        ([m.journal for m in messages], [m.seq for m in messages]))
    return {(journal, seq): RecordMessage(heads[journal].table_id, journal, seq, wall, mono_ns, round_id,
                                          RecordKind(kind), body, digest)
            for journal, seq, wall, mono_ns, round_id, kind, body, digest in await cur.fetchall()}


async def _store(conn: psycopg.AsyncConnection[Any], stored: Sequence[RecordMessage], known: set[str],
                 heads: dict[str, Head]) -> None:
    """The stored records, their journals' heads, and what they tell the derived tables."""
    told = [(message, facts(message)) for message in stored]
    for message, found in told:
        for fact in found:
            if isinstance(fact, Header):
                await conn.execute(
                    "INSERT INTO journals (journal, table_id, header, profile_id, profile_hash, software, head_seq,"
                    " head_hash) VALUES (%s, %s, %s, %s, %s, %s, 0, %s)",
                    (message.journal, message.table_id, json.dumps(fact.body), fact.profile_id, fact.profile_hash,
                     fact.software, message.hash))
                known.add(message.journal)
    async with conn.cursor().copy("COPY records (journal, seq, wall, mono_ns, round_id, kind, body, hash)"
                                  " FROM STDIN") as copy:
        for m in stored:
            await copy.write_row((m.journal, m.seq, m.wall, m.mono_ns, m.round_id, m.kind.value, m.body, m.hash))
    closed = await write_derived(conn, told)
    for journal in sorted(known):
        head = heads.get(journal)
        if head is None:
            continue
        await conn.execute("UPDATE journals SET head_seq = %s, head_hash = %s, diverged_at = %s,"
                           " rounds_closed = rounds_closed + %s,"
                           " last_record = CASE WHEN head_seq <> %s THEN now() ELSE last_record END WHERE journal = %s",
                           (head.seq, head.hash, head.diverged_at, closed.get(journal, 0), head.seq, journal))


async def write_derived(conn: psycopg.AsyncConnection[Any], told: Sequence[tuple[RecordMessage, list[Fact]]]
                        ) -> dict[str, int]:
    """Rounds and corrections from stored records' facts; returns the rounds closed per journal."""
    closed: dict[str, int] = {}
    for message, found in told:
        for fact in found:
            if isinstance(fact, RoundOpen):
                await conn.execute("INSERT INTO rounds (journal, round_id, table_id, opened) VALUES (%s, %s, %s, %s)"
                                   " ON CONFLICT DO NOTHING", (message.journal, fact.round_id, message.table_id,
                                                               fact.wall))
            elif isinstance(fact, RoundClose):
                closed[message.journal] = closed.get(message.journal, 0) + 1
                await conn.execute(
                    "INSERT INTO rounds (journal, round_id, table_id, opened, closed, closed_at, close_seq, voided,"
                    " player_dealer_net, fees_players, fees_player_dealer, ledger)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (journal, round_id) DO UPDATE"
                    " SET closed = excluded.closed, closed_at = excluded.closed_at, close_seq = excluded.close_seq,"
                    " voided = excluded.voided, player_dealer_net = excluded.player_dealer_net,"
                    " fees_players = excluded.fees_players, fees_player_dealer = excluded.fees_player_dealer,"
                    " ledger = excluded.ledger",
                    (message.journal, fact.round_id, message.table_id, fact.wall, fact.wall,
                     rules.wall_time(fact.wall), fact.seq, fact.voided, fact.player_dealer_net, fact.fees_players,
                     fact.fees_player_dealer, json.dumps(fact.ledger) if fact.ledger is not None else None))
            elif isinstance(fact, Correction):
                await conn.execute(
                    "INSERT INTO corrections (journal, seq, position, table_id, round_id, at, type, supervisor, reason)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    (message.journal, message.seq, fact.position, message.table_id, fact.round_id,
                     rules.wall_time(fact.wall), fact.type, fact.supervisor, fact.reason))
    return closed


async def rebuild(conn: psycopg.AsyncConnection[Any], chunk: int = 5000) -> int:
    """The derived tables again from the stored records alone (rounds, corrections, rounds closed),
    and any alert a record raises that is missing; inside the caller's transaction. Returns the
    records read. Alerts already raised stay as they are, with their acknowledgements."""
    await conn.execute("DELETE FROM corrections")
    await conn.execute("DELETE FROM rounds")
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
            await raise_alerts(conn, [cause for m in found for cause in rules.record_alerts(m, threshold)])
            since, read = found[-1].seq, read + len(found)
        await conn.execute("UPDATE journals SET rounds_closed = %s WHERE journal = %s", (closed, journal))
    return read


@dataclass(slots=True)
class LiveTable:
    status: StatusMessage
    received: float
    down_since: dict[str, float]


class Ingest:
    """Runs until `stop` is set: the records consumer, the status listener, the clock."""

    def __init__(self, nats_url: str, dsn: str, seed: str, batch: int = BATCH) -> None:
        self.nats_url = nats_url
        self.dsn = dsn
        self.seed = seed
        self.batch = batch
        self.stored = 0  # records stored since start
        self.started = time.time()
        self.live: dict[str, LiveTable] = {}
        self.statuses: asyncio.Queue[tuple[str, bytes, float]] = asyncio.Queue()

    async def run(self, stop: asyncio.Event) -> None:
        async with AsyncConnectionPool(self.dsn, min_size=1, max_size=3, open=False, timeout=2.0,
                                       check=AsyncConnectionPool.check_connection) as pool:
            nc = await self._connect(stop)
            if nc is None:
                return
            try:
                await self._load_live(pool)
                await nc.subscribe("da.status.>", cb=self._on_status)
                tasks = [asyncio.create_task(self._records(nc, pool, stop)),
                         asyncio.create_task(self._status_loop(pool, stop)),
                         asyncio.create_task(self._clock(pool, stop))]
                stopping = asyncio.create_task(stop.wait())
                await asyncio.wait([stopping, *tasks], return_when=asyncio.FIRST_COMPLETED)
                for task in [stopping, *tasks]:
                    task.cancel()
                failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True)
                          if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)]
                if failed and not stop.is_set():
                    raise failed[0]  # a part of ingest stopped: the service stops with it, loudly
            finally:
                await nc.close()

    async def _connect(self, stop: asyncio.Event) -> Client | None:
        while not stop.is_set():
            try:
                return await nats.connect(servers=self.nats_url.split(","), nkeys_seed_str=self.seed,
                                          max_reconnect_attempts=-1, reconnect_time_wait=0.5, connect_timeout=2,
                                          error_cb=_log_error, disconnected_cb=_disconnected)
            except (NatsError, OSError) as error:
                log.warning("broker %s unreachable (%s); trying again", self.nats_url, error)
                await _pause(stop, 1.0)
        return None

    # --- records ------------------------------------------------------------------------------------

    async def _records(self, nc: Client, pool: AsyncConnectionPool[Any], stop: asyncio.Event) -> None:
        js = nc.jetstream(timeout=5)
        config = ConsumerConfig(durable_name=CONSUMER, ack_policy=AckPolicy.EXPLICIT, ack_wait=ACK_WAIT_S,
                                deliver_policy=DeliverPolicy.ALL, max_ack_pending=20 * self.batch,
                                max_waiting=16)
        while not stop.is_set():
            try:
                await ensure_stream(js)
                sub = await js.pull_subscribe(STREAM_SUBJECTS, durable=CONSUMER, stream=STREAM, config=config)
                coming = asyncio.ensure_future(sub.fetch(self.batch, timeout=1.0))
                try:
                    while not stop.is_set():
                        try:
                            messages: list[Msg] = await coming
                        except NatsTimeout:
                            messages = []
                        # the next batch is on its way from the broker while this one is stored
                        coming = asyncio.ensure_future(sub.fetch(self.batch, timeout=1.0))
                        if messages:
                            await self._ingest(pool, messages, stop)
                finally:
                    coming.cancel()
            except (NatsError, JetStreamError, OSError, asyncio.TimeoutError) as error:
                log.warning("records consumer: %s; subscribing again", str(error) or type(error).__name__)
                await _pause(stop, 0.5)

    async def _ingest(self, pool: AsyncConnectionPool[Any], messages: list[Msg], stop: asyncio.Event,
                      store_refused: str | None = None) -> None:
        """One batch; `store_refused` is why the store refused this message, alone, as it is."""
        parsed: list[RecordMessage | None] = []
        refused: list[tuple[str, str, bytes]] = []
        for msg in messages:
            try:
                if store_refused is not None:
                    raise WireError(f"record message: the store refused it: {store_refused}")
                message = parse_record_message(msg.data)
                if message.subject != msg.subject:
                    raise WireError(f"record message: subject {msg.subject} is not the record's {message.subject}")
                parsed.append(message)
            except WireError as error:
                parsed.append(None)
                refused.append((msg.subject, str(error), msg.data))
        while True:
            try:
                async with pool.connection() as conn:
                    async with conn.transaction():
                        outcome = await write_records(conn, parsed)
                        for subject, why, data in refused:
                            await conn.execute("INSERT INTO refused_messages (subject, error, data) VALUES (%s, %s, %s)",
                                               (subject, why, data))
                break
            except psycopg.OperationalError as error:
                log.warning("store unreachable (%s); the batch waits, unacknowledged", error)
                if stop.is_set():
                    return
                await _pause(stop, 0.5)
            except psycopg.Error as error:  # something in the data the store will not take
                if store_refused is not None:
                    raise
                if len(messages) > 1:  # find which, one message at a time, in order
                    for msg in messages:
                        await self._ingest(pool, [msg], stop)
                    return
                log.error("the store refused %s: %s; kept in refused_messages", messages[0].subject, error)
                await self._ingest(pool, messages, stop, store_refused=str(error).strip())
                return
        self.stored += outcome.stored
        for msg, verdict in zip(messages, outcome.verdicts):
            if verdict is Verdict.EARLY:
                await msg.nak(delay=min(30.0, 0.5 * msg.metadata.num_delivered))
            else:
                await msg.ack()

    # --- status ---------------------------------------------------------------------------------------

    async def _on_status(self, msg: Msg) -> None:
        self.statuses.put_nowait((msg.subject, msg.data, time.time()))

    async def _load_live(self, pool: AsyncConnectionPool[Any]) -> None:
        while True:
            try:
                async with pool.connection() as conn:
                    cur = await conn.execute("SELECT status, extract(epoch FROM received), down_since FROM table_status")
                    for status, received, down_since in await cur.fetchall():
                        message = parse_status_message(json.dumps(status).encode())
                        self.live[message.table_id] = LiveTable(message, float(received), dict(down_since))
                return
            except psycopg.OperationalError as error:
                log.warning("store unreachable (%s); waiting for it", error)
                await asyncio.sleep(0.5)

    async def _status_loop(self, pool: AsyncConnectionPool[Any], stop: asyncio.Event) -> None:
        while not stop.is_set():
            batch = [await self.statuses.get()]
            while not self.statuses.empty():
                batch.append(self.statuses.get_nowait())
            while True:
                try:
                    async with pool.connection() as conn:
                        async with conn.transaction():
                            await self._write_statuses(conn, batch)
                    break
                except psycopg.OperationalError as error:
                    log.warning("store unreachable (%s); status waits", error)
                    await _pause(stop, 0.5)

    async def _write_statuses(self, conn: psycopg.AsyncConnection[Any], batch: list[tuple[str, bytes, float]]) -> None:
        changes: set[str] = set()
        for subject, data, received in batch:
            try:
                status = parse_status_message(data)
                if status.subject != subject:
                    raise WireError(f"status message: subject {subject} is not the table's {status.subject}")
            except WireError as error:
                await conn.execute("INSERT INTO refused_messages (subject, error, data) VALUES (%s, %s, %s)",
                                   (subject, str(error), data))
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
            changes |= {alert_change(cause.table_id) for cause in await raise_alerts(conn, causes)}
        await notify(conn, changes)

    async def _clock(self, pool: AsyncConnectionPool[Any], stop: asyncio.Event) -> None:
        """Once a second: a table silent for 15 s, a device link down for 10 s."""
        while not stop.is_set():
            await _pause(stop, 1.0)
            now = time.time()
            causes = []
            for table_id, live in self.live.items():
                causes += rules.timed_alerts(table_id, live.status.journal, live.status.round_id,
                                             max(live.received, self.started), live.down_since, now)
            if not causes:
                continue
            try:
                async with pool.connection() as conn:
                    async with conn.transaction():
                        raised = await raise_alerts(conn, causes)
                        await notify(conn, {alert_change(c.table_id) for c in raised}
                                     | {table_change(c.table_id) for c in raised})
            except psycopg.OperationalError as error:
                log.warning("store unreachable (%s); timed alerts wait", error)


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

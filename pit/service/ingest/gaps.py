"""Gaps: journals whose next record the pit lacks while later ones wait in the stream (PIT.md §2, §5).

A gap is kept in the store (`journal_gaps`) from when a read of its journal finds records still early
until one finds none: its first missing seq, how many records wait past it, and the stream position
of the first of them, which the journal's head's stream position never passes (`writes._move_heads`),
so a pit started again reads them from there. While a gap is open the pit asks the table for what
it lacks on `da.resend.<table_id>`, and once it has been open long enough raises one alert, which is
marked cleared when the gap fills (the alert itself stays open until someone acknowledges it).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

import psycopg
from nats.aio.client import Client
from nats.errors import Error as NatsError
from psycopg.rows import TupleRow

from pit.service.floor import alerts as rules
from pit.service.ingest.writes import notify, raise_alerts
from pit.service.store.changes import alert_change, table_change
from pit.service.store.lease import Session
from pit.stream.wire import ResendRequest, resend_subject

log = logging.getLogger("pit.ingest")


@dataclass(frozen=True, slots=True)
class GapTiming:
    """How often the pit asks a table to resend, and how long a gap stays open before its alert."""

    resend_every_s: float = 10.0
    alert_after_s: float = 60.0


@dataclass(frozen=True, slots=True)
class Held:
    """What a read of a journal's stretch left early: how many records, the first one's stream seq,
    and the stream seq the read went up to."""

    held: int
    held_from: int
    upto: int


@dataclass(slots=True)
class Gap:
    table_id: str
    journal: str
    missing_from: int
    held: int
    opened: float  # wall clock, seconds
    asked: float = 0.0  # monotonic clock of the last resend request
    alerted: bool = False


class Gaps:
    """The open gaps as the store keeps them, with the clocks of their resend requests and alerts."""

    def __init__(self, nc: Client, timing: GapTiming) -> None:
        self._nc = nc
        self.timing = timing
        self.open: dict[str, Gap] = {}  # journal -> its gap

    async def load(self, session: Session) -> None:
        """The gaps as stored: another pit, or this one before a restart, may have found them."""
        async with session.lock:
            rows = await (
                await session.conn.execute(
                    "SELECT journal, table_id, missing_from, held, extract(epoch FROM opened) FROM journal_gaps"
                )
            ).fetchall()
        self.open = {
            journal: Gap(table_id, journal, int(missing_from), int(held), float(opened))
            for journal, table_id, missing_from, held, opened in rows
        }

    async def found(self, session: Session, read: Mapping[str, tuple[str, int]], still: Mapping[str, Held]) -> None:
        """After reading again the journals `read` (journal -> its table id and the stream seq read up
        to): those in `still` are open from their witnessed head on, the others are filled. A gap whose
        first missing seq moved on is a new gap; the one before it is filled."""
        if not read:
            return
        async with session.transaction() as conn:
            heads = dict(
                await (
                    await conn.execute(
                        "SELECT journal, head_seq FROM journals WHERE journal = ANY(%s)", (sorted(read),)
                    )
                ).fetchall()
            )
            changed: set[str] = set()
            for journal, (table_id, upto) in sorted(read.items()):
                before = self.open.get(journal)
                held = still.get(journal)
                missing_from = int(heads.get(journal, 0)) + 1
                if before is not None and (held is None or before.missing_from != missing_from):
                    await self._filled(conn, before)
                    changed.add(table_id)
                if held is None:
                    await conn.execute(
                        "UPDATE journals SET head_stream_seq = GREATEST(head_stream_seq, %s) WHERE journal = %s",
                        (upto, journal),
                    )
                    continue
                if before is None or before.missing_from != missing_from:
                    self.open[journal] = Gap(table_id, journal, missing_from, held.held, time.time())
                    log.warning(
                        "%s journal %s: record %d missing, %d later records waiting; asking table %s to send again",
                        table_id,
                        journal,
                        missing_from,
                        held.held,
                        table_id,
                    )
                    changed.add(table_id)
                gap = self.open[journal]
                gap.held = held.held
                await conn.execute(
                    "INSERT INTO journal_gaps (journal, table_id, missing_from, held, held_from, opened)"
                    " VALUES (%s, %s, %s, %s, %s, to_timestamp(%s)) ON CONFLICT (journal) DO UPDATE"
                    " SET missing_from = excluded.missing_from, held = excluded.held, held_from = excluded.held_from,"
                    " opened = excluded.opened",
                    (journal, table_id, missing_from, held.held, held.held_from, gap.opened),
                )
                await conn.execute(
                    "UPDATE journals SET head_stream_seq = GREATEST(head_stream_seq, %s) WHERE journal = %s",
                    (held.held_from - 1, journal),
                )
            await notify(conn, {table_change(table_id) for table_id in changed})

    async def _filled(self, conn: psycopg.AsyncConnection[TupleRow], gap: Gap) -> None:
        """A gap filled: forgotten, and its alert, if raised, marked cleared."""
        del self.open[gap.journal]
        log.info(
            "%s journal %s: the records from %d are here; the gap is filled",
            gap.table_id,
            gap.journal,
            gap.missing_from,
        )
        await conn.execute("DELETE FROM journal_gaps WHERE journal = %s", (gap.journal,))
        cleared = await (
            await conn.execute(
                "INSERT INTO alerts_cleared (alert_id) SELECT id FROM alerts WHERE cause = %s ON CONFLICT DO NOTHING"
                " RETURNING alert_id",
                (rules.missing_cause(gap.journal, gap.missing_from),),
            )
        ).fetchall()
        if cleared:
            await notify(conn, {alert_change(gap.table_id)})

    async def tick(self, session: Session) -> None:
        """Ask again for what each gap lacks when it is time, and raise the alert of a gap open too long."""
        now, wall = time.monotonic(), time.time()
        causes = []
        for gap in self.open.values():
            if now - gap.asked >= self.timing.resend_every_s:
                gap.asked = now
                try:
                    await self._nc.publish(
                        resend_subject(gap.table_id), ResendRequest(gap.journal, gap.missing_from).to_json()
                    )
                except NatsError as error:  # the broker away: asked again at the next tick
                    log.warning("resend request for journal %s: %s", gap.journal, error)
            if not gap.alerted and wall - gap.opened >= self.timing.alert_after_s:
                gap.alerted = True
                causes.append(
                    rules.records_missing(gap.table_id, gap.journal, gap.missing_from, gap.held, datetime.now(UTC))
                )
        if causes:
            async with session.transaction() as conn:
                raised = await raise_alerts(conn, causes)
                await notify(conn, {table_change(cause.table_id) for cause in raised})

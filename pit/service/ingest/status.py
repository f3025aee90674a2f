"""The status listener: the tables' status messages (core NATS, `da.status.>`) into each table's live
status in the store, with the alerts a status raises; and the silence clock, which raises what a
silent table or a device link down too long raises.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import psycopg
from nats.aio.msg import Msg
from psycopg.rows import TupleRow

from pit.service.floor import alerts as rules
from pit.service.ingest.writes import keep_refused, notify, raise_alerts
from pit.service.store.changes import table_change
from pit.service.store.lease import Session, pause
from pit.stream.wire import StatusMessage, WireError, parse_status_message

SUBJECTS = "da.status.>"
CLOCK_EVERY_S = 1.0


@dataclass(slots=True)
class LiveTable:
    status: StatusMessage
    received: float
    down_since: dict[str, float]


class StatusListener:
    """Each table's last status as this pit heard it: status messages are queued as they are heard
    and written in batches on the ingest lock's session."""

    def __init__(self) -> None:
        self.live: dict[str, LiveTable] = {}
        self.statuses: asyncio.Queue[tuple[str, bytes, float]] = asyncio.Queue()

    async def heard(self, msg: Msg) -> None:
        self.statuses.put_nowait((msg.subject, msg.data, time.time()))

    async def load(self, session: Session) -> None:
        """The live status as stored, before listening on: what was heard before now is dropped."""
        while not self.statuses.empty():
            self.statuses.get_nowait()
        async with session.lock:
            cur = await session.conn.execute(
                "SELECT status, extract(epoch FROM received), down_since FROM table_status"
            )
            rows = await cur.fetchall()
        for status, received, down_since in rows:
            message = parse_status_message(json.dumps(status).encode())
            self.live[message.table_id] = LiveTable(message, float(received), dict(down_since))

    async def run(self, session: Session, stop: asyncio.Event) -> None:
        """Write what is heard, in batches, until `stop`."""
        while not stop.is_set():
            batch = [await self.statuses.get()]
            while not self.statuses.empty():
                batch.append(self.statuses.get_nowait())
            async with session.transaction() as conn:
                await self._write(conn, batch)

    async def _write(self, conn: psycopg.AsyncConnection[TupleRow], batch: list[tuple[str, bytes, float]]) -> None:
        changes: set[str] = set()
        for subject, data, received in batch:
            try:
                status = parse_status_message(data)
                if status.subject != subject:
                    raise WireError(f"status message: subject {subject} is not the table's {status.subject}")
            except WireError as error:
                await keep_refused(conn, [(subject, str(error), data)])
                continue
            previous = self.live.get(status.table_id)
            row = await (
                await conn.execute(
                    "SELECT j.head_seq, j.head_hash, r.wall FROM journals j JOIN records r"
                    " ON r.journal = j.journal AND r.seq = %s WHERE j.journal = %s",
                    (status.last_seq + 1, status.journal),
                )
            ).fetchone()
            at = datetime.fromtimestamp(received, UTC)
            causes = rules.status_alerts(
                previous.status if previous else None,
                status,
                rules.WitnessedPast(int(row[0]), str(row[1]), str(row[2])) if row else None,
                at,
            )
            down = rules.links_down(previous.down_since if previous else {}, status.devices, received)
            await conn.execute(
                "INSERT INTO table_status (table_id, journal, status, received, down_since) VALUES (%s, %s, %s, %s, %s)"
                " ON CONFLICT (table_id) DO UPDATE SET journal = excluded.journal, status = excluded.status,"
                " received = excluded.received, down_since = excluded.down_since",
                (status.table_id, status.journal, status.encode().decode(), at, json.dumps(down)),
            )
            self.live[status.table_id] = LiveTable(status, received, down)
            changed = previous is None or _shown(previous.status) != _shown(status) or previous.received < received - 15
            if changed:
                changes.add(table_change(status.table_id))
            await raise_alerts(conn, causes)
        await notify(conn, changes)

    async def clock(self, session: Session, stop: asyncio.Event) -> None:
        """Once a second: a table silent for 15 s, a device link down for 10 s, counted from when this
        pit began to listen at the earliest (a status it could not hear was not the table's silence)."""
        listening = time.time()
        while not stop.is_set():
            await pause(stop, CLOCK_EVERY_S)
            now = time.time()
            causes = []
            for table_id, live in self.live.items():
                causes += rules.timed_alerts(
                    table_id,
                    live.status.journal,
                    live.status.round_id,
                    max(live.received, listening),
                    live.down_since,
                    now,
                )
            if causes:
                async with session.transaction() as conn:
                    raised = await raise_alerts(conn, causes)
                    await notify(conn, {table_change(c.table_id) for c in raised})


def _shown(status: StatusMessage) -> tuple[Any, ...]:
    """What the floor shows of a status: a change in any of it is a change of the table."""
    return (
        status.journal,
        status.profile,
        status.round_id,
        status.phase,
        json.dumps(status.player_dealer),
        json.dumps(status.devices, sort_keys=True),
        status.to_ship > 0,
        status.divergence,
        status.cannot_store is not None,
    )

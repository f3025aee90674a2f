"""The pit's ingest: records from the `DA_RECORDS` stream, and status messages, into PostgreSQL.

Exactly one pit service ingests at a time: the one holding the ingest lock (`lease`), and every
write of ingest goes through that lock's session. While it holds it, it runs the records consumer
(`consumer`), the status listener and its silence clock (`status`); whatever its role, it watches
the broker and the store for `GET /api/health`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

import psycopg
from nats.aio.client import Client
from nats.errors import Error as NatsError
from nats.js.errors import Error as JetStreamError
from psycopg.rows import TupleRow

from pit.service.ingest.consumer import BATCH, RecordsConsumer, ingest_lag
from pit.service.ingest.gaps import GapTiming
from pit.service.ingest.sourcing import RoomBehind, Sourcing, keep, kept, written
from pit.service.ingest.status import SUBJECTS, StatusListener
from pit.service.log.keeper import LogKeeper
from pit.service.store import lease
from pit.service.store.lease import Session, pause
from pit.stream.ingest_client import IngestClient

__all__ = ["Ingest"]

HEALTH_EVERY_S = 1.0
HEALTH_TIMEOUT_S = 1.0
log = logging.getLogger("pit.ingest")


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
    rooms: dict[str, RoomBehind] = field(default_factory=dict)  # a head office's: how far behind each room

    def as_json(self) -> dict[str, Any]:
        told: dict[str, Any] = {
            "role": self.role.value,
            "broker": "up" if self.broker else "down",
            "store": "up" if self.store else "down",
            "ingest_lag": self.ingest_lag,
        }
        if self.rooms:
            told["rooms"] = {room: behind.as_json() for room, behind in sorted(self.rooms.items())}
        return told


class Ingest:
    """Runs until `stop` is set: stands by until it holds the ingest lock, then runs the records
    consumer, the status listener and the clock on the lock's session until the lock is lost; and
    watches the broker and the store for `health` throughout."""

    def __init__(
        self,
        nats_url: str,
        dsn: str,
        seed: str,
        batch: int = BATCH,
        rooms: Sequence[str] = (),
        gap_timing: GapTiming = GapTiming(),
        log: LogKeeper | None = None,
    ) -> None:
        self.log = log  # the room's public log, kept while this pit ingests (PIT.md §9)
        self.nats_url = nats_url
        self.rooms = tuple(rooms)  # a head office's: the rooms whose streams its own sources
        self.dsn = dsn
        self.seed = seed
        self.batch = batch
        self.gap_timing = gap_timing  # how often to ask for a gap's records, how long before its alert
        self.status = StatusListener()
        self.sourcing = Sourcing(self.rooms)
        self.records: RecordsConsumer | None = None
        self._health = Health()
        self.known = asyncio.Event()  # health has been looked at once: what it says is so, not a default

    def health(self) -> Health:
        return self._health

    def _tell(self, **changes: Any) -> None:
        self._health = replace(self._health, **changes)

    async def run(self, stop: asyncio.Event) -> None:
        nc = await self._connect(stop)
        if nc is None:
            return
        records = self.records = RecordsConsumer(nc, self.batch, self.rooms, self.gap_timing)
        watching = asyncio.create_task(self._watch(nc, stop))
        try:
            while not stop.is_set():
                conn = await lease.acquire(self.dsn, stop)
                if conn is None:
                    break
                try:
                    await self._lead(nc, records, Session(conn), stop)
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
                await nc.connect(
                    servers=self.nats_url.split(","),
                    nkeys_seed_str=self.seed,
                    max_reconnect_attempts=-1,
                    reconnect_time_wait=0.5,  # type: ignore[arg-type]  # a float: nats.py sleeps it
                    connect_timeout=2,
                    error_cb=_log_error,
                    disconnected_cb=_disconnected,
                )
                return nc
            except (NatsError, OSError) as error:
                log.warning("broker %s unreachable (%s); trying again", self.nats_url, error)
                self.known.set()  # the broker is down, as health says
                await pause(stop, 1.0)
        return None

    async def _lead(self, nc: IngestClient, records: RecordsConsumer, session: Session, stop: asyncio.Event) -> None:
        """Ingest while this pit holds the lock; returns at `stop`, raises OperationalError when the
        lock's session ends (and anything else that stops a part of ingest, loudly)."""
        log.info("this pit service holds the ingest lock: ingesting")
        await self.status.load(session)
        if self.rooms:
            async with session.transaction() as conn:
                for room, seq in (await written(conn)).items():
                    records.taken[room] = max(records.taken.get(room, 0), seq)
        self._tell(role=Role.INGEST)
        listening = await nc.subscribe(SUBJECTS, cb=self.status.heard)
        tasks = [
            asyncio.create_task(records.run(session, stop)),
            asyncio.create_task(self.status.run(session, stop)),
            asyncio.create_task(self.status.clock(session, stop)),
            asyncio.create_task(self._keep(session, stop)),
            *([asyncio.create_task(self.log.run(session, stop))] if self.log is not None else []),
        ]
        if self.rooms:
            tasks.append(asyncio.create_task(self._keep_rooms(session, stop)))
        stopping = asyncio.create_task(stop.wait())
        try:
            await asyncio.wait([stopping, *tasks], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in [stopping, *tasks]:
                task.cancel()
            with contextlib.suppress(Exception):
                await listening.unsubscribe()
        failed = [
            r
            for r in await asyncio.gather(*tasks, return_exceptions=True)
            if isinstance(r, Exception) and not isinstance(r, asyncio.CancelledError)
        ]
        if failed and not stop.is_set():
            raise failed[0]

    async def _keep(self, session: Session, stop: asyncio.Event) -> None:
        """Ask the lock's session every second, so an idle pit finds out at once that it is gone."""
        while not stop.is_set():
            await pause(stop, lease.TRY_EVERY_S)
            async with session.lock:
                await session.conn.execute("SELECT 1")

    async def _keep_rooms(self, session: Session, stop: asyncio.Event) -> None:
        """At a head office, each room's sourcing into the store (the floor's tiles, the alert), each second."""
        while not stop.is_set():
            if self._health.rooms:
                async with session.transaction() as conn:
                    await keep(conn, self._health.rooms, self.records.taken if self.records else {})
            await pause(stop, HEALTH_EVERY_S)

    async def _watch(self, nc: Client, stop: asyncio.Event) -> None:
        """Once a second, whatever the role: is the broker up, the store up, and how far behind is ingest."""
        js = nc.jetstream(timeout=HEALTH_TIMEOUT_S)
        probe: psycopg.AsyncConnection[TupleRow] | None = None
        while not stop.is_set():
            lag, rooms = self._health.ingest_lag, self._health.rooms
            if nc.is_connected:
                with contextlib.suppress(NatsError, JetStreamError, asyncio.TimeoutError):
                    lag = await ingest_lag(js)
                if self.rooms and self.records is not None and self._health.role is Role.INGEST:
                    rooms = await self.sourcing.look(nc, HEALTH_TIMEOUT_S, self.records.taken)
            try:
                if probe is None or probe.closed:
                    probe = await asyncio.wait_for(lease.connect(self.dsn), HEALTH_TIMEOUT_S * 3)
                await asyncio.wait_for(probe.execute("SELECT 1"), HEALTH_TIMEOUT_S)
                if self.rooms and self._health.role is Role.STANDBY:  # as the ingesting pit last kept it
                    rooms = await asyncio.wait_for(kept(probe), HEALTH_TIMEOUT_S)
                store = True
            except (TimeoutError, psycopg.Error, OSError):
                store = False
                if probe is not None:
                    await lease.quietly_close(probe)
                    probe = None
            self._tell(broker=nc.is_connected, store=store, ingest_lag=lag, rooms=rooms)
            self.known.set()
            await pause(stop, HEALTH_EVERY_S)
        if probe is not None:
            await lease.quietly_close(probe)


async def _log_error(error: Exception) -> None:
    log.warning("broker: %s", str(error) or type(error).__name__)


async def _disconnected() -> None:
    log.warning("broker link down; reconnecting")

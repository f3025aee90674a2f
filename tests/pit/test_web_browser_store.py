"""The browser walk on the real stack: eight bench tables ship their records and status messages
through a real nats-server; the pit's ingest stores them in a real PostgreSQL and raises its alerts;
the dashboard reads the store. Its screenshots of the floor, a table, the alerts and a report are
copied into the folder named by SCREENSHOTS (docs/screens) when it is set: every figure on them
comes from the same records."""

from __future__ import annotations

import asyncio
import threading
import time
from decimal import Decimal
from pathlib import Path

import nats
import pytest
from web_bench import PASSWORDS, bench_tables, more_tables, play
from web_browser import walk

from dealer_assist.journal.journal_file import read_records
from dealer_assist.table.journaled_table import Table
from pit.service.floor.data import Role
from pit.service.store.pit_store import PitStore
from pit.stream.broker import ensure_stream
from pit.stream.wire import RecordMessage, StatusMessage, journal_identity
from pit.trial.local_services import NatsServer, PostgresCluster
from tests.pit.pit_service import fresh_database, running_ingest, wait_for

pytestmark = pytest.mark.slow
ROLES = {"sue": Role.SUPERVISOR, "sam": Role.SURVEILLANCE, "meg": Role.MANAGER}


class TableSide:
    """What the tables' shippers do, on one event loop in a thread: records into the stream, and a
    status message for each table every second (and at once after a change)."""

    def __init__(self, url: str, tables: dict[str, Table]) -> None:
        self.url, self.tables = url, tables
        self.shipped = {table_id: 0 for table_id in tables}
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._call(self._connect())
        self.ticking = asyncio.run_coroutine_threadsafe(self._tick(), self.loop)

    def _call(self, coroutine):  # type: ignore[no-untyped-def]
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(20)

    async def _connect(self) -> None:
        self.nc = await nats.connect(self.url)
        self.js = self.nc.jetstream()
        await ensure_stream(self.js)

    def status(self, table_id: str) -> StatusMessage:
        table = self.tables[table_id]
        records = list(read_records(table.path))
        s = table.session.s
        tracker = table.session.tracker
        phase = "betting" if tracker is None else tracker.phase.value
        banker = None if s.pd_seat is None else {"seat": s.pd_seat, "bank": s.pd_bank / 100, "turn": s.pd_turn}
        return StatusMessage(
            table_id,
            journal_identity(records[0]),
            table.session.profile.id,
            s.round_id,
            phase,
            banker,
            {"shoe": "up", "peek": "up"},
            records[-1].seq,
            0,
        )

    def ship(self, table_id: str) -> None:
        self._call(self._ship(table_id))

    async def _ship(self, table_id: str) -> None:
        records = list(read_records(self.tables[table_id].path, self.shipped[table_id]))
        journal = journal_identity(next(read_records(self.tables[table_id].path)))
        for record in records:
            message = RecordMessage.of(table_id, journal, record)
            await self.js.publish(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
        self.shipped[table_id] += len(records)
        status = self.status(table_id)
        await self.nc.publish(status.subject, status.encode())
        await self.nc.flush()

    async def _tick(self) -> None:
        while True:
            for table_id in self.tables:
                status = self.status(table_id)
                await self.nc.publish(status.subject, status.encode())
            await asyncio.sleep(1.0)

    def close(self) -> None:
        self.ticking.cancel()
        self._call(self.nc.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def test_the_dashboard_in_a_browser_on_the_real_store(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    store.set_payout_threshold(Decimal(500))  # a few bench rounds pay that much: there are alerts to acknowledge
    for name, role in ROLES.items():
        store.add_user(name, role, PASSWORDS[name])
    tables = bench_tables(tmp_path) | more_tables(tmp_path)
    side = TableSide(nats_server.url, tables)
    try:
        with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
            for table_id in tables:
                side.ship(table_id)
            wait_for(
                lambda: all(tile["link"] == "live" for tile in store.tables()) and len(store.tables()) == len(tables),
                what="every table live",
            )
            wait_for(lambda: store.alerts(state="open"), what="an open alert")

            def close_a_round() -> float:
                play(tables["T-1"], 1, 11)
                closed_at = time.monotonic()
                side.ship("T-1")
                return closed_at

            walk(store, close_a_round, tmp_path)
    finally:
        side.close()
        for table in tables.values():
            table.close()
        store.close()

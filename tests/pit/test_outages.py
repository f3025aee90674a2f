"""Nothing lost, nothing doubled (PIT.md §7): several bench tables shipping while the broker, the
pit service or PostgreSQL goes down and comes back; every journal ends in the store exactly once
and each witnessed head equals its journal's head."""
from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pit.local_services import NatsServer, PostgresCluster, free_port
from pit.store import PitStore
from pit.wire import RecordMessage
from tests.pit.journals import bench_journal, head, messages, ship_steadily
from tests.pit.pit_service import fresh_database, running_ingest, stored_counts, wait_for

pytestmark = pytest.mark.slow
TABLES = ("A1", "B2", "C3")


def _journals(tmp_path: Path) -> dict[str, list[RecordMessage]]:
    return {table: messages(bench_journal(tmp_path / f"{table}.db", 8, n + 20, table), table)
            for n, table in enumerate(TABLES)}


def _shipping(url: str, shipped: dict[str, list[RecordMessage]], seeds: dict[str, str] | None = None) -> threading.Thread:
    async def all_tables() -> None:
        await asyncio.gather(*(ship_steadily(url, found, 0.006, (seeds or {}).get(table))
                               for table, found in shipped.items()))
    thread = threading.Thread(target=asyncio.run, args=(all_tables(),), daemon=True)
    thread.start()
    return thread


def _under_way(store: PitStore, shipped: dict[str, list[RecordMessage]]) -> None:
    """Waits until ingest has stored some records, but far from all of them."""
    stored = wait_for(lambda: sum(n for n, _, _ in stored_counts(store).values()) > 100 and stored_counts(store),
                      what="ingest under way")
    assert sum(n for n, _, _ in stored.values()) < sum(len(found) for found in shipped.values()) - 100


def _exactly_once(store: PitStore, shipped: dict[str, list[RecordMessage]], tmp_path: Path) -> None:
    expected = {found[0].journal: (len(found),) * 3 for found in shipped.values()}
    wait_for(lambda: stored_counts(store) == expected, timeout=60, what="every record exactly once")
    for table, found in shipped.items():
        last = head(tmp_path / f"{table}.db")
        assert store.witness(found[0].journal)["head"] == last.hash.hex() == found[-1].hash
    assert [a for a in store.alerts() if a["kind"] == "divergence"] == []


def _outage(tmp_path: Path, postgres: PostgresCluster, broker: NatsServer, outage: Callable[[], None]) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.open(dsn)
    shipped = _journals(tmp_path)
    with running_ingest(broker.url, dsn, store.pit_identity().seed):
        shipper = _shipping(broker.url, shipped)
        _under_way(store, shipped)
        outage()
        shipper.join(timeout=60)
        assert not shipper.is_alive()
        _exactly_once(store, shipped, tmp_path)
    store.close()


def test_the_broker_killed_and_restarted(tmp_path: Path, postgres: PostgresCluster) -> None:
    broker = NatsServer(tmp_path / "nats", free_port()).start()

    def kill_and_restart() -> None:
        broker.kill()
        time.sleep(1.5)
        broker.start()
    try:
        _outage(tmp_path, postgres, broker, kill_and_restart)
    finally:
        broker.stop()


def test_postgresql_restarted_and_killed(tmp_path: Path, postgres: PostgresCluster, nats_server: NatsServer) -> None:
    def restart_then_crash() -> None:
        postgres.restart()
        time.sleep(0.3)
        postgres.kill()
        time.sleep(0.5)
        postgres.start()
    _outage(tmp_path, postgres, nats_server, restart_then_crash)


def _pit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", "pit", *args], capture_output=True, text=True, timeout=60,
                          cwd=Path(__file__).parents[2])


def test_the_pit_service_killed_and_restarted_on_the_rooms_own_broker(tmp_path: Path, postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    assert _pit("init", "--db", dsn).returncode == 0
    seeds = {}
    for table in TABLES:
        added = _pit("table", "add", table, "--db", dsn)
        assert added.returncode == 0, added.stderr
        seeds[table] = added.stdout.strip()
    port = free_port()
    config = _pit("nats-config", "--db", dsn, "--port", str(port), "--store", str(tmp_path / "js"), "--host", "127.0.0.1")
    broker = NatsServer(tmp_path / "nats", port, config.stdout).start()
    store = PitStore.open(dsn)
    shipped = _journals(tmp_path)
    command = [sys.executable, "-m", "ui.cli", "pit", "serve", "--nats", broker.url, "--db", dsn,
               "--http", f"127.0.0.1:{free_port()}"]
    log = open(tmp_path / "pit.log", "ab")
    serve = subprocess.Popen(command, stdout=log, stderr=log, cwd=Path(__file__).parents[2])
    try:
        shipper = _shipping(broker.url, shipped, seeds)
        _under_way(store, shipped)
        serve.kill()
        serve.wait()
        time.sleep(1.0)
        serve = subprocess.Popen(command, stdout=log, stderr=log, cwd=Path(__file__).parents[2])
        shipper.join(timeout=60)
        assert not shipper.is_alive()
        _exactly_once(store, shipped, tmp_path)
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=20) == 0
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
        log.close()
        broker.stop()
        store.close()

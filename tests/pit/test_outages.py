"""Nothing lost, nothing doubled (PIT.md §7): several bench tables shipping while the broker, the
pit service or PostgreSQL goes down and comes back; every journal ends in the store exactly once
and each witnessed head equals its journal's head."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pit.service.store.pit_store import PitStore
from pit.trial.local_services import NatsServer, PostgresCluster, free_port
from tests.pit.dealing import Tables, exactly_once, under_way
from tests.pit.pit_service import ROOT, fresh_database, rooms_broker, running_ingest, serve_command, stored

pytestmark = pytest.mark.slow
TABLES = ("A1", "B2", "C3")


def dealt_through(store: PitStore, tables: Tables) -> None:
    """The tables dealt on through the outage, and the pit stores again what they deal: then they stop."""
    under_way(store, tables, stored(store) + 100)
    tables.stop()


def _outage(tmp_path: Path, postgres: PostgresCluster, broker: NatsServer, outage: Callable[[], None]) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    with running_ingest(broker.url, dsn, store.pit_identity().seed):
        tables = Tables(tmp_path, TABLES).start(broker.url)
        try:
            under_way(store, tables)
            outage()
            dealt_through(store, tables)
        finally:
            tables.kill()
        exactly_once(store, tables)
        assert [a for a in store.alerts() if a["kind"] == "divergence"] == []
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


def test_the_pit_service_killed_and_restarted_on_the_rooms_own_broker(
    tmp_path: Path, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    broker, creds = rooms_broker(dsn, tmp_path, TABLES)
    seeds = {table: path.read_text() for table, path in creds.items()}
    store = PitStore.open(dsn)
    command = serve_command(broker.url, dsn, f"127.0.0.1:{free_port()}")
    log = open(tmp_path / "pit.log", "ab")
    serve = subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT)
    tables = Tables(tmp_path, TABLES)
    try:
        tables.start(broker.url, seeds)
        under_way(store, tables)
        serve.kill()
        serve.wait()
        time.sleep(1.0)
        serve = subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT)
        dealt_through(store, tables)
        exactly_once(store, tables)
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=20) == 0
    finally:
        tables.kill()
        if serve.poll() is None:
            serve.kill()
            serve.wait()
        log.close()
        broker.stop()
        store.close()

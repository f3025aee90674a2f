"""Nothing lost, nothing doubled (PIT.md §7): several bench tables shipping while the broker, the
pit service or PostgreSQL goes down and comes back; every journal ends in the store exactly once
and each witnessed head equals its journal's head."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pit.stream.broker import Identity
from pit.trial.local_services import NatsServer, PostgresCluster, free_port
from pit.service.store import PitStore
from tests.pit.journals import head, messages
from tests.pit.pit_service import (ROOT, fresh_database, rooms_broker, running_ingest, serve_command,
                                   stored_counts, wait_for)

pytestmark = pytest.mark.slow
TABLES = ("A1", "B2", "C3")


ROUNDS = 12
PACE_S = 0.01


def _bench(url: str, tmp_path: Path, table: str, seed: int, creds: str) -> subprocess.Popen[bytes]:
    """A table dealing while it ships, through the product's own `bench --pit`."""
    command = [sys.executable, "-m", "ui.cli", "bench", "--rounds", str(ROUNDS), "--seed", str(seed),
               "--journal", str(tmp_path / f"{table}.db"), "--table-id", table, "--links", "in-process",
               "--pace", str(PACE_S), "--pit", url, "--pit-creds", str(tmp_path / f"{table}.creds")]
    (tmp_path / f"{table}.creds").write_text(creds.strip() + "\n")
    log = open(tmp_path / f"{table}.log", "ab")
    return subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT)


def _dealing(url: str, tmp_path: Path, seeds: dict[str, str] | None = None) -> list[subprocess.Popen[bytes]]:
    """Every table dealing; on an open broker each with a fresh identity of its own."""
    seeds = seeds or {table: Identity.new().seed for table in TABLES}
    return [_bench(url, tmp_path, table, n + 20, seeds[table]) for n, table in enumerate(TABLES)]


def _under_way(store: PitStore, tables: list[subprocess.Popen[bytes]]) -> None:
    """Waits until ingest has stored some records while every table is still dealing."""
    wait_for(lambda: sum(n for n, _, _ in stored_counts(store).values()) > 100, what="ingest under way")
    assert all(table.poll() is None for table in tables), "a table finished before the outage"


def _finished(tables: list[subprocess.Popen[bytes]], tmp_path: Path) -> None:
    for table, name in zip(tables, TABLES):
        assert table.wait(timeout=90) == 0, (tmp_path / f"{name}.log").read_text()


def _exactly_once(store: PitStore, tmp_path: Path) -> None:
    shipped = {table: messages(tmp_path / f"{table}.db", table) for table in TABLES}
    expected = {found[0].journal: (len(found),) * 3 for found in shipped.values()}
    wait_for(lambda: stored_counts(store) == expected, timeout=60, what="every record exactly once")
    for table, found in shipped.items():
        last = head(tmp_path / f"{table}.db")
        assert store.witness(found[0].journal)["head"] == last.hash.hex() == found[-1].hash
    assert [a for a in store.alerts() if a["kind"] == "divergence"] == []


def _outage(tmp_path: Path, postgres: PostgresCluster, broker: NatsServer, outage: Callable[[], None]) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.open(dsn)
    with running_ingest(broker.url, dsn, store.pit_identity().seed):
        tables = _dealing(broker.url, tmp_path)
        try:
            _under_way(store, tables)
            outage()
            _finished(tables, tmp_path)
        finally:
            for table in tables:
                if table.poll() is None:
                    table.kill()
                    table.wait()
        _exactly_once(store, tmp_path)
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


def test_the_pit_service_killed_and_restarted_on_the_rooms_own_broker(tmp_path: Path, postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    broker, creds = rooms_broker(dsn, tmp_path, TABLES)
    seeds = {table: path.read_text() for table, path in creds.items()}
    store = PitStore.open(dsn)
    command = serve_command(broker.url, dsn, f"127.0.0.1:{free_port()}")
    log = open(tmp_path / "pit.log", "ab")
    serve = subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT)
    try:
        tables = _dealing(broker.url, tmp_path, seeds)
        _under_way(store, tables)
        serve.kill()
        serve.wait()
        time.sleep(1.0)
        serve = subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT)
        _finished(tables, tmp_path)
        _exactly_once(store, tmp_path)
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(timeout=20) == 0
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
        log.close()
        broker.stop()
        store.close()

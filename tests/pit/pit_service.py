"""The pit for tests: a fresh database on the module's cluster, ingest running beside the test, and
the pit's own commands (`pit init`, `table add`, `nats-config`, `serve`) in their own processes."""
from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg

from pit.service.ingest import Ingest
from pit.trial.local_services import NatsServer, PostgresCluster, free_port
from pit.service.store import PitStore

ROOT = Path(__file__).parents[2]


def fresh_database(cluster: PostgresCluster) -> str:
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(cluster.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.dsn.rsplit("/", 1)[0] + "/" + name


@contextmanager
def running_ingest(nats_url: str, dsn: str, seed: str) -> Iterator[Ingest]:
    ingest = Ingest(nats_url, dsn, seed)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    thread = threading.Thread(target=loop.run_until_complete, args=(ingest.run(stop),), daemon=True)
    thread.start()
    try:
        yield ingest
    finally:
        loop.call_soon_threadsafe(stop.set)
        thread.join(timeout=20)
        assert not thread.is_alive(), "ingest did not stop"
        loop.close()


def wait_for(check: Callable[[], Any], timeout: float = 20.0, what: str = "the condition") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except (psycopg.OperationalError, LookupError):  # the store restarting, a journal not there yet
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} did not come within {timeout:.0f} s")


def stored_counts(store: PitStore) -> dict[str, tuple[int, int, int]]:
    """journal -> (records stored, distinct seqs, witnessed head seq)."""
    rows = store._all("SELECT j.journal, count(r.seq), count(DISTINCT r.seq), j.head_seq FROM journals j"
                      " LEFT JOIN records r USING (journal) GROUP BY j.journal, j.head_seq")
    return {journal: (int(n), int(distinct), int(head)) for journal, n, distinct, head in rows}


def pit_command(*args: str) -> str:
    """`dealer-assist pit ARGS` in its own process, as a room's operator runs it: its output."""
    done = subprocess.run([sys.executable, "-m", "ui.cli", "pit", *args], capture_output=True, text=True, timeout=60,
                          cwd=ROOT)
    assert done.returncode == 0, f"pit {' '.join(args)}: {done.stderr}"
    return done.stdout


def rooms_broker(dsn: str, folder: Path, tables: Iterable[str]) -> tuple[NatsServer, dict[str, Path]]:
    """The room as its operator sets it up: `pit init`, `pit table add` for each table (its credentials
    file in `folder`), and a nats-server on `pit nats-config`; the broker, and table id -> credentials."""
    pit_command("init", "--db", dsn)
    creds = {}
    for table_id in tables:
        creds[table_id] = folder / f"{table_id}.creds"
        creds[table_id].write_text(pit_command("table", "add", table_id, "--db", dsn))
    port = free_port()
    config = pit_command("nats-config", "--db", dsn, "--port", str(port), "--store", str(folder / "js"),
                         "--host", "127.0.0.1")
    return NatsServer(folder / "nats", port, config).start(), creds


def serve_command(nats_url: str, dsn: str, http: str) -> list[str]:
    return [sys.executable, "-m", "ui.cli", "pit", "serve", "--nats", nats_url, "--db", dsn, "--http", http]


@contextmanager
def pit_serving(nats_url: str, dsn: str, log: Path) -> Iterator[str]:
    """`pit serve` in its own process (its output in `log`) until the block ends, then stopped by
    SIGTERM, which it must obey with exit 0; yields its http://HOST:PORT once its login page answers."""
    base = f"http://127.0.0.1:{free_port()}"
    with open(log, "ab") as out:
        serve = subprocess.Popen(serve_command(nats_url, dsn, base.removeprefix("http://")), stdout=out, stderr=out,
                                 cwd=ROOT)

    def answers() -> bool:
        assert serve.poll() is None, f"pit serve stopped: {log.read_text()}"
        try:
            with urllib.request.urlopen(base + "/login", timeout=2):
                return True
        except (urllib.error.URLError, OSError):
            return False
    try:
        wait_for(answers, 30, "pit serve's login page")
        yield base
        serve.send_signal(signal.SIGTERM)
        assert serve.wait(20) == 0, log.read_text()
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()

"""The pit for tests: a fresh database on the module's cluster, ingest running beside the test, and
the pit's own commands (`pit init`, `table add`, `nats-config`, `serve`) in their own processes."""

from __future__ import annotations

import asyncio
import json
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

from pit.service.floor.data import NotFound
from pit.service.ingest.consumer import BATCH
from pit.service.ingest.gaps import GapTiming
from pit.service.ingest.leader import Ingest
from pit.service.log.keeper import LogKeeper
from pit.service.store.pit_store import PitStore
from pit.trial.local_services import NatsServer, PostgresCluster, free_port

ROOT = Path(__file__).parents[2]


def fresh_database(cluster: PostgresCluster) -> str:
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(cluster.dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.dsn.rsplit("/", 1)[0] + "/" + name


@contextmanager
def running_ingest(
    nats_url: str,
    dsn: str,
    seed: str,
    batch: int = BATCH,
    gap_timing: GapTiming = GapTiming(),
    log: LogKeeper | None = None,
) -> Iterator[Ingest]:
    ingest = Ingest(nats_url, dsn, seed, batch, gap_timing=gap_timing, log=log)
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
        except (psycopg.OperationalError, NotFound):  # the store restarting, a journal not there yet
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what} did not come within {timeout:.0f} s")


def stored(store: PitStore) -> int:
    """Records the pit has stored, of every journal."""
    return sum(n for n, _, _ in stored_counts(store).values())


def stored_counts(store: PitStore) -> dict[str, tuple[int, int, int]]:
    """journal -> (records stored, distinct seqs, witnessed head seq)."""
    rows = store._all(
        "SELECT j.journal, count(r.seq), count(DISTINCT r.seq), j.head_seq FROM journals j"
        " LEFT JOIN records r USING (journal) GROUP BY j.journal, j.head_seq"
    )
    return {journal: (int(n), int(distinct), int(head)) for journal, n, distinct, head in rows}


def pit_command(*args: str) -> str:
    """`dealer-assist pit ARGS` in its own process, as a room's operator runs it: its output."""
    done = subprocess.run(
        [sys.executable, "-m", "ui.cli", "pit", *args], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert done.returncode == 0, f"pit {' '.join(args)}: {done.stderr}"
    return done.stdout


def table_creds(dsn: str, folder: Path, tables: Iterable[str]) -> dict[str, Path]:
    """The room as its operator sets it up: `pit init`, `pit table add` for each table (its credentials
    file in `folder`); table id -> credentials."""
    pit_command("init", "--db", dsn)
    creds = {}
    for table_id in tables:
        creds[table_id] = folder / f"{table_id}.creds"
        creds[table_id].write_text(pit_command("table", "add", table_id, "--db", dsn))
    return creds


def rooms_broker(dsn: str, folder: Path, tables: Iterable[str], *extra: str) -> tuple[NatsServer, dict[str, Path]]:
    """`table_creds`, and a nats-server on `pit nats-config` (with `extra` options); the broker, and
    table id -> credentials."""
    creds = table_creds(dsn, folder, tables)
    port = free_port()
    config = pit_command(
        "nats-config", "--db", dsn, "--port", str(port), "--store", str(folder / "js"), "--host", "127.0.0.1", *extra
    )
    return NatsServer(folder / "nats", port, config).start(), creds


def rooms_cluster(
    dsn: str, folder: Path, tables: Iterable[str], nodes: int = 3
) -> tuple[list[NatsServer], dict[str, Path]]:
    """`table_creds`, and a NATS cluster of `nodes` nodes, each on its `pit nats-config --cluster room
    --node N --routes ...`, as a room's three servers run it."""
    creds = table_creds(dsn, folder, tables)
    ports, routes = [free_port() for _ in range(nodes)], [free_port() for _ in range(nodes)]
    urls = ",".join(f"nats://127.0.0.1:{port}" for port in routes)
    servers = []
    for node in range(1, nodes + 1):
        config = pit_command(
            "nats-config",
            "--db",
            dsn,
            "--port",
            str(ports[node - 1]),
            "--store",
            str(folder / f"js-{node}"),
            "--host",
            "127.0.0.1",
            "--cluster",
            "room",
            "--node",
            str(node),
            "--routes",
            urls,
        )
        servers.append(NatsServer(folder / f"nats-{node}", ports[node - 1], config))
    for server in servers:
        server.start()
    return servers, creds


def serve_command(nats_url: str, dsn: str, http: str) -> list[str]:
    return [sys.executable, "-m", "ui.cli", "pit", "serve", "--nats", nats_url, "--db", dsn, "--http", http]


class PitServe:
    """`pit serve` in its own process (with `extra` options), its output in `log`."""

    def __init__(self, nats_url: str, dsn: str, log: Path, *extra: str) -> None:
        self.base = f"http://127.0.0.1:{free_port()}"
        self.log = log
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [*serve_command(nats_url, dsn, self.base.removeprefix("http://")), *extra],
                stdout=out,
                stderr=out,
                cwd=ROOT,
            )

    def answers(self) -> bool:
        assert self.process.poll() is None, f"pit serve stopped: {self.log.read_text()}"
        try:
            with urllib.request.urlopen(self.base + "/login", timeout=2):
                return True
        except (urllib.error.URLError, OSError):
            return False

    def health(self) -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(self.base + "/api/health", timeout=2) as answer:
                return dict(json.loads(answer.read()))
        except (urllib.error.URLError, OSError):
            return None

    def role(self) -> str | None:
        health = self.health()
        return None if health is None else str(health["role"])

    def stop(self) -> int:
        """SIGTERM, which it must obey within 5 s; its exit code."""
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(5.5)
        finally:
            self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@contextmanager
def pit_serving(nats_url: str, dsn: str, log: Path) -> Iterator[str]:
    """`pit serve` until the block ends, then stopped by SIGTERM, which it must obey with exit 0; yields
    its http://HOST:PORT once its login page answers."""
    serve = PitServe(nats_url, dsn, log)
    try:
        wait_for(serve.answers, 30, "pit serve's login page")
        yield serve.base
        assert serve.stop() == 0, log.read_text()
    finally:
        serve.kill()

"""The pit for tests: a fresh database on the module's cluster, and ingest running beside the test."""
from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg

from pit.ingest import Ingest
from pit.local_services import PostgresCluster
from pit.store import PitStore


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

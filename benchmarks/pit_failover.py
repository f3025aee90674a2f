"""Part 4 of benchmarks/pit.py: the ingesting pit service killed; how soon the other takes over,
how long ingest stood still, and the status freshness across it."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import psycopg

from benchmarks.pit_parts import Pit, bench_journal, ship_steadily

TAKEOVER_TARGET_S = 10.0


@dataclass
class Failover:
    took_over_s: float  # from the kill to the other pit's /api/health saying "ingest"
    stood_still_s: float  # the longest time no record was stored, across the kill
    ages: list[float]  # the age of each table's status on the store, sampled across the failover


def failover(pit: Pit, folder: Path, tables: int, rate: float, before_s: float, after_s: float) -> Failover:
    """Tables shipping `rate` records/s in all and a status each every second into a room with two pit
    services; the ingesting one is killed `before_s` into it. The store is sampled every 50 ms."""
    paths = [bench_journal(folder / f"failover-{n:03d}.db", f"F-{n:03d}", 8, 2000 + n) for n in range(tables)]
    pit.start_serving(1)
    while sorted(str(pit.role(n)) for n in (0, 1)) != ["ingest", "standby"]:
        time.sleep(0.1)
    ingesting = next(n for n in (0, 1) if pit.role(n) == "ingest")
    stop = threading.Event()
    shipping = threading.Thread(target=lambda: asyncio.run(ship_steadily(pit.nats.url, paths, rate, stop)))
    shipping.start()
    samples: list[tuple[float, int]] = []
    ages: list[float] = []
    killed_at = took_over = 0.0
    start = time.perf_counter()
    with psycopg.connect(pit.postgres.dsn, autocommit=True) as conn:
        while time.perf_counter() - start < before_s + after_s:
            now = time.perf_counter()
            if not killed_at and now - start >= before_s:
                pit.serves[ingesting].kill()
                killed_at = now
            if killed_at and not took_over and pit.role(1 - ingesting) == "ingest":
                took_over = now - killed_at
            try:
                count = pit.stored(conn, "F-")
                sent = conn.execute("SELECT status->>'sent' FROM table_status WHERE table_id LIKE 'F-%'").fetchall()
            except psycopg.Error:
                continue
            samples.append((now, count))
            wall = time.time()
            ages += [wall - datetime.fromisoformat(text).timestamp() for (text,) in sent if text]
            time.sleep(0.05)
    stop.set()
    shipping.join()
    pit.serves.pop(ingesting).wait()
    pit.stop_serving(1 - ingesting)
    pit.start_serving(0)
    progress = [at for (at, count), (_, before) in zip(samples[1:], samples, strict=False) if count != before]
    after = [at for at in progress if at >= killed_at]
    if not after:
        raise SystemExit("ingest did not resume after the failover")
    resumed = [max([samples[0][0], *(at for at in progress if at < killed_at)]), *after]
    stood = max(later - earlier for earlier, later in zip(resumed, resumed[1:], strict=False))
    return Failover(took_over, stood, ages)

"""What the card room's benchmark parts share: percentiles, bench journals, a table's credentials,
and `Pit`, the pit service's processes and its API as the benchmark drives them."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import nats
import psycopg

from dealer_assist.journal.journal_file import read_records
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.session import TableConfig
from devices.table_owner.controller import TableController
from pit.shipping.journal_command import ship
from pit.shipping.link import PitLink
from pit.stream.broker import Identity, ensure_stream
from pit.stream.wire import RecordMessage, StatusMessage, journal_identity
from pit.trial.local_services import NatsServer, PostgresCluster, free_port

POLL_S = 0.1


RECORDS_PER_ROUND = 27  # about, on nobust-4.0 at the bench


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench_journal(path: Path, table_id: str, rounds: int, seed: int) -> Path:
    controller = TableController.open(
        path, TableConfig(table_id, "nobust-4.0"), devices={"shoe": {"model": "emulated", "seed": seed}}
    )
    player = BenchPlayer(seed)
    while controller.rounds_closed < rounds:
        if (refused := controller.submit(player.next_input(controller.facts()))) is not None:
            raise refused
    controller.close()
    return path


def creds(folder: Path) -> Path:
    """Any table's credentials: the benchmark's broker is open, permissions are not what is measured."""
    path = folder / "bench.creds"
    path.write_text(Identity.new().creds_file())
    return path


class Pit:
    """The room's store and broker, and `pit serve` processes on them (a second one for the failover)."""

    def __init__(self, folder: Path, log_args: tuple[str, ...] = ()) -> None:
        self.folder, self.log_args = folder, log_args  # `pit serve --log-key ...`: the public log (public_log.py)
        self.postgres = PostgresCluster(folder / "postgres").init()
        self.nats = NatsServer(folder / "nats").start()
        self.https = [f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"]
        self.http = self.https[0]
        self.serves: dict[int, subprocess.Popen[bytes]] = {}
        self._cli("pit", "init", "--db", self.postgres.dsn)
        self.token = self._cli("pit", "token", "add", "bench", "--role", "manager", "--db", self.postgres.dsn).strip()
        asyncio.run(make_stream(self.nats.url))

    def _cli(self, *args: str) -> str:
        return subprocess.run(
            [sys.executable, "-m", "ui.cli", *args], capture_output=True, text=True, check=True
        ).stdout

    def start_serving(self, number: int = 0) -> None:
        log = open(self.folder / f"pit-serve-{number}.log", "ab")
        self.serves[number] = serve = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "pit",
                "serve",
                "--nats",
                self.nats.url,
                "--db",
                self.postgres.dsn,
                "--http",
                self.https[number],
                *self.log_args,
            ],
            stdout=log,
            stderr=log,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.get("/api/tables", number)
                return
            except (httpx.HTTPError, OSError) as error:
                if serve.poll() is not None:
                    raise SystemExit(f"pit serve stopped: see {self.folder / f'pit-serve-{number}.log'}") from error
                time.sleep(0.1)
        raise SystemExit("pit serve did not answer within 60 s")

    def get(self, path: str, number: int = 0) -> Any:
        answer = httpx.get(
            f"http://{self.https[number]}{path}", headers={"Authorization": f"Bearer {self.token}"}, timeout=10
        )
        answer.raise_for_status()
        return answer.json()

    def role(self, number: int) -> str | None:
        try:
            return str(self.get("/api/health", number)["role"])
        except (httpx.HTTPError, OSError):
            return None

    def stop_serving(self, number: int | None = None) -> None:
        for each in [number] if number is not None else list(self.serves):
            serve = self.serves.pop(each, None)
            if serve is None:
                continue
            serve.terminate()
            try:
                serve.wait(30)
            except subprocess.TimeoutExpired:
                serve.kill()
                serve.wait()

    @staticmethod
    def stored(conn: psycopg.Connection[Any], prefix: str) -> int:
        """Records stored of the journals of tables whose id starts with `prefix` (their heads' sum)."""
        row = conn.execute(
            "SELECT coalesce(sum(head_seq), 0) FROM journals WHERE table_id LIKE %s", (prefix + "%",)
        ).fetchone()
        return int(row[0]) if row else 0

    def stop(self) -> None:
        self.stop_serving()
        self.nats.stop()
        self.postgres.stop("fast")


def figure_line(name: str, values: list[float], unit: str = "ms", scale: float = 1.0) -> str:
    if not values:
        return f"{name}: no samples"
    return (
        f"{name}: p50 {statistics.median(values) * scale:.2f} {unit}  p99 {percentile(values, 0.99) * scale:.2f} {unit}"
        f"  max {max(values) * scale:.2f} {unit}  ({len(values)} samples)"
    )


async def make_stream(url: str) -> None:
    client = await nats.connect(url)
    await ensure_stream(client.jetstream())
    await client.close()


async def ship_steadily(url: str, paths: list[Path], rate: float, stop: threading.Event) -> None:
    client = await nats.connect(url)
    js = client.jetstream()
    tables = []
    for index, path in enumerate(paths):
        records = list(read_records(path))
        tables.append((f"F-{index:03d}", journal_identity(records[0]), records))
    gap, sent, last_status = 1.0 / rate, [0] * len(tables), 0.0
    while not stop.is_set():
        for index, (table_id, journal, records) in enumerate(tables):
            if sent[index] < len(records):
                message = RecordMessage.of(table_id, journal, records[sent[index]])
                await js.publish_async(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
                sent[index] += 1
            await asyncio.sleep(gap)
        if time.monotonic() - last_status >= 1.0:
            last_status = time.monotonic()
            for index, (table_id, journal, records) in enumerate(tables):
                status = StatusMessage(
                    table_id,
                    journal,
                    "nobust-4.0",
                    records[max(0, sent[index] - 1)].round_id,
                    "play",
                    None,
                    {"shoe": "up"},
                    sent[index],
                    0,
                    datetime.now(UTC).isoformat(timespec="milliseconds"),
                )
                await client.publish(status.subject, status.encode())
    await js.publish_async_completed()
    await client.close()


def backlog(pit: Pit, folder: Path, records: int, waiting: bool = False) -> tuple[int, float, float, float]:
    """A table's whole backlog: (records, seconds from the first sent to the last stored, records/s over
    that, records/s from the first stored to the last, which is the ingest's own rate). Sent at once
    into a running pit, as a shipper sends it when its link returns; or, `waiting`, sent while the pit
    service is down, so that it waits in the stream for the service to start again (then the clock
    runs from that start)."""
    table_id = "BACKLOG-2" if waiting else "BACKLOG-1"
    path = bench_journal(folder / f"{table_id}.db", table_id, records // RECORDS_PER_ROUND + 1, 11)
    total = sum(1 for _ in read_records(path))
    journal = journal_identity(next(read_records(path)))
    samples: list[tuple[float, int]] = []

    def watch() -> None:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and (not samples or samples[-1][1] < total):
            try:
                stored = int(pit.get(f"/api/witness/{journal}")["records"])
            except httpx.HTTPStatusError:
                stored = 0
            samples.append((time.perf_counter(), stored))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch)
    if waiting:
        pit.stop_serving()
    start = time.perf_counter()
    if not waiting:
        watcher.start()
    code, message = asyncio.run(ship(path, table_id, PitLink.of(pit.nats.url, creds(folder))))
    shipped = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"the backlog could not be put in the stream: {message}")
    if waiting:
        start = time.perf_counter()
        pit.start_serving()
        watcher.start()
    watcher.join()
    if not samples or samples[-1][1] < total:
        raise SystemExit("the backlog was not ingested within 300 s")
    if not waiting:
        print(f"  {total} records in the stream {shipped:.2f} s after the first was sent")
    done = next(at for at, stored in samples if stored >= total)
    first_at, first_stored = next((at, stored) for at, stored in samples if stored > 0)
    if first_stored >= total:  # all of it came in between two looks: its rate is no better known than that
        first_at, first_stored = start, 0
    ingest = (total - first_stored) / max(done - first_at, 1e-6)
    return total, done - start, total / (done - start), ingest

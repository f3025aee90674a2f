"""The card room's figures (PIT.md §7), on this one machine with broker, pit and store together.

1. The table's card latency, with the shipper attached (broker up, broker down) and without, in
   passes that take the three in turn so that each comparison is made under the same load: from the
   emulated shoe writing a card frame to the tracker having applied that card (the figure of
   benchmarks/device_latency.py, here on the table's whole path: pseudo-terminal, shoe adapter,
   table controller, `Table`, tracker), and on to the card's record durable in the journal and
   offered to the record sinks, the shipper's among them.
2. A backlog: one table about 8 hours behind (~13,000 records) waiting in the stream, ingested by
   `pit serve` at a rate read from the witness API (target >= 5,000 records/s).
3. Traffic: recorded bench journals of 200 tables replayed at one round a minute, with status
   messages every 5 s and at once when a round closes; the p99 delay from a record to the table's
   state on the API (target <= 1 s), for the status (round) and for the stored round.

Parts 2 and 3 need `pit serve` (the pit's store and web app); without them they are skipped and
say so.

    python benchmarks/pit.py            # 3 passes of 60 rounds a latency run, 13,000 records, 200 tables for 3 minutes
    python benchmarks/pit.py --short    # a quick run that checks every part works

Run as a script, this file's folder comes first on the import path, where its own name would hide
the `pit` package: the checkout it belongs to takes that place before the product is imported.
"""
from __future__ import annotations

import sys
from pathlib import Path

if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse  # noqa: E402 (after the path is put right)
import asyncio
import importlib.util
import random
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import httpx
import nats
import psycopg

from dealer_assist.journal.journal_file import Record, RecordKind, read_records
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.inputs import CardDrawn
from dealer_assist.errors import Failure
from dealer_assist.table.session import TableConfig, TableInput
from devices.wire.messages import CardOut, Message
from devices.table_owner.controller import TableController
from hw_sims.linked_bench import LinkedBench
from pit.shipping.journal_command import ship
from pit.shipping.link import PitLink
from pit.shipping.shipper import attach_shipper
from pit.shipping.table_view import snapshot_view
from pit.stream.broker import Identity, ensure_stream
from pit.stream.wire import RecordMessage, StatusMessage, journal_identity
from pit.trial.local_services import NatsServer, PostgresCluster, free_port

BACKLOG_TARGET = 5000.0  # records/s
MANY_TARGET = 20_000.0  # records/s, a backlog of many journals at once
PARTS = ("1", "2", "2b", "4", "3")  # in the order they run
TAKEOVER_TARGET_S = 10.0
API_TARGET_S = 1.0
POLL_S = 0.1
RECORDS_PER_ROUND = 27  # about, on nobust-4.0 at the bench


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench_journal(path: Path, table_id: str, rounds: int, seed: int) -> Path:
    controller = TableController.open(path, TableConfig(table_id, "nobust-4.0"),
                                      devices={"shoe": {"model": "emulated", "seed": seed}})
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


# --- 1. the table's card latency ------------------------------------------------------------------

LATENCY_RUNS = (("without --pit", "without"), ("--pit up     ", "up"), ("--pit down   ", "down"))


@dataclass
class Latencies:
    """Milliseconds from each card frame written to its card taken by the table's owner (the rules
    apply it next), and to its record durable."""

    taken: list[float]
    durable: list[float]


class TimedController(TableController):
    """This benchmark's probe: `taken` hears of each card as the table's owner takes it, before the
    rules apply it and the journal records it."""

    taken: Callable[[], None] | None = None

    def submit(self, event: TableInput) -> Failure | None:
        if isinstance(event, CardDrawn) and self.taken is not None:
            self.taken()
        return super().submit(event)


def card_latency(folder: Path, name: str, rounds: int, pit: str | None) -> Latencies:
    """One run of `rounds` rounds on the bench's emulated devices, shipping to `pit` if given (as
    `bench --pit` does, with the controller's status). The first moment is taken where the table's
    owner takes the card, before the rules apply it and the journal records it (`TimedController`)."""
    controller = TimedController.open(folder / f"latency-{name}.db", TableConfig("LAT-1", "nobust-4.0"),
                                      devices={"shoe": {"model": "emulated", "seed": 5}})
    bench = LinkedBench(controller, 5)
    sent: list[float] = []
    found = Latencies([], [])

    def on_sent(message: Message) -> None:
        if isinstance(message, CardOut):
            sent.append(time.perf_counter())

    def taken() -> None:
        if sent:
            found.taken.append((time.perf_counter() - sent[-1]) * 1000)

    def on_record(record: Record) -> None:
        if record.kind in (RecordKind.INPUT, RecordKind.CLOSE) and record.body["input"].get("type") == "CardDrawn" and sent:
            found.durable.append((time.perf_counter() - sent[-1]) * 1000)

    controller.taken = taken
    shipper = attach_shipper(controller.journal_path, controller.add_sink, "LAT-1", PitLink.of(pit, creds(folder)),
                             snapshot_view(lambda: controller.snapshot, controller.device_lights)) if pit else None
    controller.add_sink(on_record)  # after the shipper's: the durable moment includes its offer
    bench.devices.shoe.sim_on_first_send = on_sent
    bench.start()
    try:
        while controller.rounds_closed < rounds:
            bench.step()
    finally:
        bench.stop()
        controller.close()
        if shipper is not None:
            shipper.stop(5.0)
    return found


def latency_passes(folder: Path, rounds: int, passes: int) -> dict[str, list[Latencies]]:
    """Each pass runs without the pit, with it up and with it down, one after the other."""
    broker = NatsServer(folder / "latency-nats").start()
    urls = {"without": None, "up": broker.url, "down": f"nats://127.0.0.1:{free_port()}"}
    found: dict[str, list[Latencies]] = {key: [] for _, key in LATENCY_RUNS}
    try:
        asyncio.run(_stream(broker.url))
        for number in range(passes):
            for _, key in LATENCY_RUNS:
                found[key].append(card_latency(folder, f"{key}-{number}", rounds, urls[key]))
    finally:
        broker.stop()
    return found


def _latency_report(found: dict[str, list[Latencies]]) -> None:
    for what in ("taken", "durable"):
        moment = "taken by the table" if what == "taken" else "record durable, sinks offered"
        print(f"  card frame written -> {moment}:")
        pooled = {key: [v for run in runs for v in getattr(run, what)] for key, runs in found.items()}
        for label, key in LATENCY_RUNS:
            by_pass = " / ".join(f"{percentile(getattr(run, what), 0.99):.2f}" for run in found[key])
            print(f"    {_line(label, pooled[key])}; p99 by pass {by_pass} ms")
        base = percentile(pooled["without"], 0.99)
        print(f"    p99 with --pit up {percentile(pooled['up'], 0.99) / base:.2f}x, down "
              f"{percentile(pooled['down'], 0.99) / base:.2f}x the p99 without")


async def _stream(url: str) -> None:
    client = await nats.connect(url)
    await ensure_stream(client.jetstream())
    await client.close()


# --- the pit: store, broker, pit serve --------------------------------------------------------------

class Pit:
    """The room's store and broker, and `pit serve` processes on them (a second one for the failover)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.postgres = PostgresCluster(folder / "postgres").init()
        self.nats = NatsServer(folder / "nats").start()
        self.https = [f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"]
        self.http = self.https[0]
        self.serves: dict[int, subprocess.Popen[bytes]] = {}
        self._cli("pit", "init", "--db", self.postgres.dsn)
        self.token = self._cli("pit", "token", "add", "bench", "--role", "manager", "--db", self.postgres.dsn).strip()
        asyncio.run(_stream(self.nats.url))

    def _cli(self, *args: str) -> str:
        return subprocess.run([sys.executable, "-m", "ui.cli", *args], capture_output=True, text=True, check=True).stdout

    def start_serving(self, number: int = 0) -> None:
        log = open(self.folder / f"pit-serve-{number}.log", "ab")
        self.serves[number] = serve = subprocess.Popen(
            [sys.executable, "-m", "ui.cli", "pit", "serve", "--nats", self.nats.url, "--db", self.postgres.dsn,
             "--http", self.https[number]], stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.get("/api/tables", number)
                return
            except (httpx.HTTPError, OSError):
                if serve.poll() is not None:
                    raise SystemExit(f"pit serve stopped: see {self.folder / f'pit-serve-{number}.log'}")
                time.sleep(0.1)
        raise SystemExit("pit serve did not answer within 60 s")

    def get(self, path: str, number: int = 0) -> Any:
        answer = httpx.get(f"http://{self.https[number]}{path}", headers={"Authorization": f"Bearer {self.token}"},
                           timeout=10)
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
        row = conn.execute("SELECT coalesce(sum(head_seq), 0) FROM journals WHERE table_id LIKE %s",
                           (prefix + "%",)).fetchone()
        return int(row[0]) if row else 0

    def stop(self) -> None:
        self.stop_serving()
        self.nats.stop()
        self.postgres.stop("fast")


# --- 2. the backlog ------------------------------------------------------------------------------

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


# --- 2b. a backlog of many journals at once -------------------------------------------------------------

def many_journals(pit: Pit, folder: Path, journals: int, records: int, tag: str) -> tuple[int, float]:
    """`records` records of `journals` journals waiting in the stream while the pit service is down, then
    ingested once it starts again: (records, records/s from the first stored to the last)."""
    rounds = max(1, records // journals // RECORDS_PER_ROUND)
    paths = [bench_journal(folder / f"many-{tag}-{n:03d}.db", f"M{tag}-{n:03d}", rounds, 1000 + n) for n in range(journals)]
    pit.stop_serving()
    total = asyncio.run(_publish(pit.nats.url, paths, f"M{tag}-"))
    started = time.perf_counter()
    pit.start_serving()
    samples: list[tuple[float, int]] = []
    deadline = time.monotonic() + 600
    with psycopg.connect(pit.postgres.dsn, autocommit=True) as conn:  # one session: a look costs the store little
        while time.monotonic() < deadline and (not samples or samples[-1][1] < total):
            samples.append((time.perf_counter(), pit.stored(conn, f"M{tag}-")))
            time.sleep(0.02)
    if samples[-1][1] < total:
        raise SystemExit(f"the backlog of {journals} journals was not ingested within 600 s")
    first_at, first = next((at, stored) for at, stored in samples if stored > 0)
    if first >= total:  # all of it came in between two looks: count from the service's start
        first_at, first = started, 0
    done = next(at for at, stored in samples if stored >= total)
    return total, (total - first) / max(done - first_at, 1e-6)


async def _publish(url: str, paths: list[Path], prefix: str) -> int:
    """Every record of every journal into the stream, the journals' records interleaved as tables ship."""
    client = await nats.connect(url)
    js = client.jetstream()
    queues = []
    for index, path in enumerate(paths):
        records = list(read_records(path))
        journal = journal_identity(records[0])
        queues.append([RecordMessage.of(f"{prefix}{index:03d}", journal, record) for record in records])
    sent = 0
    while any(queues):
        for found in queues:
            for message in found[:20]:
                await js.publish_async(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
                sent += 1
            del found[:20]
    await js.publish_async_completed()
    await client.close()
    return sent


# --- 4. a failover of the ingesting pit service -----------------------------------------------------------

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
    shipping = threading.Thread(target=lambda: asyncio.run(_ship_steadily(pit.nats.url, paths, rate, stop)))
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
            ages += [wall - datetime.fromisoformat(text).timestamp() for text, in sent if text]
            time.sleep(0.05)
    stop.set()
    shipping.join()
    pit.serves.pop(ingesting).wait()
    pit.stop_serving(1 - ingesting)
    pit.start_serving(0)
    progress = [at for (at, count), (_, before) in zip(samples[1:], samples) if count != before]
    after = [at for at in progress if at >= killed_at]
    if not after:
        raise SystemExit("ingest did not resume after the failover")
    resumed = [max([samples[0][0], *(at for at in progress if at < killed_at)]), *after]
    stood = max(later - earlier for earlier, later in zip(resumed, resumed[1:]))
    return Failover(took_over, stood, ages)


async def _ship_steadily(url: str, paths: list[Path], rate: float, stop: threading.Event) -> None:
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
                status = StatusMessage(table_id, journal, "nobust-4.0", records[max(0, sent[index] - 1)].round_id, "play",
                                       None, {"shoe": "up"}, sent[index], 0,
                                       datetime.now(timezone.utc).isoformat(timespec="milliseconds"))
                await client.publish(status.subject, status.encode())
    await js.publish_async_completed()
    await client.close()


# --- 3. the traffic of many tables ------------------------------------------------------------------

@dataclass
class Closing:
    """A round's closing record sent: when, the round the table is on now, its rounds closed so far."""

    published: float
    next_round: int
    rounds: int
    status_seen: bool = False
    stored_seen: bool = False

def traffic(pit: Pit, folder: Path, tables: int, minutes: int, round_s: float = 60.0) -> tuple[list[float], list[float], int]:
    """(status delays, stored-round delays, records sent), seconds from the record to the API; each
    table deals a round every `round_s` seconds (a busy table's minute; shorter only to check it runs)."""
    started = time.perf_counter()
    journals = [bench_journal(folder / f"traffic-{n:03d}.db", f"R{n:03d}", minutes, 100 + n) for n in range(tables)]
    print(f"  {tables} journals of {minutes} rounds recorded in {time.perf_counter() - started:.1f} s")
    return asyncio.run(_replay(pit, journals, round_s))


async def _replay(pit: Pit, journals: list[Path], round_s: float) -> tuple[list[float], list[float], int]:
    client = await nats.connect(pit.nats.url)
    js = client.jetstream()
    rng = random.Random(1)
    events: list[tuple[float, int, Record]] = []
    tables: list[tuple[str, str, list[Record]]] = []
    for index, path in enumerate(journals):
        records = list(read_records(path))
        table_id = f"R{index:03d}"
        tables.append((table_id, journal_identity(records[0]), records))
        offset = rng.uniform(0, round_s)
        rounds: list[list[Record]] = [[]]  # in journal order, each up to and with a round's closing record
        for record in records:
            rounds[-1].append(record)
            if record.kind is RecordKind.CLOSE:
                rounds.append([])
        for number, members in enumerate(r for r in rounds if r):  # a round's records spread over its minute
            for position, record in enumerate(members):
                events.append((offset + round_s * (number + 55 / 60 * position / len(members)), index, record))
    events.sort(key=lambda e: e[0])
    pending: dict[str, list[Closing]] = {}
    closed = [0] * len(tables)
    status_delays: list[float] = []
    round_delays: list[float] = []
    stopping = asyncio.Event()
    async with httpx.AsyncClient(base_url=f"http://{pit.http}", headers={"Authorization": f"Bearer {pit.token}"},
                                 timeout=10) as web:
        async def watch() -> None:
            """Poll the tiles; a closing is seen by its status (the round) and by its stored round."""
            while not stopping.is_set() or (any(pending.values()) and time.perf_counter() < stopped_at + 30):
                tiles = {t["table_id"]: t for t in (await web.get("/api/tables")).json()}
                now = time.perf_counter()
                for table_id, waits in pending.items():
                    tile = tiles.get(table_id, {})
                    for closing in list(waits):
                        if not closing.status_seen and (tile.get("round_id") or 0) >= closing.next_round:
                            closing.status_seen = True
                            status_delays.append(now - closing.published)
                        if not closing.stored_seen and int(tile.get("rounds_per_hour") or 0) >= closing.rounds:
                            closing.stored_seen = True
                            round_delays.append(now - closing.published)
                        if closing.status_seen and closing.stored_seen:
                            waits.remove(closing)
                await asyncio.sleep(POLL_S)

        async def every_5_s() -> None:
            while not stopping.is_set():
                for index, (table_id, journal, _) in enumerate(tables):
                    await client.publish(f"da.status.{table_id}", _status(table_id, journal, heads[index]).encode())
                await asyncio.sleep(5.0)

        heads: list[tuple[int, int]] = [(0, 1)] * len(tables)  # (last seq, current round)
        stopped_at = float("inf")
        watcher, beat = asyncio.create_task(watch()), asyncio.create_task(every_5_s())
        start = time.perf_counter()
        for at, index, record in events:
            delay = start + at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            table_id, journal, _ = tables[index]
            message = RecordMessage.of(table_id, journal, record)
            await js.publish_async(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
            heads[index] = (record.seq, (record.round_id or 0) + (1 if record.kind is RecordKind.CLOSE else 0))
            if record.kind is RecordKind.CLOSE:
                closed[index] += 1
                await client.publish(f"da.status.{table_id}", _status(table_id, journal, heads[index]).encode())
                pending.setdefault(table_id, []).append(Closing(time.perf_counter(), heads[index][1], closed[index]))
        await js.publish_async_completed()
        stopping.set()
        stopped_at = time.perf_counter()
        await watcher
        beat.cancel()
    await client.close()
    return status_delays, round_delays, len(events)


def _status(table_id: str, journal: str, head: tuple[int, int]) -> StatusMessage:
    return StatusMessage(table_id, journal, "nobust-4.0", head[1], "betting", None, {"shoe": "up", "peek": "up"}, head[0], 0)


def _line(name: str, values: list[float], unit: str = "ms", scale: float = 1.0) -> str:
    if not values:
        return f"{name}: no samples"
    return (f"{name}: p50 {statistics.median(values) * scale:.2f} {unit}  p99 {percentile(values, 0.99) * scale:.2f} {unit}"
            f"  max {max(values) * scale:.2f} {unit}  ({len(values)} samples)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a quick run for CI: checks that every part works")
    parser.add_argument("--rounds", type=int, default=60, help="rounds of each latency run")
    parser.add_argument("--passes", type=int, default=3, help="passes of the three latency runs")
    parser.add_argument("--backlog", type=int, default=13_000, help="records behind")
    parser.add_argument("--tables", type=int, default=200, help="tables of the traffic part (0: leave it out)")
    parser.add_argument("--minutes", type=int, default=3, help="rounds each replayed table deals, one a minute")
    parser.add_argument("--many", type=int, default=50_000, help="records of the backlog of many journals")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"the parts to run (default: all, {','.join(PARTS)})")
    args = parser.parse_args(argv)
    parts = set(args.parts.split(","))
    if not parts <= set(PARTS):
        parser.error(f"--parts: {','.join(sorted(parts - set(PARTS)))} is not a part; the parts are {','.join(PARTS)}")
    if args.short:
        args.rounds, args.passes, args.backlog, args.tables, args.minutes, args.many = 3, 1, 600, 5, 2, 1000
    round_s = 6.0 if args.short else 60.0
    folder = Path(tempfile.mkdtemp(prefix="da-pit-bench-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        if "1" in parts:
            print(f"1. card latency: {args.passes} passes, each of {args.rounds} rounds on pseudo-terminals without the pit,"
                  " with it up, with it down")
            _latency_report(latency_passes(folder, args.rounds, args.passes))
        if importlib.util.find_spec("pit.commands") is None or importlib.util.find_spec("pit.service.web") is None:
            print("2, 3. skipped: `pit serve` (pit.commands, pit.service.web) is not installed here")
            return 0
        pit = Pit(folder)
        try:
            pit.start_serving()
            if "2" in parts:
                total, seconds, rate, ingest = backlog(pit, folder, args.backlog)
                verdict = "" if args.short else " " + ("met" if ingest >= BACKLOG_TARGET else "MISSED")
                print(f"2. backlog: {total} records sent and stored in {seconds:.2f} s: {rate:,.0f} records/s end to end;"
                      f" ingest {ingest:,.0f} records/s from the first stored to the last (target >= {BACKLOG_TARGET:,.0f}){verdict}")
                total, seconds, rate, ingest = backlog(pit, folder, args.backlog, waiting=True)
                verdict = "" if args.short else " " + ("met" if ingest >= BACKLOG_TARGET else "MISSED")
                print(f"   the same, waiting in the stream while the pit service was down: {total} records stored"
                      f" {seconds:.2f} s after it started again ({rate:,.0f} records/s with its start);"
                      f" ingest {ingest:,.0f} records/s from the first stored to the last{verdict}")
            if "2b" in parts:
                print(f"2b. a backlog of many journals at once, waiting in the stream while the pit service was down"
                      f" ({args.many:,} records each time; target >= {MANY_TARGET:,.0f} records/s):")
                counts = [1, 10] if args.short else [1, 10, 50, 200]
                for order, tag in ((counts, "a"), (list(reversed(counts)), "b")):  # each count twice, in turn
                    for journals in order:
                        total, ingest = many_journals(pit, folder, journals, args.many, f"{tag}{journals}")
                        verdict = "" if args.short else " " + ("met" if ingest >= MANY_TARGET else "MISSED")
                        print(f"   {journals:>4} journals: {total:,} records, ingest {ingest:,.0f} records/s{verdict}")
            if "4" in parts:
                found = failover(pit, folder, 10 if args.short else 40, 100 if args.short else 400, 3 if args.short else 5,
                                 12 if args.short else 15)
                verdict = "" if args.short else " " + ("met" if found.took_over_s < TAKEOVER_TARGET_S else "MISSED")
                print(f"4. failover: the ingesting pit service killed; the other's /api/health said \"ingest\""
                      f" {found.took_over_s:.2f} s after (target < {TAKEOVER_TARGET_S:.0f} s){verdict}; ingest stood still"
                      f" {found.stood_still_s:.2f} s")
                print("   " + _line("status freshness on the store across the failover (age of each table's status)",
                                   found.ages, "ms", 1000))
            if args.tables == 0 or "3" not in parts:
                return 0
            print(f"3. traffic: {args.tables} tables at one round every {round_s:.0f} s for {args.minutes} rounds,"
                  " status every 5 s")
            statuses, rounds, sent = traffic(pit, folder, args.tables, args.minutes, round_s)
            print(f"  {sent} records sent; API polled every {POLL_S * 1000:.0f} ms (included in the delays)")
            print("  " + _line("record -> table's round on the API (status)", statuses, "ms", 1000))
            print("  " + _line("record -> closed round stored, on the API ", rounds, "ms", 1000))
            worst = max(percentile(statuses, 0.99) if statuses else 99, percentile(rounds, 0.99) if rounds else 99)
            if not args.short:
                print(f"  target p99 <= {API_TARGET_S:.0f} s: {'met' if worst <= API_TARGET_S else 'MISSED'}")
        finally:
            pit.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

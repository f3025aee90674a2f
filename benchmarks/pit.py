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
from dataclasses import dataclass
from typing import Any

import httpx
import nats

from dealer_assist.journal.journal_file import Record, RecordKind, read_records
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.inputs import CardDrawn
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig, TableInput
from devices.messages import CardOut, Message
from devices.table_controller import TableController
from hw_sims.linked_bench import LinkedBench
from pit.shipping.journal_command import ship
from pit.shipping.link import PitLink
from pit.shipping.shipper import attach_shipper
from pit.shipping.table_view import snapshot_view
from pit.stream.broker import Identity, ensure_stream
from pit.stream.wire import RecordMessage, StatusMessage, journal_identity
from pit.trial.local_services import NatsServer, PostgresCluster, free_port

BACKLOG_TARGET = 5000.0  # records/s
API_TARGET_S = 1.0
POLL_S = 0.1
RECORDS_PER_ROUND = 27  # about, on nobust-4.0 at the bench


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def bench_journal(path: Path, table_id: str, rounds: int, seed: int) -> Path:
    table = Table.open(path, TableConfig(table_id, "nobust-4.0"), devices={"shoe": {"model": "emulated", "seed": seed}})
    player = BenchPlayer(seed)
    while table.rounds_closed < rounds:
        table.submit(player.next_input(table.session))
    table.close()
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
    """Milliseconds from each card frame written to its card applied by the tracker, and to its record durable."""

    tracker: list[float]
    durable: list[float]


def card_latency(folder: Path, name: str, rounds: int, pit: str | None) -> Latencies:
    """One run of `rounds` rounds on the bench's emulated devices, shipping to `pit` if given (as
    `bench --pit` does, with the controller's status). The tracker's moment is taken where the table
    applies the input, before it journals it: the wrapper below is this benchmark's probe."""
    table = Table.open(folder / f"latency-{name}.db", TableConfig("LAT-1", "nobust-4.0"),
                       devices={"shoe": {"model": "emulated", "seed": 5}})
    bench = LinkedBench(TableController(table), 5)
    sent: list[float] = []
    found = Latencies([], [])

    def on_sent(message: Message) -> None:
        if isinstance(message, CardOut):
            sent.append(time.perf_counter())

    session = table.session
    apply = session.apply

    def applied(event: TableInput, now: float) -> tuple[Any, ...]:
        ops = apply(event, now)
        if isinstance(event, CardDrawn) and sent:
            found.tracker.append((time.perf_counter() - sent[-1]) * 1000)
        return ops

    def on_record(record: Record) -> None:
        if record.kind in (RecordKind.INPUT, RecordKind.CLOSE) and record.body["input"].get("type") == "CardDrawn" and sent:
            found.durable.append((time.perf_counter() - sent[-1]) * 1000)

    session.apply = applied  # type: ignore[method-assign]
    controller = bench.controller
    shipper = attach_shipper(table.journal.path, table.journal.add_sink, "LAT-1", PitLink.of(pit, creds(folder)),
                             snapshot_view(lambda: controller.snapshot, controller.device_lights)) if pit else None
    table.journal.add_sink(on_record)  # after the shipper's: the durable moment includes its offer
    bench.devices.shoe.sim_on_first_send = on_sent
    bench.start()
    try:
        while table.rounds_closed < rounds:
            bench.step()
    finally:
        bench.stop()
        table.close()
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
    for what in ("tracker", "durable"):
        print(f"  card frame written -> {'tracker applied' if what == 'tracker' else 'record durable, sinks offered'}:")
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
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.postgres = PostgresCluster(folder / "postgres").init()
        self.nats = NatsServer(folder / "nats").start()
        self.http = f"127.0.0.1:{free_port()}"
        self.serve: subprocess.Popen[bytes] | None = None
        self._cli("pit", "init", "--db", self.postgres.dsn)
        self.token = self._cli("pit", "token", "add", "bench", "--role", "manager", "--db", self.postgres.dsn).strip()
        asyncio.run(_stream(self.nats.url))

    def _cli(self, *args: str) -> str:
        return subprocess.run([sys.executable, "-m", "ui.cli", *args], capture_output=True, text=True, check=True).stdout

    def start_serving(self) -> None:
        log = open(self.folder / "pit-serve.log", "ab")
        self.serve = subprocess.Popen([sys.executable, "-m", "ui.cli", "pit", "serve", "--nats", self.nats.url,
                                       "--db", self.postgres.dsn, "--http", self.http], stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.get("/api/tables")
                return
            except (httpx.HTTPError, OSError):
                if self.serve.poll() is not None:
                    raise SystemExit(f"pit serve stopped: see {self.folder / 'pit-serve.log'}")
                time.sleep(0.1)
        raise SystemExit("pit serve did not answer within 60 s")

    def get(self, path: str) -> Any:
        answer = httpx.get(f"http://{self.http}{path}", headers={"Authorization": f"Bearer {self.token}"}, timeout=10)
        answer.raise_for_status()
        return answer.json()

    def stop_serving(self) -> None:
        if self.serve is not None:
            self.serve.terminate()
            try:
                self.serve.wait(30)
            except subprocess.TimeoutExpired:
                self.serve.kill()
                self.serve.wait()
            self.serve = None

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
    args = parser.parse_args(argv)
    if args.short:
        args.rounds, args.passes, args.backlog, args.tables, args.minutes = 3, 1, 600, 5, 2
    round_s = 6.0 if args.short else 60.0
    folder = Path(tempfile.mkdtemp(prefix="da-pit-bench-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        print(f"1. card latency: {args.passes} passes, each of {args.rounds} rounds on pseudo-terminals without the pit,"
              " with it up, with it down")
        _latency_report(latency_passes(folder, args.rounds, args.passes))
        if importlib.util.find_spec("pit.commands") is None or importlib.util.find_spec("pit.service.web") is None:
            print("2, 3. skipped: `pit serve` (pit.commands, pit.service.web) is not installed here")
            return 0
        pit = Pit(folder)
        try:
            pit.start_serving()
            total, seconds, rate, ingest = backlog(pit, folder, args.backlog)
            verdict = "" if args.short else " " + ("met" if ingest >= BACKLOG_TARGET else "MISSED")
            print(f"2. backlog: {total} records sent and stored in {seconds:.2f} s: {rate:,.0f} records/s end to end;"
                  f" ingest {ingest:,.0f} records/s from the first stored to the last (target >= {BACKLOG_TARGET:,.0f}){verdict}")
            total, seconds, rate, ingest = backlog(pit, folder, args.backlog, waiting=True)
            verdict = "" if args.short else " " + ("met" if ingest >= BACKLOG_TARGET else "MISSED")
            print(f"   the same, waiting in the stream while the pit service was down: {total} records stored"
                  f" {seconds:.2f} s after it started again ({rate:,.0f} records/s with its start);"
                  f" ingest {ingest:,.0f} records/s from the first stored to the last{verdict}")
            if args.tables == 0:
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

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
import tempfile
import time
from dataclasses import dataclass

import httpx
import nats
import psycopg

from benchmarks.pit_failover import TAKEOVER_TARGET_S, failover  # noqa: E402
from benchmarks.pit_latency import latency_passes, latency_report  # noqa: E402
from benchmarks.pit_parts import POLL_S, RECORDS_PER_ROUND, Pit, backlog, bench_journal, figure_line, percentile  # noqa: E402
from dealer_assist.journal.journal_file import Record, RecordKind, read_records
from pit.stream.wire import RecordMessage, StatusMessage, journal_identity

BACKLOG_TARGET = 5000.0  # records/s
MANY_TARGET = 20_000.0  # records/s, a backlog of many journals at once
PARTS = ("1", "2", "2b", "4", "3")  # in the order they run
API_TARGET_S = 1.0


# --- 1. the table's card latency ------------------------------------------------------------------


# --- the pit: store, broker, pit serve --------------------------------------------------------------


# --- 2. the backlog ------------------------------------------------------------------------------


# --- 2b. a backlog of many journals at once -------------------------------------------------------------


def many_journals(pit: Pit, folder: Path, journals: int, records: int, tag: str) -> tuple[int, float]:
    """`records` records of `journals` journals waiting in the stream while the pit service is down, then
    ingested once it starts again: (records, records/s from the first stored to the last)."""
    rounds = max(1, records // journals // RECORDS_PER_ROUND)
    paths = [
        bench_journal(folder / f"many-{tag}-{n:03d}.db", f"M{tag}-{n:03d}", rounds, 1000 + n) for n in range(journals)
    ]
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


# --- 3. the traffic of many tables ------------------------------------------------------------------


@dataclass
class Closing:
    """A round's closing record sent: when, the round the table is on now, its rounds closed so far."""

    published: float
    next_round: int
    rounds: int
    status_seen: bool = False
    stored_seen: bool = False


def traffic(
    pit: Pit, folder: Path, tables: int, minutes: int, round_s: float = 60.0
) -> tuple[list[float], list[float], int]:
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
    async with httpx.AsyncClient(
        base_url=f"http://{pit.http}", headers={"Authorization": f"Bearer {pit.token}"}, timeout=10
    ) as web:

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
    return StatusMessage(
        table_id, journal, "nobust-4.0", head[1], "betting", None, {"shoe": "up", "peek": "up"}, head[0], 0
    )


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
            print(
                f"1. card latency: {args.passes} passes, each of {args.rounds} rounds on pseudo-terminals"
                " without the pit,"
                " with it up, with it down"
            )
            latency_report(latency_passes(folder, args.rounds, args.passes))
        if importlib.util.find_spec("pit.commands") is None or importlib.util.find_spec("pit.service.web") is None:
            print("2, 3. skipped: `pit serve` (pit.commands, pit.service.web) is not installed here")
            return 0
        pit = Pit(folder)
        try:
            pit.start_serving()
            if "2" in parts:
                total, seconds, rate, ingest = backlog(pit, folder, args.backlog)
                verdict = "" if args.short else " " + ("met" if ingest >= BACKLOG_TARGET else "MISSED")
                print(
                    f"2. backlog: {total} records sent and stored in {seconds:.2f} s: {rate:,.0f} records/s end to end;"
                    f" ingest {ingest:,.0f} records/s from the first stored to the last (target >="
                    f" {BACKLOG_TARGET:,.0f}){verdict}"
                )
                total, seconds, rate, ingest = backlog(pit, folder, args.backlog, waiting=True)
                verdict = "" if args.short else " " + ("met" if ingest >= BACKLOG_TARGET else "MISSED")
                print(
                    f"   the same, waiting in the stream while the pit service was down: {total} records stored"
                    f" {seconds:.2f} s after it started again ({rate:,.0f} records/s with its start);"
                    f" ingest {ingest:,.0f} records/s from the first stored to the last{verdict}"
                )
            if "2b" in parts:
                print(
                    f"2b. a backlog of many journals at once, waiting in the stream while the pit service was down"
                    f" ({args.many:,} records each time; target >= {MANY_TARGET:,.0f} records/s):"
                )
                counts = [1, 10] if args.short else [1, 10, 50, 200]
                for order, tag in ((counts, "a"), (list(reversed(counts)), "b")):  # each count twice, in turn
                    for journals in order:
                        total, ingest = many_journals(pit, folder, journals, args.many, f"{tag}{journals}")
                        verdict = "" if args.short else " " + ("met" if ingest >= MANY_TARGET else "MISSED")
                        print(f"   {journals:>4} journals: {total:,} records, ingest {ingest:,.0f} records/s{verdict}")
            if "4" in parts:
                found = failover(
                    pit,
                    folder,
                    10 if args.short else 40,
                    100 if args.short else 400,
                    3 if args.short else 5,
                    12 if args.short else 15,
                )
                verdict = "" if args.short else " " + ("met" if found.took_over_s < TAKEOVER_TARGET_S else "MISSED")
                print(
                    f'4. failover: the ingesting pit service killed; the other\'s /api/health said "ingest"'
                    f" {found.took_over_s:.2f} s after (target < {TAKEOVER_TARGET_S:.0f} s){verdict}; ingest"
                    " stood still"
                    f" {found.stood_still_s:.2f} s"
                )
                print(
                    "   "
                    + figure_line(
                        "status freshness on the store across the failover (age of each table's status)",
                        found.ages,
                        "ms",
                        1000,
                    )
                )
            if args.tables == 0 or "3" not in parts:
                return 0
            print(
                f"3. traffic: {args.tables} tables at one round every {round_s:.0f} s for {args.minutes} rounds,"
                " status every 5 s"
            )
            statuses, rounds, sent = traffic(pit, folder, args.tables, args.minutes, round_s)
            print(f"  {sent} records sent; API polled every {POLL_S * 1000:.0f} ms (included in the delays)")
            print("  " + figure_line("record -> table's round on the API (status)", statuses, "ms", 1000))
            print("  " + figure_line("record -> closed round stored, on the API ", rounds, "ms", 1000))
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

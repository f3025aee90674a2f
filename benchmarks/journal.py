"""Journal figures: durable appends per second, and the time to verify and to restart a long journal.

A long journal is played by the bench table on a RAM disk when there is one (`--rounds`, default
10,000 closed rounds, then part of one more, so a restart has an open round to replay). Its first
records are then appended again, with the production settings (WAL, synchronous=FULL: each append
is on disk when it returns), to a real file in `--dir` (default the system temp folder). The
disk's own rate of 4 KiB writes each followed by fdatasync, in the same folder just before and
just after, shows the ceiling that figure had while it was taken.
Last, the long journal is verified and restarted twice: sealed after a clean close, and as a kill
leaves it (no seal, the open round still in the WAL).
Run: `python benchmarks/journal.py [--rounds 10000] [--appends 2000] [--dir DIR] [--short]`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from itertools import islice
from pathlib import Path

from dealer_assist.journal.journal_file import Journal, Verdict, read_records, verify
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.session import TableConfig
from devices.table_owner.controller import TableController

OPEN_ROUND_INPUTS = 12  # inputs of the round a kill interrupts
BLOCK = 4096  # one WAL frame of a small record


def raw_fsyncs(folder: Path, count: int) -> float:
    """Rewrites of one block of a file, each followed by fdatasync, per second: what one append,
    which costs one such write and sync in the WAL, can reach on this disk at best."""
    path = folder / "fsync.probe"
    handle = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        os.pwrite(handle, b"\0" * BLOCK, 0)
        os.fsync(handle)
        start = time.perf_counter()
        for i in range(count):
            os.pwrite(handle, i.to_bytes(4, "little") * (BLOCK // 4), 0)
            os.fdatasync(handle)
        return count / (time.perf_counter() - start)
    finally:
        os.close(handle)
        path.unlink()


def play(folder: Path, rounds: int) -> TableController:
    """A table left open in the middle of the round after `rounds` closed ones."""
    table = TableController.open(folder / f"rounds-{rounds}.db", TableConfig("BENCH", "nobust-4.0"))
    player = BenchPlayer(3)

    def move() -> None:
        if (refused := table.submit(player.next_input(table.facts()))) is not None:
            raise refused

    while table.rounds_closed < rounds:
        move()
    for _ in range(OPEN_ROUND_INPUTS):
        move()
    return table


def crash_image(path: Path, copy: Path) -> Path:
    """The journal's files as a kill leaves them: database and WAL, no seal."""
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    return copy


def durable_appends(folder: Path, source: Path, count: int) -> tuple[float, list[float]]:
    """The first `count` records of `source` appended again: rounds of real inputs, each round
    ending in its closing record. Returns appends per second and each append's seconds, sorted."""
    records = list(islice(read_records(source), count))
    journal = Journal(folder / "appends.db", Verdict(True, 0, "new"))
    took = []
    start = time.perf_counter()
    for record in records:
        before = time.perf_counter()
        journal.append(record.kind, record.body, record.round_id)
        took.append(time.perf_counter() - before)
    elapsed = time.perf_counter() - start
    journal.close()
    return len(records) / elapsed, sorted(took)


def restart(path: Path) -> tuple[float, float, TableController]:
    """Seconds to verify alone, and to open the table (verify, then the replay of the open round)."""
    start = time.perf_counter()
    verdict = verify(path)
    verified = time.perf_counter() - start
    if not verdict.ok:
        raise SystemExit(f"the benchmark journal does not verify: {verdict.message}")
    start = time.perf_counter()
    table = TableController.open(path)
    return verified, time.perf_counter() - start, table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--appends", type=int, default=2_000)
    parser.add_argument("--dir", type=Path, default=None, help="folder on the disk to measure (default: temp)")
    parser.add_argument("--short", action="store_true", help="100 rounds and 100 appends, only to check it runs")
    args = parser.parse_args()
    rounds, appends = (100, 100) if args.short else (args.rounds, args.appends)
    shm = Path("/dev/shm")
    disk = Path(tempfile.mkdtemp(prefix="journal-bench-", dir=args.dir))
    ram = Path(tempfile.mkdtemp(prefix="journal-bench-", dir=shm if shm.is_dir() else disk))
    try:
        start = time.perf_counter()
        table = play(ram, rounds)
        played = time.perf_counter() - start
        killed = crash_image(table.journal_path, ram / "killed.db")
        table.close()
        sealed = table.journal_path
        print(
            f"journal: {rounds:,} rounds closed + {OPEN_ROUND_INPUTS} inputs, {table.records_written:,} records, "
            f"{sealed.stat().st_size / 1e6:.1f} MB (played in {played:.0f} s, {ram})"
        )

        before = raw_fsyncs(disk, max(appends, 200))
        rate, took = durable_appends(disk, sealed, appends)
        after = raw_fsyncs(disk, max(appends, 200))
        print(
            f"raw fsync: {before:,.0f} per second before the appends, {after:,.0f} after "
            f"(4 KiB rewrite + fdatasync, {disk})"
        )
        print(
            f"durable appends: {rate:,.0f} per second ({len(took)} records of the journal, WAL + synchronous=FULL); "
            f"per append p50 {took[len(took) // 2] * 1e3:.2f} ms, p99 {took[len(took) * 99 // 100] * 1e3:.2f} ms, "
            f"max {took[-1] * 1e3:.2f} ms"
        )

        for name, path in (("sealed after a clean close", sealed), ("as a kill left it", killed)):
            verified, opened, reopened = restart(path)
            print(
                f"{name}: verify {verified:.2f} s; restart (verify + recovery of round "
                f"{reopened.facts().round_id}) {opened:.2f} s"
            )
            reopened.close()
    finally:
        shutil.rmtree(ram, ignore_errors=True)
        shutil.rmtree(disk, ignore_errors=True)


if __name__ == "__main__":
    main()

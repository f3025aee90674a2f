"""Journal figures: durable appends per second, and verify + recovery time of a long journal.

Appends go to a real file on the project's disk (`--dir`, default the system temp folder) with
the production settings (WAL, synchronous=FULL: each append is on disk when it returns). The
long journal is played by the bench table, then verified and reopened as a restart would.
Run: `python benchmarks/journal.py [--rounds 10000] [--appends 2000] [--short]`.
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from dealer_assist.bench import BenchPlayer
from dealer_assist.journal import Journal, RecordKind, Verdict, verify
from dealer_assist.table import Table
from dealer_assist.table_session import TableConfig

SAMPLE = {"input": {"type": "CardDrawn", "card": "TS"}, "now": 1.8e9,
          "ops": [{"type": "CardAssigned", "card": "TS", "seat": 3, "hand": 0, "use": "hit", "hidden": False}]}


def durable_appends(folder: Path, count: int) -> float:
    path = folder / "appends.db"
    journal = Journal(path, Verdict(True, 0, "new"))
    start = time.perf_counter()
    for _ in range(count):
        journal.append(RecordKind.INPUT, SAMPLE, 1)
    elapsed = time.perf_counter() - start
    journal.close()
    return count / elapsed


def long_journal(folder: Path, rounds: int) -> Path:
    path = folder / f"rounds-{rounds}.db"
    table = Table.open(path, TableConfig("BENCH", "nobust-4.0"))
    player = BenchPlayer(3)
    while table.rounds_closed < rounds:
        table.submit(player.next_input(table.session))
    table.close()
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--appends", type=int, default=2_000)
    parser.add_argument("--dir", type=Path, default=None, help="folder on the disk to measure (default: temp)")
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args()
    rounds, appends = (100, 100) if args.short else (args.rounds, args.appends)
    folder = Path(tempfile.mkdtemp(prefix="journal-bench-", dir=args.dir))
    try:
        rate = durable_appends(folder, appends)
        print(f"durable appends: {rate:,.0f} per second ({appends} appends, WAL + synchronous=FULL, {folder})")
        shm = Path("/dev/shm")
        play_folder = Path(tempfile.mkdtemp(prefix="journal-bench-", dir=shm if shm.is_dir() else folder))
        try:
            path = long_journal(play_folder, rounds)
            start = time.perf_counter()
            verdict = verify(path)
            verified = time.perf_counter() - start
            start = time.perf_counter()
            table = Table.open(path)  # verifies again, then restores the session from the journal
            opened = time.perf_counter() - start
            table.close()
            print(f"journal: {rounds} rounds, {verdict.records} records, {path.stat().st_size / 1e6:.1f} MB")
            print(f"verify: {verified:.2f} s; restart (verify + recovery): {opened:.2f} s")
        finally:
            shutil.rmtree(play_folder, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

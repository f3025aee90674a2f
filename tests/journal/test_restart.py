"""A table restarted from its journal, cleanly or as a kill leaves it, goes on as if never stopped."""

from __future__ import annotations

import shutil
from pathlib import Path

from journal_helpers import bench_journal

from dealer_assist.journal.journal_file import RecordKind, read_records, verify
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.table_facts import table_facts

CONFIG = TableConfig("T-1", "c21-8.0")


def recorded_inputs(path: Path) -> list[dict]:
    return [r.body["input"] for r in read_records(path) if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)]


def killed(table: Table, copy: Path) -> Path:
    """The files a kill would leave at this moment: database and WAL, never closed or sealed."""
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{table.path}{suffix}", f"{copy}{suffix}")
    table.close()
    return copy


def test_restarts_mid_round_cleanly_or_killed_record_the_inputs_of_an_uninterrupted_run(journal_dir):
    rounds = 8
    reference = bench_journal(journal_dir / "reference.db", rounds, profile="c21-8.0", seed=5)
    table, player = Table.open(journal_dir / "run-0.db", CONFIG), BenchPlayer(5)
    restarts = 0
    while table.rounds_closed < rounds:
        table.submit(player.next_input(table_facts(table.session)))
        if table.journal.seq % 37 == 0:  # lands anywhere in a round, at a close now and then
            closed, round_id = table.rounds_closed, table.session.round_id
            restarts += 1
            if restarts % 2:
                table.close()
                path = table.path
            else:
                path = killed(table, journal_dir / f"run-{restarts}.db")
            table, player = Table.open(path), BenchPlayer(5)
            assert (table.rounds_closed, table.session.round_id) == (closed, round_id)
    table.close()
    assert restarts >= 4
    assert verify(table.path).ok
    assert recorded_inputs(table.path) == recorded_inputs(reference)


def test_each_round_close_moves_the_wal_into_the_file_so_the_next_round_reuses_it(journal_dir):
    path = bench_journal(journal_dir / "wal.db", 60)
    table = Table.open(path)
    wal = Path(f"{path}-wal")
    player = BenchPlayer(1)
    while table.rounds_closed < 120:
        table.submit(player.next_input(table_facts(table.session)))
        # 60 rounds of about 27 one-frame commits would grow the WAL to 6 MB without a checkpoint,
        # and to 4 MB with SQLite's own one every 1,000 frames, taken in the middle of a round.
        assert wal.stat().st_size < 1_000_000
    table.close()
    assert verify(path).ok

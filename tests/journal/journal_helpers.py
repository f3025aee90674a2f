"""Shared helpers of the journal tests: a hand-moved clock and bench-played journals."""

from __future__ import annotations

from pathlib import Path

from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.table_facts import table_facts


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def play(table: Table, rounds: int, seed: int = 1) -> None:
    player = BenchPlayer(seed)
    while table.rounds_closed < rounds:
        table.submit(player.next_input(table_facts(table.session)))


def bench_journal(path: Path, rounds: int, profile: str = "nobust-4.0", seed: int = 1) -> Path:
    table = Table.open(path, TableConfig("T-1", profile))
    play(table, rounds, seed)
    table.close()
    return path

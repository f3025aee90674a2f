"""Record sinks see every durable append in order; recall, export, replay and verify read any
record source the same way they read the table's own file."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterator
from typing import Any

from journal_helpers import bench_journal

from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.journal_file import Record, RecordKind, read_records
from dealer_assist.journal.record_source import SqliteRecords, verify_source
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.header import table_config
from dealer_assist.table.journaled_table import Table, replay
from dealer_assist.table.session import TableConfig
from dealer_assist.table.table_facts import table_facts


class ListRecords:
    """A journal held as a list, as a central store would hand it over."""

    def __init__(self, records: list[Record]) -> None:
        self.held = records

    @property
    def name(self) -> str:
        return "pit:T-1/1"

    def records(self, since: int = 0) -> Iterator[Record]:
        return iter([r for r in self.held if r.seq > since])

    def record_at(self, seq: int) -> Record:
        found = [r for r in self.held if r.seq == seq]
        if not found:
            raise KeyError(f"{self.name}: no record {seq}")
        return found[0]

    def round_records(self, first: int, last: int | None = None) -> Iterator[Record]:
        start = next(r.seq for r in self.held if r.round_id is not None and r.round_id >= first)
        for record in self.held:
            if record.seq < start:
                continue
            if last is not None and record.round_id is not None and record.round_id > last:
                return
            yield record

    def last_round_id(self) -> int | None:
        ids = [r.round_id for r in self.held if r.round_id is not None]
        return ids[-1] if ids else None

    def security_events(self) -> list[dict[str, Any]]:
        return [r.body for r in self.held if r.kind is RecordKind.SECURITY]


def test_a_sink_sees_every_append_of_a_bench_run_in_order_and_they_equal_the_journal(journal_dir, caplog):
    path = journal_dir / "sunk.db"
    table = Table.open(path, TableConfig("T-1", "nobust-4.0"))
    seen: list[Record] = []
    table.journal.add_sink(seen.append)

    def broken(record: Record) -> None:
        raise ValueError("the card room's queue is gone")

    table.journal.add_sink(broken)
    player = BenchPlayer(9)
    with caplog.at_level(logging.ERROR, logger="dealer_assist.journal.journal_file"):
        while table.rounds_closed < 30:
            table.submit(player.next_input(table_facts(table.session)))
    table.set_pin("1357")
    table.note_device({"device": "shoe", "type": "LinkChanged", "state": "up"})
    table.close()
    written = list(read_records(path))
    assert seen == written[1:], "every record after the header, the moment it was durable, in order"
    assert "a record sink failed on record 2" in caplog.text, "a failing sink is logged and the table went on"


def test_recall_export_replay_and_verify_read_any_record_source(journal_dir):
    path = bench_journal(journal_dir / "source.db", 12, seed=3)
    held = ListRecords(list(read_records(path)))
    assert recall(held) == recall(SqliteRecords(path)) == recall(path)
    assert recall(held, last=3) == recall(path, last=3)
    assert recall(held, round_id=7) == recall(path, round_id=7)
    exported, from_file = export_round(held, 7), export_round(path, 7)
    assert exported["meta"].pop("journal") == "pit:T-1/1" and from_file["meta"].pop("journal") == str(path)
    assert exported == from_file
    config = table_config(held)
    assert config == table_config(path)
    assert replay(held, config, None).checkpoint == replay(path, config, None).checkpoint
    verdict = verify_source(held)
    assert verdict.ok and verdict.records == len(held.held) and verdict.closed == 12
    assert verify_source(SqliteRecords(path)).records == verdict.records


def test_a_source_with_an_altered_or_missing_record_fails_verify_naming_it(journal_dir):
    records = list(read_records(bench_journal(journal_dir / "bad.db", 3, seed=2)))
    altered = list(records)
    altered[9] = dataclasses.replace(altered[9], body={**altered[9].body, "now": 0})
    verdict = verify_source(ListRecords(altered))
    assert not verdict.ok and verdict.first_bad == 10 and "record 10 does not match its hash" in verdict.message
    verdict = verify_source(ListRecords(records[:4] + records[5:]))
    assert not verdict.ok and verdict.first_bad == 5 and "record 5 is missing" in verdict.message

"""Journal first: an input changes nothing in memory until its record is durable. A record the
disk refuses stops the table where its journal ends; opening it again resumes there."""

from __future__ import annotations

import pytest

from dealer_assist.journal.journal_file import read_records, verify
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.inputs import Action, Decide
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.journaled_table import Table, TableStopped
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import SettlementConfirmed
from dealer_assist.table.snapshot import build_table_snapshot
from dealer_assist.table.table_facts import table_facts


def _fill_the_disk(table: Table) -> None:
    """SQLite's own limit on the file's pages: the next record that needs a page fails as on a full disk."""
    (pages,) = table.journal.db.execute("PRAGMA page_count").fetchone()
    table.journal.db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_record_the_disk_refuses_stops_the_table_where_its_journal_ends(journal_dir):
    path = journal_dir / "full.db"
    table = Table.open(path, TableConfig("T-1", "nobust-4.0"))
    player = BenchPlayer(5)
    while table.rounds_closed < 2 or table.session.tracker is None or len(table.session.round_inputs) < 4:
        table.submit(player.next_input(table_facts(table.session)))
    _fill_the_disk(table)
    durable_before = build_table_snapshot(table.session)
    with pytest.raises(TableStopped) as stopped:
        while True:
            durable_before = build_table_snapshot(table.session)
            table.submit(player.next_input(table_facts(table.session)))
    assert "could not be written" in str(stopped.value) and "database or disk is full" in str(stopped.value)
    failed_at = table.journal.seq + 1
    assert f"record {failed_at}" in str(stopped.value)
    assert table.stopped == str(stopped.value)
    assert build_table_snapshot(table.session) == durable_before, "the input that failed changed nothing"
    with pytest.raises(TableStopped):
        table.submit(player.next_input(table_facts(table.session)))
    with pytest.raises(TableStopped):
        table.note_device({"device": "shoe", "type": "LinkChanged", "state": "down"})
    table.close()

    records = list(read_records(path))
    assert len(records) == failed_at - 1, "nothing was written after the failure"
    assert verify(path).ok
    again = Table.open(path)
    assert build_table_snapshot(again.session) == durable_before, "the restart resumes at the last durable input"
    while again.rounds_closed < 4:
        again.submit(player.next_input(table_facts(again.session)))
    again.close()
    assert verify(path).ok
    assert [r.seq for r in read_records(path)][: failed_at - 1] == [r.seq for r in records]


def test_a_pin_try_the_disk_refuses_counts_only_the_tries_journaled(journal_dir):
    path = journal_dir / "pin.db"
    table = Table.open(path, TableConfig("T-1", "nobust-4.0"), clock=lambda: 1_800_000_000.0)
    table.set_pin("2468")
    _fill_the_disk(table)
    with pytest.raises(TableStopped):
        for _ in range(200):
            try:
                table.check_pin("1111")
            except RuleError as error:
                assert error.code in ("wrong_pin", "pin_locked")
    in_memory = (table.pins.wrong, table.pins.locked_until)
    table.close()
    again = Table.open(path, clock=lambda: 1_800_000_000.0)
    assert (again.pins.wrong, again.pins.locked_until) == in_memory, "no try counted that the journal lacks"
    again.close()


def test_refused_inputs_between_accepted_ones_leave_the_session_where_its_journal_replays_to(journal_dir):
    path = journal_dir / "refused.db"
    table = Table.open(path, TableConfig("T-1", "sd-buster-a"))
    player = BenchPlayer(9)
    refused = 0
    for step in range(600):
        if step % 7 == 3:  # a tap the rules refuse: a decision nobody owes, a settlement not due
            wrong = Decide(1, 5, Action.STAND) if step % 2 else SettlementConfirmed()
            try:
                table.submit(wrong)
            except RuleError:
                refused += 1
        table.submit(player.next_input(table_facts(table.session)))
    in_memory, carried = build_table_snapshot(table.session), table.session.between_rounds()
    table.close()
    assert refused > 50 and table.rounds_closed > 5
    again = Table.open(path)
    assert build_table_snapshot(again.session) == in_memory and again.session.between_rounds() == carried
    again.close()

"""Opening a table to write to it is one door: the journal's lock and the check that the journal is
this table's are taken by opening the table, whoever opens it; the table's owner keeps its table,
journal and tracker to itself and publishes what others read."""

from __future__ import annotations

import json
import os

import pytest

from dealer_assist.journal.errors import JournalError, JournalInUse
from dealer_assist.journal.journal_file import RecordKind, read_records, verify
from dealer_assist.journal.lock import lock_path
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.journaled_table import Table, TableStopped
from dealer_assist.table.roster import ROSTER_FILE
from dealer_assist.table.session import TableConfig
from devices.table_owner.controller import TableController
from hw_sims.bench_command import main as bench


def test_a_second_opening_of_a_held_journal_is_refused_naming_the_holder(tmp_path):
    path = tmp_path / "t.db"
    held = TableController.open(path, TableConfig("T1", "nobust-4.0"))
    try:
        with pytest.raises(JournalInUse) as refused:
            Table.open(path)
        assert (
            refused.value.code == "journal_in_use" and f"in use by process {os.getpid()} on " in refused.value.message
        )
    finally:
        held.close()
    assert not lock_path(path).exists(), "closing the table gives up its lock"
    Table.open(path).close()


def test_bench_resume_on_a_journal_a_table_holds_exits_2_naming_the_holder(tmp_path, capsys):
    path = tmp_path / "t.db"
    assert bench(["--journal", str(path), "--rounds", "1", "--links", "in-process"]) == 0
    capsys.readouterr()
    held = TableController.open(path)
    try:
        assert bench(["--journal", str(path), "--rounds", "2", "--links", "in-process", "--resume"]) == 2
        error = json.loads(capsys.readouterr().out)["error"]
        assert error["code"] == "journal_in_use" and f"process {os.getpid()}" in error["message"]
    finally:
        held.close()
    assert bench(["--journal", str(path), "--rounds", "2", "--links", "in-process", "--resume"]) == 0


def test_a_start_naming_another_table_is_refused_by_opening_it(tmp_path, capsys):
    path = tmp_path / "t.db"
    assert bench(["--journal", str(path), "--rounds", "1", "--links", "in-process", "--profile", "c21-8.0"]) == 0
    capsys.readouterr()
    assert (
        bench(["--journal", str(path), "--rounds", "2", "--links", "in-process", "--resume", "--profile", "nobust-4.0"])
        == 2
    )
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "other_table" and "--profile says profile 'nobust-4.0'" in error["message"]
    assert not lock_path(path).exists(), "a refused opening leaves no lock behind"


def test_the_owner_keeps_its_table_journal_and_tracker_to_itself(tmp_path):
    controller = TableController.open(tmp_path / "t.db", TableConfig("T1", "nobust-4.0"))
    try:
        for kept in ("table", "journal", "tracker", "refused", "next_input", "expected_peek_answer"):
            assert not hasattr(controller, kept), kept
        player = BenchPlayer(3)
        while controller.rounds_closed < 1:
            assert controller.submit(player.next_input(controller.facts())) is None
        assert controller.records_written == len(list(read_records(controller.journal_path)))
    finally:
        controller.close()


def test_an_input_that_works_out_otherwise_when_taken_than_when_recorded_stops_the_table(tmp_path):
    path = tmp_path / "t.db"
    table = Table.open(path, TableConfig("T1", "nobust-4.0"))
    controller = TableController(table)
    player = BenchPlayer(5)
    for _ in range(3):
        assert controller.submit(player.next_input(controller.facts())) is None
    event = player.next_input(controller.facts())
    taken = table.session.apply
    table.session.apply = lambda e, now: taken(e, now) + ("a stray operation",)  # type: ignore[method-assign]
    refusal = controller.submit(event)
    assert refusal is not None and refusal.code == "table_stopped"
    assert (
        "worked out to other operations when taken than when it was recorded" in controller.snapshot.attention.message
    )
    with pytest.raises(TableStopped):
        table.submit(event)
    written = list(read_records(path))
    assert written[-1].kind is RecordKind.INPUT, "the record written is the one the trial worked out"
    table.close()
    assert verify(path).ok


def test_the_supervisors_snapshot_is_published_while_their_screens_listen(tmp_path):
    path = tmp_path / "t.db"
    controller = TableController.open(path, TableConfig("T1", "nobust-4.0"))
    try:
        (tmp_path / ROSTER_FILE).write_text("floor-1\nfloor-2\n")
        heard = []
        stop = controller.subscribe_supervisor(heard.append)
        player = BenchPlayer(2)
        controller.submit(player.next_input(controller.facts()))
        assert len(heard) == 1 and heard[0].roster == ("floor-1", "floor-2"), "the roster as the screens opened"
        (tmp_path / ROSTER_FILE).write_text("someone else\n")
        controller.set_pin("2468")
        assert heard[-1].has_pin and heard[-1].roster == ("floor-1", "floor-2"), "read once while they are open"
        stop()
        controller.submit(player.next_input(controller.facts()))
        assert len(heard) == 2, "nothing is built for screens that are closed"
    finally:
        controller.close()
    with pytest.raises(JournalError) as none:
        TableController.open(tmp_path / "none.db")
    assert none.value.code == "no_journal"

"""Recall and export: the supervisor's proof is the same ledger the table recorded."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest
from journal_helpers import bench_journal, play

from dealer_assist.history.recall import HIDDEN, export_round, recall
from dealer_assist.journal.journal_file import (
    GENESIS,
    RecordKind,
    canonical_json,
    last_round_id,
    read_records,
    record_hash,
    round_records,
    seal_path,
)
from dealer_assist.journal.record_source import SqliteRecords, closing_record
from dealer_assist.play.round_file import settle_round
from dealer_assist.table.header import table_config
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.table_facts import table_facts


@pytest.mark.slow
def test_1000_bench_rounds_export_to_round_files_that_settle_to_the_recorded_ledgers(journal_dir):
    path = bench_journal(journal_dir / "thousand.db", 1000, profile="nobust-4.0", seed=5)
    rounds = recall(path)
    assert len(rounds) == 1000
    for entry in rounds:
        assert entry["closed"] and entry["ledger"] is not None
        assert settle_round(export_round(path, entry["round_id"])) == entry["ledger"], entry["round_id"]


def test_exports_of_every_profile_settle_to_the_recorded_ledgers(journal_dir):
    for profile in ("c21-8.0", "sd-buster-f"):
        path = bench_journal(journal_dir / f"{profile}.db", 60, profile=profile, seed=9)
        for entry in recall(path):
            assert settle_round(export_round(path, entry["round_id"])) == entry["ledger"]


@pytest.mark.slow
def test_recall_shows_at_least_the_last_10_rounds_with_inputs_operations_and_ledger(journal_dir):
    path = bench_journal(journal_dir / "recall.db", 14)
    out = subprocess.run(
        [sys.executable, "-m", "ui.cli", "journal", "recall", str(path), "--json"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout
    shown = json.loads(out.stdout)
    assert [entry["round_id"] for entry in shown] == list(range(5, 15))
    for entry in shown:
        assert entry["inputs"] and entry["operations"] and entry["ledger"]["format"] == "ledger-v1"
    one = subprocess.run(
        [sys.executable, "-m", "ui.cli", "journal", "recall", str(path), "--round", "3"], capture_output=True, text=True
    )
    assert one.returncode == 0 and one.stdout.startswith("Round 3") and "\nLedger:\n" in one.stdout
    exported = subprocess.run(
        [sys.executable, "-m", "ui.cli", "journal", "export", str(path), "7"], capture_output=True, text=True
    )
    assert exported.returncode == 0
    assert settle_round(json.loads(exported.stdout)) == recall(path, round_id=7)[0]["ledger"]
    nothing = subprocess.run(
        [sys.executable, "-m", "ui.cli", "journal", "export", str(path), "99"], capture_output=True, text=True
    )
    assert nothing.returncode == 2 and json.loads(nothing.stdout)["error"]["code"] == "no_such_round"


def test_recall_of_some_rounds_reads_from_where_they_start_and_matches_a_full_reading(journal_dir):
    path = bench_journal(journal_dir / "some.db", 40, seed=4)
    everything = recall(path)
    assert recall(path, last=10) == everything[-10:]
    assert recall(path, last=100) == everything
    for round_id in (1, 2, 17, 40):
        assert recall(path, round_id=round_id) == [everything[round_id - 1]]
        assert closing_record(SqliteRecords(path), round_id).seq == everything[round_id - 1]["records"][1]
    read = list(round_records(path, 31, 31))
    first = next(r for r in read if r.round_id is not None)
    assert first.seq == everything[30]["records"][0] and first.round_id == 31, "reading starts where round 31 does"
    assert all(r.round_id is None for r in read if r.seq < first.seq)
    assert {r.round_id for r in read} == {None, 31}
    assert last_round_id(path) == 40


def test_recall_of_an_open_round_masks_the_hole_card_until_it_is_revealed(journal_dir):
    table = Table.open(journal_dir / "open.db", TableConfig("T-2", "c21-8.0"))
    play(table, 3, seed=2)
    from dealer_assist.play.bench import BenchPlayer

    player = BenchPlayer(2)
    while table.session.tracker is None or table.session.tracker.phase.value in ("betting", "dealing"):
        table.submit(player.next_input(table_facts(table.session)))
    hole = [
        op
        for r in read_records(table.path)
        if r.kind is RecordKind.INPUT and r.round_id == table.session.round_id
        for op in r.body["ops"]
        if op["type"] == "CardAssigned" and op.get("hidden")
    ]
    assert hole, "the c21 dealer got a hole card"
    entry = recall(table.path, round_id=table.session.round_id)[0]
    assert not entry["closed"]
    shown = json.dumps(entry)
    assert hole[0]["card"] not in [op.get("card") for op in entry["operations"] if op.get("hidden")]
    assert any(op.get("card") == HIDDEN for op in entry["operations"]) and HIDDEN in shown
    table.close()


def _as_written_before_live_steps(path) -> None:
    """The header as a journal of an earlier version wrote it: no `live_steps`, the chain recomputed."""
    db = sqlite3.connect(path)
    prev = GENESIS
    for record in read_records(path):
        body = record.body
        if record.seq == 1:
            body = dict(body, config={k: v for k, v in body["config"].items() if k != "live_steps"})
        text = canonical_json(body)
        prev = record_hash(prev, record.seq, record.wall, record.mono_ns, record.round_id, record.kind.value, text)
        db.execute("UPDATE records SET body = ?, hash = ? WHERE seq = ?", (text, prev, record.seq))
    db.commit()
    db.close()
    seal_path(path).unlink(missing_ok=True)


def test_a_journal_recorded_before_the_live_steps_replays_recalls_and_exports_as_it_was_dealt(journal_dir):
    """Its rounds have no "No more bets" and no "Paid" (TableConfig.live_steps 0): they still
    export to round files that settle to their ledgers, and the table reopens and deals on."""
    path = journal_dir / "older.db"
    table = Table.open(path, TableConfig("T-1", "nobust-4.0", live_steps=0))
    play(table, 12, seed=3)
    table.close()
    assert not any(
        record.body.get("input", {}).get("type") in ("NoMoreBets", "PaymentsMade")
        for record in read_records(path)
        if record.kind is RecordKind.INPUT
    )
    _as_written_before_live_steps(path)
    assert table_config(path).live_steps == 0
    for entry in recall(path):
        assert settle_round(export_round(path, entry["round_id"])) == entry["ledger"]
    reopened = Table.open(path)
    play(reopened, 14, seed=4)
    reopened.close()
    assert any(entry["ledger"]["settlements"] for entry in recall(path, round_id=14))

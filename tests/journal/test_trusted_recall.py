"""`journal recall` and `journal export` verify first: a tampered journal is refused with exit 1
naming the first bad record; a file that is not a journal gets a clear error, never a traceback."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from dealer_assist.commands.journal import main
from dealer_assist.history.recall import recall
from dealer_assist.text.journal_text import describe
from dealer_assist.text.round_story import story
from tests.journal.journal_helpers import bench_journal


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    return bench_journal(tmp_path_factory.mktemp("trusted") / "t.db", 3, profile="c21-8.0")


def _tamper(path) -> int:
    """A wager changed in SQLite, as someone with the file could; returns the record changed."""
    db = sqlite3.connect(path)
    seq = db.execute("SELECT min(seq) FROM records WHERE body LIKE '%PlaceWager%'").fetchone()[0]
    db.execute("UPDATE records SET body = replace(body, '\"amount\":', '\"amount\":9') WHERE seq = ?", (seq,))
    db.commit()
    db.close()
    return seq


@pytest.mark.parametrize("command", [["recall"], ["recall", "--json"], ["export", "1"]])
def test_a_tampered_journal_is_refused_naming_the_first_bad_record(journal, tmp_path, capsys, command):
    copy = tmp_path / "copy.db"
    copy.write_bytes(journal.read_bytes())
    seq = _tamper(copy)
    assert main([command[0], str(copy), *command[1:]]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["code"] == "journal_damaged" and out["first_bad"] == seq
    assert f"record {seq}" in out["error"]["message"]


@pytest.mark.parametrize("content", [b"", b"hello, not a journal\n" * 50])
def test_a_file_that_is_not_a_journal_gets_a_clear_error(tmp_path, capsys, content):
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    for command in (["recall", str(path)], ["export", str(path), "1"]):
        assert main(command) == 2
        out = json.loads(capsys.readouterr().out)
        assert out["error"]["code"] == "not_a_journal" and "not a dealer-assist journal" in out["error"]["message"]


def test_recall_last_0_is_refused(journal, capsys):
    assert main(["recall", str(journal), "--last", "0"]) == 2
    assert "--last 0: ask for one round or more" in capsys.readouterr().out


def test_recall_text_reads_as_the_recall_screen_and_the_dispute_report(journal, capsys):
    assert main(["recall", str(journal), "--last", "3"]) == 0
    text = capsys.readouterr().out
    for entry in recall(journal, last=3):
        told = story(entry)  # what the supervisor's recall screen and the PDF print
        assert f"{told.title}   {told.span}" in text
        for step in told.steps:
            assert step.text in text and all(f"→ {op}" in text for op in step.operations)
        for row in told.ledger:
            assert re.search(r"\s+".join(map(re.escape, row.cells)), text), row
        for hand in told.hands:
            assert re.search(
                r"\s+".join(map(re.escape, (hand.owner, hand.hand or "—", hand.cards, hand.total))), text
            ), hand
    assert "Card assigned  ·  dealer · card" in text and not re.search(r"dealer[^\n]*hand \d", text), (
        "the dealer's cards have no hand"
    )
    assert "None" not in text and "_" not in text, "no journal codes: results, reasons and wagers in words"
    assert "no action" in text, "a result in words"
    assert not re.search(r"\bhand 0\b", text) and re.search(r"\bhand 1\b", text), "hands counted from 1"
    assert not re.search(r"amount \d", text) and re.search(r"amount \$\d", text), "amounts in currency"


def test_a_hands_end_reads_in_words_and_a_supervisors_reason_as_typed():
    ended = describe({"type": "HandEnded", "seat": 2, "hand": 0, "reason": "must_stand", "forced": True})
    assert ended == "Hand ended  ·  seat 2 · hand 1 · forced yes · reason must stand"
    voided = describe({"type": "RoundVoided", "round_id": 4, "supervisor": "floor_2", "reason": "wrong_shoe"})
    assert voided.endswith("supervisor floor_2 · reason wrong_shoe")

"""`journal recall` and `journal export` verify first: a tampered journal is refused with exit 1
naming the first bad record; a file that is not a journal gets a clear error, never a traceback."""
from __future__ import annotations

import json
import re
import sqlite3

import pytest

from dealer_assist.commands.journal import main
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


def test_recall_text_counts_hands_from_1_and_shows_currency(journal, capsys):
    assert main(["recall", str(journal), "--last", "1"]) == 0
    text = capsys.readouterr().out
    assert not re.search(r"amount=\d{3,}\b", text), "no cents"
    assert re.search(r"amount=\$\d", text)
    assert " hand 0 " not in text and " hand 1 " in text
    assert "lucky_lucky" not in text

"""`journal verify DB --pit URL --token FILE`: the file against what the pit witnessed, over HTTP.

The pit's side is a test double answering the two witness calls from the journal's own records
(see pit_http_double.py); against `pit serve` itself it is shown at integration."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from dealer_assist.bench import BenchPlayer
from dealer_assist.journal import read_records, seal_path
from pit.wire import journal_identity
from tests.pit.pit_http_double import TOKEN, WitnessDouble
from tests.pit.room_rig import open_bench_table, play, rewrite_chain
from ui.cli import main as cli

pytestmark = pytest.mark.slow  # an HTTP server on a thread


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    path = tmp_path / "t1.db"
    table = open_bench_table(path)
    play(table, BenchPlayer(4), 6)
    table.close()
    return path


@pytest.fixture
def token(tmp_path: Path) -> Path:
    path = tmp_path / "pit.token"
    path.write_text(TOKEN + "\n")
    return path


def _witnessed(path: Path, upto: int | None = None) -> tuple[str, list[tuple[int, str]]]:
    records = list(read_records(path))
    return journal_identity(records[0]), [(r.seq, r.hash.hex()) for r in records if upto is None or r.seq <= upto]


def _verify(path: Path, url: str, token: Path | None, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli(["journal", "verify", str(path), "--pit", url] + (["--token", str(token)] if token else []))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_journal_the_pit_saw_in_part_agrees_and_names_what_is_not_yet_witnessed(
        journal: Path, token: Path, capsys: pytest.CaptureFixture[str]) -> None:
    identity, witnessed = _witnessed(journal, upto=120)
    total = len(list(read_records(journal)))
    with WitnessDouble(identity, witnessed) as pit:
        code, text = _verify(journal, pit.url, token, capsys)
    assert code == 0, text
    assert "all 120 records the pit witnessed are in the file, unchanged" in text
    assert f"{total - 120} not yet witnessed (121-{total})" in text


def test_a_journal_cut_short_passes_alone_and_fails_against_the_pit(
        journal: Path, token: Path, capsys: pytest.CaptureFixture[str]) -> None:
    identity, witnessed = _witnessed(journal)
    head = witnessed[-1][0]
    with sqlite3.connect(journal) as db:
        db.execute("DELETE FROM records WHERE seq > ?", (head - 30,))
    seal_path(journal).unlink()
    assert cli(["journal", "verify", str(journal)]) == 0  # the file alone still verifies
    capsys.readouterr()
    with WitnessDouble(identity, witnessed) as pit:
        code, text = _verify(journal, pit.url, token, capsys)
    assert code == 1, text
    assert f"records the pit witnessed are missing from the file: {head - 29}-{head}" in text


def test_a_rewritten_journal_with_a_recomputed_chain_names_the_first_record_that_differs(
        journal: Path, token: Path, capsys: pytest.CaptureFixture[str]) -> None:
    identity, witnessed = _witnessed(journal)
    rewritten = rewrite_chain(journal, 40)
    assert cli(["journal", "verify", str(journal)]) == 0  # the chain agrees with itself
    capsys.readouterr()
    with WitnessDouble(identity, witnessed) as pit:
        code, text = _verify(journal, pit.url, token, capsys)
    assert code == 1, text
    assert f"record {rewritten} differs from the copy the pit witnessed (pit hash {witnessed[rewritten - 1][1][:16]}" in text
    with WitnessDouble(identity, witnessed) as pit:
        code = cli(["journal", "verify", str(journal), "--pit", pit.url, "--token", str(token), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 1 and answer["ok"] is False and answer["pit"]["first_differs"] == rewritten


def test_a_pit_that_refuses_the_call_is_named_and_not_taken_for_damage(
        journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    identity, witnessed = _witnessed(journal)
    with WitnessDouble(identity, witnessed) as pit:
        code, text = _verify(journal, pit.url, None, capsys)
    assert code == 2 and "the pit answered 401 (give an API token: --token FILE)" in text
    code, text = _verify(journal, "ftp://pit", None, capsys)
    assert code == 2 and "http://HOST:PORT" in text

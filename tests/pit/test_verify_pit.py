"""`journal verify DB --pit URL --token FILE`: the file against what the pit witnessed, over HTTP.

The client's cases run against a test double answering the two witness calls from the journal's own
records (see pit_http_double.py); the last test runs the whole room: a bench table ships to a real
nats-server, `pit serve` stores it in a real PostgreSQL and answers with a token from `pit token add`."""

from __future__ import annotations

import json
import shutil
import sqlite3
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from dealer_assist.journal.journal_file import read_records, seal_path
from dealer_assist.play.bench import BenchPlayer
from pit.stream.wire import journal_identity
from pit.trial.local_services import PostgresCluster
from tests.pit.journals import bench_journal, head, rewrite
from tests.pit.pit_http_double import TOKEN, WitnessDouble
from tests.pit.pit_service import fresh_database, pit_command, pit_serving, rooms_broker, wait_for
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
    journal: Path, token: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    identity, witnessed = _witnessed(journal, upto=120)
    total = len(list(read_records(journal)))
    with WitnessDouble(identity, witnessed) as pit:
        code, text = _verify(journal, pit.url, token, capsys)
    assert code == 0, text
    assert "all 120 records the pit witnessed are in the file, unchanged" in text
    assert f"{total - 120} not yet witnessed (121-{total})" in text


def test_a_journal_cut_short_passes_alone_and_fails_against_the_pit(
    journal: Path, token: Path, capsys: pytest.CaptureFixture[str]
) -> None:
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
    journal: Path, token: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    identity, witnessed = _witnessed(journal)
    rewritten = rewrite_chain(journal, 40)
    assert cli(["journal", "verify", str(journal)]) == 0  # the chain agrees with itself
    capsys.readouterr()
    with WitnessDouble(identity, witnessed) as pit:
        code, text = _verify(journal, pit.url, token, capsys)
    assert code == 1, text
    assert (
        f"record {rewritten} differs from the copy the pit witnessed (pit hash {witnessed[rewritten - 1][1][:16]}"
        in text
    )
    with WitnessDouble(identity, witnessed) as pit:
        code = cli(["journal", "verify", str(journal), "--pit", pit.url, "--token", str(token), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 1 and answer["ok"] is False and answer["pit"]["first_differs"] == rewritten


def test_a_pit_that_refuses_the_call_is_named_and_not_taken_for_damage(
    journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    identity, witnessed = _witnessed(journal)
    with WitnessDouble(identity, witnessed) as pit:
        code, text = _verify(journal, pit.url, None, capsys)
    assert code == 2 and "the pit answered 401 (give an API token: --token FILE)" in text
    code, text = _verify(journal, "ftp://pit", None, capsys)
    assert code == 2 and "http://HOST:PORT" in text


def _copy(path: Path, to: Path) -> Path:
    for suffix in ("", ".seal"):
        shutil.copy(str(path) + suffix, str(to) + suffix)
    return to


def _witnessed_head(url: str, token: Path, journal: str) -> str | None:
    request = urllib.request.Request(
        f"{url}/api/witness/{journal}", headers={"Authorization": f"Bearer {token.read_text().strip()}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return str(json.loads(answer.read())["head"])
    except urllib.error.HTTPError as error:  # 404 until the first record is stored
        if error.code == 404:
            return None
        raise


def test_against_pit_serve_on_the_real_stack_a_journal_cut_short_and_a_forged_wager_are_named(
    tmp_path: Path, postgres: PostgresCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = fresh_database(postgres)
    broker, creds = rooms_broker(dsn, tmp_path, ["T1"])
    token = tmp_path / "auditor.token"
    token.write_text(pit_command("token", "add", "auditor", "--role", "surveillance", "--db", dsn))
    try:
        with pit_serving(broker.url, dsn, tmp_path / "pit.log") as url:
            path = bench_journal(tmp_path / "t1.db", 6, 4, "T1", pit=(broker.url, creds["T1"]))
            capsys.readouterr()
            journal, last = journal_identity(next(read_records(path))), head(path)
            wait_for(
                lambda: _witnessed_head(url, token, journal) == last.hash.hex(),
                what="the journal witnessed to its head",
            )
            assert _verify(path, url, token, capsys) == (
                0,
                f"OK: {last.seq} records intact\nPIT OK: all {last.seq}"
                " records the pit witnessed are in the file, unchanged\n",
            )

            cut = _copy(path, tmp_path / "cut.db")  # the last round deleted with sqlite3, and its seal removed
            with sqlite3.connect(cut) as db:
                first = db.execute("SELECT min(seq) FROM records WHERE round_id = 6").fetchone()[0]
                db.execute("DELETE FROM records WHERE seq >= ?", (first,))
            seal_path(cut).unlink()
            assert cli(["journal", "verify", str(cut)]) == 0  # the file alone still verifies
            capsys.readouterr()
            code, text = _verify(cut, url, token, capsys)
            assert code == 1 and f"records the pit witnessed are missing from the file: {first}-{last.seq}" in text, (
                text
            )

            forged = _copy(path, tmp_path / "forged.db")  # one wager doubled, the chain recomputed from it
            wager = next(r for r in read_records(forged) if r.round_id == 3 and r.body["input"]["type"] == "PlaceWager")
            amount = wager.body["input"]["amount"]
            rewrite(
                forged,
                wager.seq,
                {
                    "input": dict(wager.body["input"], amount=2 * amount),
                    "ops": [
                        dict(op, amount=2 * amount) if op.get("amount") == amount else op for op in wager.body["ops"]
                    ],
                },
            )
            assert cli(["journal", "verify", str(forged)]) == 0  # the chain agrees with itself
            capsys.readouterr()
            code, text = _verify(forged, url, token, capsys)
            assert (
                code == 1
                and f"record {wager.seq} differs from the copy the pit witnessed (pit hash {wager.hash.hex()[:16]}"
                in text
            ), text
    finally:
        broker.stop()

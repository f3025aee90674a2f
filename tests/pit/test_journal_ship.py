"""`journal ship DB --pit URL --pit-creds FILE`: what the stream lacks, sent after an outage; the file untouched."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from dealer_assist.journal.journal_file import last_seq, read_records, seal_path
from dealer_assist.play.bench import BenchPlayer
from pit.shipping.shipper import attach_shipper
from pit.stream.wire import journal_identity
from pit.trial.local_services import free_port
from tests.pit.room_rig import Room, once_each, open_bench_table, play, start_room
from ui.cli import main as cli

pytestmark = pytest.mark.slow


@pytest.fixture
def room(tmp_path: Path):  # type: ignore[no-untyped-def]
    room = start_room(tmp_path)
    yield room
    room.server.stop()


def _fingerprint(path: Path) -> tuple[str, str]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), seal_path(path).read_text()


def _ship(path: Path, url: str, creds: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli(["journal", "ship", str(path), "--pit", url, "--pit-creds", str(creds)])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_bench_that_ended_during_an_outage_is_shipped_afterwards(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t1.db"
    table = open_bench_table(path)
    shipper = attach_shipper(table.journal.path, table.journal.add_sink, "T1", room.link("T1"))
    player = BenchPlayer(9)
    play(table, player, 5)
    assert shipper.wait_shipped(table.journal.seq, 20)
    room.server.kill()
    play(table, player, 10)  # the rest of the run with the pit away, then the table stops
    shipper.stop()
    table.close()
    before = _fingerprint(path)
    code, text = _ship(path, room.server.url, room.creds["T1"], capsys)
    assert code == 1 and "cannot be reached" in text
    room.server.start()
    code, text = _ship(path, room.server.url, room.creds["T1"], capsys)
    head = last_seq(path)
    assert code == 0 and f"holds all {head} records" in text, text
    counts = once_each(room.stream(), journal_identity(next(read_records(path))))
    assert sorted(counts) == list(range(1, head + 1)) and set(counts.values()) == {1}
    code, text = _ship(path, room.server.url, room.creds["T1"], capsys)
    assert code == 0 and "(0 sent now)" in text
    assert _fingerprint(path) == before  # the file is never changed


def test_ship_refuses_a_journal_behind_the_stream_and_another_tables_credentials(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t1.db"
    table = open_bench_table(path)
    play(table, BenchPlayer(1), 4)
    table.close()
    code, text = _ship(path, room.server.url, room.creds["T2"], capsys)  # T2's credentials for T1's journal
    assert code == 1 and "permissions violation" in text.lower()
    assert room.stream() == []
    assert _ship(path, room.server.url, room.creds["T1"], capsys)[0] == 0
    head = last_seq(path)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM records WHERE seq > ?", (head - 10,))
    code, text = _ship(path, room.server.url, room.creds["T1"], capsys)
    assert code == 1 and "DIVERGED: journal" in text and f"holds record {head}" in text


def test_ship_names_a_bad_broker_url_or_a_missing_file(
    room: Room, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = _ship(tmp_path / "none.db", room.server.url, room.creds["T1"], capsys)
    assert code == 2 and "no such journal file" in text
    path = tmp_path / "t1.db"
    open_bench_table(path).close()
    code, text = _ship(path, "http://127.0.0.1:1", room.creds["T1"], capsys)
    assert code == 2 and "nats://HOST:PORT" in text
    code, text = _ship(path, f"nats://127.0.0.1:{free_port()}", room.creds["T1"], capsys)
    assert code == 1 and "cannot be reached" in text

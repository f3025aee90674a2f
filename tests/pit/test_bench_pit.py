"""`bench --pit URL --pit-creds FILE --table-id ID`: a headless table shipping as it deals."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_assist.journal import last_seq, read_records
from hw_sims.bench_command import main as bench
from pit.wire import journal_identity
from tests.pit.room_rig import once_each, start_room

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("links", ["in-process", "pty"])
def test_a_bench_table_ships_every_record_once_and_resumes_where_the_stream_stands(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], links: str) -> None:
    room = start_room(tmp_path)
    path = tmp_path / "t1.db"
    common = ["--journal", str(path), "--table-id", "T1", "--links", links, "--pit", room.server.url,
              "--pit-creds", str(room.creds["T1"])]
    try:
        assert bench(["--rounds", "3"] + common) == 0
        assert json.loads(capsys.readouterr().out)["pit"] == "pit: up"
        assert bench(["--rounds", "6", "--resume", "--pace", "0.001"] + common) == 0
        assert json.loads(capsys.readouterr().out)["pit"] == "pit: up"
        counts = once_each(room.stream(), journal_identity(next(read_records(path))))
    finally:
        room.server.stop()
    assert sorted(counts) == list(range(1, last_seq(path) + 1)) and set(counts.values()) == {1}

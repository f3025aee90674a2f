"""`bench --pit URL --pit-creds FILE --table-id ID`: a headless table shipping as it deals."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import nats
import pytest

from dealer_assist.journal.journal_file import last_seq, read_records
from hw_sims.bench_command import main as bench
from pit.stream.wire import StatusMessage, journal_identity, parse_status_message
from tests.pit.room_rig import once_each, start_room

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("links", ["in-process", "pty"])
def test_a_bench_table_ships_every_record_once_and_resumes_where_the_stream_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], links: str
) -> None:
    room = start_room(tmp_path)
    path = tmp_path / "t1.db"
    common = [
        "--journal",
        str(path),
        "--table-id",
        "T1",
        "--links",
        links,
        "--pit",
        room.server.url,
        "--pit-creds",
        str(room.creds["T1"]),
    ]
    try:
        assert bench(["--rounds", "3"] + common) == 0
        assert json.loads(capsys.readouterr().out)["pit"] == "pit: up"
        assert bench(["--rounds", "6", "--resume", "--pace", "0.001"] + common) == 0
        assert json.loads(capsys.readouterr().out)["pit"] == "pit: up"
        counts = once_each(room.stream(), journal_identity(next(read_records(path))))
    finally:
        room.server.stop()
    assert sorted(counts) == list(range(1, last_seq(path) + 1)) and set(counts.values()) == {1}


def test_a_bench_tables_status_carries_its_device_lights(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The lights come from the table controller's device links, as `run`'s do (a hole-card game: a
    shoe and a peek device): the room's tiles show them, and the pit times a link that is down."""
    room = start_room(tmp_path)
    statuses: list[StatusMessage] = []

    async def deal_and_listen() -> int:
        client = await nats.connect(room.server.url, nkeys_seed_str=room.pit.seed)

        async def heard(message) -> None:  # type: ignore[no-untyped-def]
            statuses.append(parse_status_message(message.data))

        await client.subscribe("da.status.T1", cb=heard)
        await client.flush()
        code = await asyncio.to_thread(
            bench,
            [
                "--rounds",
                "2",
                "--journal",
                str(tmp_path / "t1.db"),
                "--table-id",
                "T1",
                "--links",
                "pty",
                "--profile",
                "c21-8.0",
                "--pit",
                room.server.url,
                "--pit-creds",
                str(room.creds["T1"]),
            ],
        )
        await client.close()
        return code

    try:
        assert asyncio.run(deal_and_listen()) == 0, capsys.readouterr().out
    finally:
        room.server.stop()
    assert statuses, "no status message arrived"
    assert statuses[-1].devices == {"shoe": "up", "peek": "up"}

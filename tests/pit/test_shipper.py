"""The table's shipper on a real nats-server: every record in the stream exactly once, whatever fails."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import nats
import pytest

from dealer_assist.journal.journal_file import last_seq, read_records, seal_path
from dealer_assist.play.bench import BenchPlayer
from pit.shipping.shipper import Shipper, attach_shipper
from pit.stream.wire import StatusMessage, journal_identity, parse_status_message
from tests.pit.room_rig import Room, once_each, open_bench_table, play, rewrite_chain, session_view, start_room

pytestmark = pytest.mark.slow
SHIPPED_S = 20.0


@pytest.fixture
def room(tmp_path: Path):  # type: ignore[no-untyped-def]
    room = start_room(tmp_path)
    yield room
    room.server.stop()


def _journal(path: Path) -> str:
    return journal_identity(next(read_records(path)))


def _all_once(room: Room, path: Path) -> None:
    counts = once_each(room.stream(), _journal(path))
    assert sorted(counts) == list(range(1, last_seq(path) + 1))
    assert set(counts.values()) == {1}


def _until(predicate, timeout: float = SHIPPED_S) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_every_record_once_with_the_broker_killed_twice_mid_run(room: Room, tmp_path: Path) -> None:
    table = open_bench_table(tmp_path / "t1.db")
    player = BenchPlayer(7)
    shipper = attach_shipper(table.journal.path, table.journal.add_sink, "T1", room.link("T1"), session_view(table))
    try:
        for _ in range(2):
            play(table, player, 15)
            room.server.kill()  # as the shipper sends: some publishes stored, some not, some unacknowledged
            play(table, player, 15)  # the table deals on with the broker gone
            assert _until(lambda: not shipper.state.up), shipper.state
            assert shipper.state.to_ship > 0 and shipper.link_text() == f"pit: down · {shipper.state.to_ship} to send"
            room.server.start()
        play(table, player, 5)
        assert shipper.wait_shipped(table.journal.seq, SHIPPED_S), shipper.state
        assert shipper.link_text() == "pit: up"
    finally:
        shipper.stop()
        table.close()
    _all_once(room, tmp_path / "t1.db")


def test_every_record_once_after_the_shipper_itself_restarts(room: Room, tmp_path: Path) -> None:
    path = tmp_path / "t1.db"
    table = open_bench_table(path)
    player = BenchPlayer(3)
    first = attach_shipper(table.journal.path, table.journal.add_sink, "T1", room.link("T1"))
    play(table, player, 10)
    first.stop()  # mid-run: what it had not sent is still in the journal
    play(table, player, 10)
    second = Shipper(path, "T1", room.link("T1")).start()  # knows nothing but what the broker says
    table.journal.add_sink(second.offer)
    try:
        play(table, player, 5)
        assert second.wait_shipped(table.journal.seq, SHIPPED_S), second.state
    finally:
        second.stop()
        table.close()
    _all_once(room, path)


def test_status_every_change_with_what_is_left_to_send(room: Room, tmp_path: Path) -> None:
    table = open_bench_table(tmp_path / "t1.db")
    statuses: list[StatusMessage] = []

    async def listen() -> None:
        client = await nats.connect(room.server.url, nkeys_seed_str=room.pit.seed)

        async def heard(message) -> None:  # type: ignore[no-untyped-def]
            statuses.append(parse_status_message(message.data))

        await client.subscribe("da.status.T1", cb=heard)
        await client.flush()
        shipper = attach_shipper(table.journal.path, table.journal.add_sink, "T1", room.link("T1"), session_view(table))
        await asyncio.sleep(0.5)
        play(table, BenchPlayer(5), 2)
        await asyncio.sleep(0.5)
        await asyncio.to_thread(shipper.stop, 5.0)
        await client.close()

    try:
        asyncio.run(listen())
    finally:
        table.close()
    assert statuses, "no status message arrived"
    last = statuses[-1]
    assert (last.table_id, last.journal, last.profile) == ("T1", _journal(tmp_path / "t1.db"), "nobust-4.0")
    assert last.last_seq == table.journal.seq and last.to_ship == 0 and last.divergence is None
    tracker = table.session.tracker
    assert last.round_id == table.session.round_id
    assert last.phase == (tracker.phase.value if tracker is not None else table.session.state.value)
    assert len({s.last_seq for s in statuses}) > 1  # sent as the table changed, not only every 5 s


def _five_rounds_shipped(room: Room, path: Path) -> int:
    """A table that dealt five rounds, every record in the stream, then closed; its last seq."""
    table = open_bench_table(path)
    shipper = attach_shipper(table.journal.path, table.journal.add_sink, "T1", room.link("T1"))
    play(table, BenchPlayer(2), 5)
    assert shipper.wait_shipped(table.journal.seq, SHIPPED_S)
    shipper.stop()
    table.close()
    return last_seq(path)


def test_a_journal_cut_short_is_behind_the_stream_and_is_not_shipped(room: Room, tmp_path: Path) -> None:
    path = tmp_path / "t1.db"
    head = _five_rounds_shipped(room, path)
    with sqlite3.connect(path) as db:  # the last round deleted, as a person with sqlite3 would
        db.execute("DELETE FROM records WHERE seq > ?", (head - 20,))
    seal_path(path).unlink()
    again = Shipper(path, "T1", room.link("T1")).start()
    try:
        assert _until(lambda: again.state.divergence is not None), again.state
        divergence = again.state.divergence or ""
        assert f"holds record {head}" in divergence and f"ends at record {head - 20}" in divergence
        assert again.link_text().startswith("pit: stopped")
    finally:
        again.stop()
    assert max(once_each(room.stream(), _journal(path))) == head  # nothing sent from the cut journal


def test_a_rewritten_journal_dealt_on_differs_from_the_stream_and_is_not_shipped(room: Room, tmp_path: Path) -> None:
    path = tmp_path / "t1.db"
    head = _five_rounds_shipped(room, path)
    rewrite_chain(path, 30)  # a careful forger: the chain recomputed, the file verifies on its own
    table = open_bench_table(path)  # resumed on it, as `bench --resume` would
    again = attach_shipper(table.journal.path, table.journal.add_sink, "T1", room.link("T1"))
    try:
        play(table, BenchPlayer(2), 2)
        assert _until(lambda: again.state.divergence is not None), again.state
        assert f"record {head} differs from the pit's stream" in (again.state.divergence or "")
    finally:
        again.stop()
        table.close()
    assert max(once_each(room.stream(), _journal(path))) == head  # nothing after the witnessed head


def test_another_tables_credentials_are_refused_on_this_tables_subjects(room: Room, tmp_path: Path) -> None:
    table = open_bench_table(tmp_path / "t1.db")
    shipper = attach_shipper(table.journal.path, table.journal.add_sink, "T1", room.link("T1", creds_of="T2"))
    try:
        play(table, BenchPlayer(2), 1)
        assert _until(lambda: "permissions violation" in (shipper.state.error or "").lower()), shipper.state
        assert not shipper.state.up and shipper.state.shipped == 0
    finally:
        shipper.stop()
        table.close()
    assert room.stream() == []

"""A head office (PIT.md §8): two rooms, each a leaf node of the head office's broker, both with a table
T01; the head office's DA_RECORDS sources each room's stream through the room's JetStream domain.
Rooms stay apart, every table is (room, id) at the head office, and a room's cut link makes its tiles
read "behind" and raises one alert, closed once the head office has caught up."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import nats
import pytest

from pit.stream.broker import read_leaf_creds
from pit.trial.local_services import NatsServer, PostgresCluster, free_port
from tests.pit.dealing import exactly_once, under_way
from tests.pit.head_office_browser import walk_the_floor
from tests.pit.head_office_rig import ROOM_TABLES, HeadOfficeRig, Room
from tests.pit.pit_service import stored_counts, wait_for

pytestmark = pytest.mark.slow


def _journals(room: Room) -> set[str]:
    return {journal for journal, _ in room.store._all("SELECT journal, table_id FROM journals")}


def _office_tiles(rig: HeadOfficeRig) -> dict[tuple[str, str], str]:
    assert rig.office_store is not None
    return {(tile["room"] or "", tile["table_id"]): tile["link"] for tile in rig.office_store.tables()}


def _every_tile_live(rig: HeadOfficeRig) -> bool:
    """Both rooms' every table has a tile at the head office and each reads live: a room whose stream the
    head office has not sourced yet has no tiles, so "every tile shown is live" would not say it."""
    every = {(room, table) for room, names in ROOM_TABLES.items() for table in names}
    tiles = _office_tiles(rig)
    return set(tiles) == every and set(tiles.values()) == {"live"}


def test_rooms_stay_apart_and_every_table_is_its_rooms(tmp_path: Path, postgres: PostgresCluster) -> None:
    rig = HeadOfficeRig(tmp_path, postgres).start()
    try:
        rig.deal()
        office = rig.office_store
        assert office is not None
        for room in rig.rooms.values():
            under_way(room.store, room.tables)
        wait_for(lambda: len(office.tables()) == 4, 30, "four tiles at the head office")
        _a_rooms_leaf_identity_cannot_publish_records(rig, tmp_path)
        for room in rig.rooms.values():
            room.tables.stop()
        for name, room in rig.rooms.items():
            exactly_once(room.store, room.tables)  # witnessed in the room
            exactly_once(office, room.tables)  # and at the head office
            assert {tile["table_id"] for tile in room.store.tables()} == set(ROOM_TABLES[name])
            assert all(a["table_id"] in ROOM_TABLES[name] for a in room.store.alerts())
            others = set().union(*(_journals(r) for r in rig.rooms.values() if r is not room))
            assert not _journals(room) & others, f"room {name} holds another room's journal"
            rooms_of = dict(office._all("SELECT journal, room FROM journals"))
            assert {rooms_of[journal] for journal in _journals(room)} == {name}
        assert set(stored_counts(office)) == set().union(*(_journals(r) for r in rig.rooms.values()))
        tiles = _office_tiles(rig)
        assert set(tiles) == {(room, table) for room, names in ROOM_TABLES.items() for table in names}
        wait_for(lambda: _every_tile_live(rig), 15, "every tile live once caught up")
        walk_the_floor(office, ROOM_TABLES, "T01", tmp_path / "browser")
        assert rig.office_pit is not None
        health = rig.office_pit.health()
        assert health is not None and health["rooms"] == {room: {"behind": 0, "behind_s": 0} for room in ROOM_TABLES}
    finally:
        rig.close()


def _a_rooms_leaf_identity_cannot_publish_records(rig: HeadOfficeRig, tmp_path: Path) -> None:
    """A server joining the head office with east's leaf credentials, and no deny list of its own,
    publishes records and status of a table: nothing reaches the head office or west."""
    _, password = read_leaf_creds((tmp_path / "ho-creds" / "east.leaf-creds").read_text())
    port = free_port()
    config = (
        f'listen: "127.0.0.1:{port}"\nleafnodes {{ remotes: [ {{ urls: '
        f'["nats-leaf://east:{password}@127.0.0.1:{rig.leaf_port}"] }} ] }}\n'
    )
    intruder = NatsServer(tmp_path / "intruder", port, config).start()
    seed = rig.office_store.pit_identity().seed if rig.office_store is not None else ""
    west_seed = rig.rooms["west"].store.pit_identity().seed

    async def attempt() -> list[str]:
        heard: list[str] = []

        async def hear(msg: nats.aio.msg.Msg) -> None:
            heard.append(msg.subject)

        assert rig.office_broker is not None
        office = await nats.connect(rig.office_broker.url, nkeys_seed_str=seed)
        west = await nats.connect(rig.rooms["west"].broker.url, nkeys_seed_str=west_seed)
        for each in (office, west):
            await each.subscribe("da.records.X99.>", cb=hear)
            await each.subscribe("da.status.X99", cb=hear)
        await office.flush()
        await west.flush()
        wait_for(lambda: "Leafnode connection created" in intruder.log.read_text(), 10, "the intruder joined")
        await asyncio.sleep(1.0)
        client = await nats.connect(intruder.url)
        for _ in range(20):
            await client.publish("da.records.X99.forged", b"{}")
            await client.publish("da.status.X99", b"{}")
        await client.flush()
        await asyncio.sleep(2.0)
        for each in (client, office, west):
            await each.close()
        return heard

    try:
        assert asyncio.run(attempt()) == []
        assert not rig.rooms["west"].store._all("SELECT 1 FROM records WHERE journal = 'forged'")
    finally:
        intruder.stop()


@pytest.mark.parametrize("back_at", [0, 1], ids=["same-address", "another-address"])
def test_a_rooms_link_cut_reads_behind_and_catches_up(
    tmp_path: Path, postgres: PostgresCluster, back_at: int, cut_s: float = 75.0
) -> None:
    rig = HeadOfficeRig(tmp_path, postgres).start()
    try:
        rig.deal()
        office, east = rig.office_store, rig.rooms["east"]
        assert office is not None and rig.office_pit is not None
        under_way(office, east.tables)
        wait_for(lambda: _every_tile_live(rig), 30, "every tile live")
        for line in east.lines:
            line.cut()
        cut_at = time.monotonic()
        wait_for(
            lambda: {link for (room, _), link in _office_tiles(rig).items() if room == "east"} == {"behind"},
            10,
            "east's tiles behind",
        )
        assert {link for (room, _), link in _office_tiles(rig).items() if room == "west"} == {"live"}
        alerts = lambda: [a for a in office.alerts() if a["kind"] == "room_behind"]  # noqa: E731
        wait_for(lambda: len(alerts()) == 1, 70 - (time.monotonic() - cut_at), "one alert within 70 s")
        assert alerts()[0]["acked"] is None and alerts()[0]["room"] == "east"
        health = rig.office_pit.health()
        assert health is not None and health["rooms"]["east"]["behind_s"] > 60
        time.sleep(max(0.0, cut_s - (time.monotonic() - cut_at)))
        east.lines[back_at].restore()
        back = time.monotonic()
        for room in rig.rooms.values():
            room.tables.stop()
        for room in rig.rooms.values():
            exactly_once(office, room.tables, timeout=60 - (time.monotonic() - back))
        wait_for(lambda: _every_tile_live(rig), 10, "every tile live again")
        assert len(alerts()) == 1 and alerts()[0]["cleared"] is not None, "the alert cleared once caught up"
        assert alerts()[0]["acked"] is None, "a person acknowledges it (PIT.md §5), the pit only marks it cleared"
    finally:
        rig.close()

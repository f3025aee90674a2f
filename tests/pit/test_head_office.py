"""A head office (PIT.md §8): a room's broker joined to the head office's as a leaf node, the head
office's DA_RECORDS sourcing the room's through the room's JetStream domain. With the wide-area link
cut the room deals and witnesses on its own; restored, the head office catches up, in order, once."""
from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from pit.service.store.pit_store import PitStore
from pit.trial.local_services import NatsServer, PostgresCluster, free_port
from tests.pit.dealing import Tables, alerts_raised, exactly_once, record_alerts, under_way
from tests.pit.pit_service import PitServe, fresh_database, pit_command, rooms_broker, wait_for
from tests.pit.test_many_machines import stored
from tests.pit.wan_link import WanLink

pytestmark = pytest.mark.slow
TABLES = ("E1", "E2")
CUT_S = 20.0  # longer than a table's silence of 15 s: the head office raises it, once a table


def test_a_rooms_leaf_link_cut_and_restored(tmp_path: Path, postgres: PostgresCluster) -> None:
    room_dsn, office_dsn = fresh_database(postgres), fresh_database(postgres)
    pit_command("init", "--db", office_dsn)
    office_port, leaf_port = free_port(), free_port()
    link = WanLink(leaf_port)  # the room reaches the head office only through the line
    config = pit_command("nats-config", "--db", office_dsn, "--port", str(office_port), "--store", str(tmp_path / "ho-js"),
                         "--host", "127.0.0.1", "--head-office", "--rooms", "east", "--leaf-port", str(leaf_port),
                         "--leaf-advertise", f"127.0.0.1:{link.port}")
    office_store, room_store = PitStore.open(office_dsn), PitStore.set_up(room_dsn)
    (password,), = office_store._all("SELECT leaf_password FROM rooms WHERE name = 'east'")
    office_broker = NatsServer(tmp_path / "ho-nats", office_port, config).start()
    link.start()
    (tmp_path / "room").mkdir()
    room_broker, creds = rooms_broker(room_dsn, tmp_path / "room", TABLES, "--leaf-remote",
                                      f"nats-leaf://east:{password}@127.0.0.1:{link.port}", "--room", "east")
    pits = [PitServe(room_broker.url, room_dsn, tmp_path / "room-pit.log"),
            PitServe(office_broker.url, office_dsn, tmp_path / "office-pit.log")]
    tables = Tables(tmp_path / "room", TABLES)
    try:
        wait_for(lambda: [p.role() for p in pits] == ["ingest", "ingest"], 30, "both pits ingesting")
        tables.start(room_broker.url, {table: path.read_text() for table, path in creds.items()})
        under_way(office_store, tables)  # through the leaf link
        link.cut()
        time.sleep(1.0)  # what was on the line has landed
        at_the_cut, in_the_room = stored(office_store), stored(room_store)
        wait_for(lambda: len([a for a in office_store.alerts() if a["kind"] == "table_silent"]) == len(TABLES),
                 CUT_S + 5, "the head office finding the room's tables silent")
        time.sleep(max(0.0, CUT_S - 16))
        assert stored(office_store) == at_the_cut, "records reached the head office with the link cut"
        assert stored(room_store) > in_the_room + 100 and tables.dealing(), "the room stopped with the link cut"
        link.restore()
        wait_for(lambda: stored(office_store) > stored(room_store) - 50, 30, "the head office catching up")
        tables.stop()
        for store in (room_store, office_store):
            exactly_once(store, tables)
        expected = record_alerts(tables)
        assert alerts_raised(room_store, tables.stopped_at) == expected  # the room: nothing went wrong
        silent = Counter((kind, cause) for kind, cause in alerts_raised(office_store, tables.stopped_at)
                         if kind == "table_silent")
        assert sorted(cause.split(":")[1] for _, cause in silent) == sorted(TABLES)
        assert alerts_raised(office_store, tables.stopped_at) == expected + silent
        assert {tile["table_id"]: tile["room"] for tile in office_store.tables()} == {table: "east" for table in TABLES}
        assert all(tile["room"] is None for tile in room_store.tables())
        assert [p.stop() for p in pits] == [0, 0]
    finally:
        tables.kill()
        for pit in pits:
            pit.kill()
        link.close()
        room_broker.stop()
        office_broker.stop()
        room_store.close()
        office_store.close()

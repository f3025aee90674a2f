"""Two rooms and a head office on this machine, as the README builds them: each room its own
PostgreSQL database, nats-server (a leaf node of the head office's, reaching it through lines that a
test can cut) and pit; the head office its own. Rooms east and west both run a table T01."""

from __future__ import annotations

import stat
from dataclasses import dataclass, field
from pathlib import Path

from pit.service.store.pit_store import PitStore
from pit.trial.local_services import NatsServer, PostgresCluster, free_port
from tests.pit.dealing import Tables
from tests.pit.pit_service import PitServe, fresh_database, pit_command, rooms_broker, wait_for
from tests.pit.wan_link import WanLink

ROOM_TABLES = {"east": ("T01", "E02"), "west": ("T01", "W02")}


@dataclass
class Room:
    name: str
    store: PitStore
    broker: NatsServer
    pit: PitServe
    tables: Tables
    creds: dict[str, Path]
    lines: list[WanLink]  # the room's ways to the head office: two addresses of it


@dataclass
class HeadOfficeRig:
    folder: Path
    postgres: PostgresCluster
    office_store: PitStore | None = None
    office_broker: NatsServer | None = None
    office_pit: PitServe | None = None
    leaf_port: int = 0
    rooms: dict[str, Room] = field(default_factory=dict)

    def start(self) -> HeadOfficeRig:
        office_dsn = fresh_database(self.postgres)
        pit_command("init", "--db", office_dsn)
        office_port, self.leaf_port = free_port(), free_port()
        creds_dir = self.folder / "ho-creds"
        creds_dir.mkdir()
        config = pit_command(
            "nats-config",
            "--db",
            office_dsn,
            "--port",
            str(office_port),
            "--store",
            str(self.folder / "ho-js"),
            "--host",
            "127.0.0.1",
            "--head-office",
            "--rooms",
            ",".join(ROOM_TABLES),
            "--leaf-listen",
            f"127.0.0.1:{self.leaf_port}",
            "--leaf-creds-dir",
            str(creds_dir),
        )
        for room in ROOM_TABLES:
            assert stat.S_IMODE((creds_dir / f"{room}.leaf-creds").stat().st_mode) == 0o600
            assert (creds_dir / f"{room}.leaf-creds").read_text().split('"')[7] in config  # the password, only in files
        self.office_store = PitStore.open(office_dsn)
        self.office_broker = NatsServer(self.folder / "ho-nats", office_port, config).start()
        for room, names in ROOM_TABLES.items():
            dsn = fresh_database(self.postgres)
            store = PitStore.set_up(dsn)
            lines = [WanLink(self.leaf_port).start(), WanLink(self.leaf_port).start()]
            folder = self.folder / room
            folder.mkdir()
            remotes = ",".join(f"nats-leaf://127.0.0.1:{line.port}" for line in lines)
            broker, creds = rooms_broker(
                dsn,
                folder,
                names,
                "--leaf-remote",
                remotes,
                "--room",
                room,
                "--leaf-creds",
                str(creds_dir / f"{room}.leaf-creds"),
            )
            pit = PitServe(broker.url, dsn, self.folder / f"{room}-pit.log")
            self.rooms[room] = Room(room, store, broker, pit, Tables(folder, names), creds, lines)
        # The head office's stream asks each room for its source once; one asked before the room's leaf link is
        # up is asked again only after nats-server's retry wait, so its tiles would come late for no reason.
        office_log = self.office_broker.log
        wait_for(
            lambda: office_log.read_text().count("Leafnode connection created") >= len(ROOM_TABLES),
            30,
            "every room joined the head office",
        )
        self.office_pit = PitServe(self.office_broker.url, office_dsn, self.folder / "office-pit.log")
        pits = [self.office_pit, *(room.pit for room in self.rooms.values())]
        wait_for(lambda: all(p.role() == "ingest" for p in pits), 30, "every pit ingesting")
        return self

    def deal(self) -> None:
        for room in self.rooms.values():
            room.tables.start(room.broker.url, {table: path.read_text() for table, path in room.creds.items()})

    def close(self) -> None:
        for room in self.rooms.values():
            room.tables.kill()
            room.pit.kill()
            for line in room.lines:
                line.close()
            room.broker.stop()
            room.store.close()
        if self.office_pit is not None:
            self.office_pit.kill()
        if self.office_broker is not None:
            self.office_broker.stop()
        if self.office_store is not None:
            self.office_store.close()

"""`dealer-assist room --head-office --rooms N --tables M`: a head office and N rooms on one machine.

Each room is a plain `room` (its own PostgreSQL, nats-server, pit and M emulated tables, T01...), its
broker a leaf node of the head office's; the head office is a room with no tables whose stream
sources every room's (PIT.md §8). The rooms' tables share their ids, so the head office shows each
id once per room. Each room's leaf credentials are in a file of the head office's folder (mode 0600),
never on a command line. Ctrl-C stops the rooms, then the head office.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pit.address import Address, parse_address
from pit.trial.room import Room, table_ids

HEAD_OFFICE = "head-office"


def room_names(count: int) -> list[str]:
    return [f"room{number}" for number in range(1, count + 1)]


@dataclass
class HeadOfficeTrial:
    folder: Path
    rooms: int
    tables: int
    http: str  # the head office's dashboard; the rooms' on the ports after it
    pace: float
    say: Callable[[str], None] = print
    parts: dict[str, Room] = field(default_factory=dict)  # the head office first, then each room

    def start(self) -> dict[str, tuple[str, str]]:
        """Bring up the head office, then each room joined to it; returns each one's first login."""
        host, port = parse_address(self.http)
        office_folder = self.folder / HEAD_OFFICE
        creds = office_folder / "leaf-creds"
        creds.mkdir(parents=True, exist_ok=True)
        creds.chmod(0o700)
        office = Room(office_folder, 0, self.http, self.pace, say=self.say)
        leaf_listen = f"127.0.0.1:{office._port('leaf')}"
        office.broker_args = (
            "--head-office",
            "--rooms",
            ",".join(room_names(self.rooms)),
            "--leaf-listen",
            leaf_listen,
            "--leaf-creds-dir",
            str(creds),
        )
        self.parts[HEAD_OFFICE] = office
        logins = {HEAD_OFFICE: office.start()}
        for number, name in enumerate(room_names(self.rooms), start=1):
            room = Room(self.folder / name, self.tables, str(Address(host, port + number)), self.pace, say=self.say)
            room.broker_args = (
                "--room",
                name,
                "--leaf-remote",
                f"nats-leaf://{leaf_listen}",
                "--leaf-creds",
                str(creds / f"{name}.leaf-creds"),
            )
            self.parts[name] = room
            logins[name] = room.start()
        return logins

    def up(self) -> None:
        self.announce(self.start())

    def supervise(self) -> None:
        for room in self.parts.values():
            room.supervise()

    def stop(self) -> None:
        """The rooms first (each its tables, pit, broker and store), the head office last."""
        for room in reversed(list(self.parts.values())):
            room.stop()

    def announce(self, logins: dict[str, tuple[str, str]]) -> None:
        """What `room` prints, for each part: the dashboards and logins as one JSON line, `PART PID` lines."""
        office = self.parts[HEAD_OFFICE]
        self.say(
            json.dumps(
                {
                    "head_office": {"dashboard": office.url, "login": _login(logins[HEAD_OFFICE]), "store": office.dsn},
                    "rooms": {
                        name: {
                            "dashboard": room.url,
                            "login": _login(logins[name]),
                            "tables": table_ids(room.tables),
                            "store": room.dsn,
                        }
                        for name, room in self.parts.items()
                        if name != HEAD_OFFICE
                    },
                    "data": str(self.folder),
                }
            )
        )
        for name, room in self.parts.items():
            for part, pid in room.parts():
                self.say(f"{name}/{part} {pid}")
        lines = [
            f"  {name + ':':<13}{room.url}  first login: {logins[name][0]} / {logins[name][1]}"
            for name, room in self.parts.items()
        ]
        self.say(
            f"The head office is up, with {self.rooms} rooms of {self.tables} tables each.\n"
            + "\n".join(lines)
            + f"\n  data:        {self.folder}\nTo try a cut link, kill -9 a room's nats PID: the room starts"
            ' it again, and the head office\'s floor reads that room "behind" until it has caught up.'
            " Ctrl-C stops everything."
        )


def _login(login: tuple[str, str]) -> dict[str, str]:
    return {"name": login[0], "password": login[1]}

"""`dealer-assist room [--tables N] [--http HOST:PORT] [--data DIR]`: a whole card room on one machine.

A private PostgreSQL cluster and nats-server in a data folder, the pit service, and N emulated
tables (`dealer-assist bench` on wire-emulated devices, real journals) dealing at a human pace and
shipping to the pit; it prints the dashboard's address and a first login, and Ctrl-C stops all of
it. Each part is the product's own command run as a subprocess, exactly as a room's server would
run it, so a trial room exercises the same paths as a real one. Run again on the same folder, it
resumes the same tables and journals.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import platformdirs

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from pit.trial.local_services import NatsServer, PostgresCluster, ServiceError, free_port

ROOT_DATA = Path("/var/lib/dealer-assist/room")
PACE_S = 0.4  # seconds between a table's moves: a round in half a minute or so
ROUNDS = 1_000_000  # an emulated table deals until the room stops
SERVE_WAIT_S = 60.0
STOP_WAIT_S = 20.0


class RoomError(RuntimeError):
    """A part of the room that would not start; the text names it and what it printed."""


def default_folder() -> Path:
    """As root the cluster runs as `nobody`, which must reach the folder: a system folder then."""
    return ROOT_DATA if os.geteuid() == 0 else Path(platformdirs.user_data_dir("dealer-assist")) / "room"


def table_ids(count: int) -> list[str]:
    return [f"T{number:02d}" for number in range(1, count + 1)]


def command(*args: str) -> list[str]:
    """A `dealer-assist` command line, run by this same interpreter."""
    return [sys.executable, "-m", "ui.cli", *args]


def _run(what: str, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(command(*args), input=stdin, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RoomError(f"{what} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-600:]}")
    return done.stdout


@dataclass
class Room:
    folder: Path
    tables: int
    http: str
    pace: float = PACE_S
    postgres: PostgresCluster | None = None
    nats: NatsServer | None = None
    children: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    logs: list[IO[bytes]] = field(default_factory=list)

    @property
    def url(self) -> str:
        host, _, port = self.http.rpartition(":")
        return f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"

    def start(self) -> tuple[str, str]:
        """Bring the room up; returns the first login (name, password)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        (self.folder / "tables").mkdir(exist_ok=True)
        (self.folder / "logs").mkdir(exist_ok=True)
        self.postgres = PostgresCluster(self.folder / "postgres", port=self._port("postgres")).init()
        self.postgres.start()
        dsn = self.postgres.dsn
        _run("pit init", "pit", "init", "--db", dsn)
        for table_id in table_ids(self.tables):
            creds = self._creds(table_id)
            if not creds.exists():
                creds.write_text(_run(f"pit table add {table_id}", "pit", "table", "add", table_id, "--db", dsn))
                creds.chmod(0o600)
        port = self._port("nats")
        config = _run("pit nats-config", "pit", "nats-config", "--db", dsn, "--port", str(port), "--store",
                      str(self.folder / "jetstream"), "--host", "127.0.0.1")
        self.nats = NatsServer(self.folder / "nats", port, config).start()
        login = self._first_login(dsn)
        self._spawn("pit serve", "pit", "serve", "--nats", self.nats.url, "--db", dsn, "--http", self.http)
        self._wait_for_http()
        for number, table_id in enumerate(table_ids(self.tables), start=1):
            journal = self.folder / "tables" / f"{table_id}.db"
            resume = ["--resume"] if journal.exists() else []
            self._spawn(f"table {table_id}", "bench", "--rounds", str(ROUNDS), "--seed", str(number), "--journal",
                        str(journal), *resume, "--table-id", table_id, "--links", "pty", "--pace", str(self.pace),
                        "--pit", self.nats.url, "--pit-creds", str(self._creds(table_id)))
        return login

    def check(self) -> None:
        """Raise if a part of the room has stopped on its own."""
        for name, child in self.children.items():
            if child.poll() is not None:
                raise RoomError(f"{name} stopped ({child.returncode}); see {self._log(name)}")
        if self.nats is not None and (self.nats.process is None or self.nats.process.poll() is not None):
            raise RoomError(f"nats-server stopped; see {self.nats.log}")

    def stop(self) -> None:
        """The tables first (each closes its journal and hands the pit what it can), then the pit,
        the broker and the store."""
        tables = [child for name, child in self.children.items() if name.startswith("table ")]
        others = [child for name, child in self.children.items() if not name.startswith("table ")]
        for group in (tables, others):
            for child in group:
                if child.poll() is None:
                    child.send_signal(signal.SIGINT)
            for child in group:
                try:
                    child.wait(STOP_WAIT_S)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
        self.children.clear()
        if self.nats is not None:
            self.nats.stop()
        if self.postgres is not None:
            self.postgres.stop()
        for log in self.logs:
            log.close()
        self.logs.clear()

    def _creds(self, table_id: str) -> Path:
        return self.folder / "tables" / f"{table_id}.creds"

    def _log(self, name: str) -> Path:
        return self.folder / "logs" / f"{name.replace(' ', '-')}.log"

    def _spawn(self, name: str, *args: str) -> None:
        log = open(self._log(name), "ab")
        self.logs.append(log)
        # A session of its own: a Ctrl-C at the terminal reaches the room alone, which then stops
        # each part once, in order.
        self.children[name] = subprocess.Popen(command(*args), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                               start_new_session=True)

    def _port(self, name: str) -> int:
        """The same port as the last run, so the pit's and the tables' addresses stay put."""
        saved = self.folder / f"{name}.port"
        if saved.exists():
            return int(saved.read_text())
        port = free_port()
        saved.write_text(str(port))
        return port

    def _first_login(self, dsn: str) -> tuple[str, str]:
        """A manager with a random password; on a later run of the same room, another one."""
        password = secrets.token_urlsafe(12)
        for name in ("manager", f"manager-{secrets.token_hex(2)}"):
            done = subprocess.run(command("pit", "user", "add", name, "--role", "manager", "--db", dsn, "--password-stdin"),
                                  input=password + "\n", capture_output=True, text=True, timeout=120)
            if done.returncode == 0:
                return name, password
            if '"exists"' not in done.stderr:
                raise RoomError(f"pit user add failed ({done.returncode}): {done.stderr.strip()[-600:]}")
        raise RoomError("pit user add: could not create a first login")

    def _wait_for_http(self) -> None:
        host, _, port = self.http.rpartition(":")
        deadline = time.monotonic() + SERVE_WAIT_S
        while time.monotonic() < deadline:
            self.check()
            try:
                with socket.create_connection(("127.0.0.1" if host in ("0.0.0.0", "") else host, int(port)), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.2)
        raise RoomError(f"pit serve did not answer on {self.http} within {SERVE_WAIT_S:.0f} s; see {self._log('pit serve')}")


def main(argv: list[str]) -> int:
    return reporting(lambda: _room(argv), Stream.STDERR)


def _room(argv: list[str]) -> int:
    parser = JsonArgumentParser(prog="dealer-assist room", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4, help="emulated tables (default 4)")
    parser.add_argument("--http", default="127.0.0.1:8080", metavar="HOST:PORT", help="the dashboard's address")
    parser.add_argument("--data", type=Path, metavar="DIR", help=f"the room's folder (default {default_folder()})")
    parser.add_argument("--pace", type=float, default=PACE_S, metavar="SECONDS", help="seconds between a table's moves")
    args = parser.parse_args(argv)
    host, _, port = args.http.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        parser.error(f"--http {args.http!r}: use HOST:PORT")
    if not 1 <= args.tables <= 99:
        parser.error(f"--tables {args.tables}: from 1 to 99")
    room = Room((args.data or default_folder()).absolute(), args.tables, args.http, args.pace)
    stopping = False

    def interrupted(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, interrupted)
    try:
        name, password = room.start()
        assert room.postgres is not None and room.nats is not None
        print(json.dumps({"dashboard": room.url, "login": {"name": name, "password": password},
                          "tables": table_ids(args.tables), "data": str(room.folder), "store": room.postgres.dsn,
                          "broker": room.nats.url}), flush=True)
        print(f"The card room is up: {args.tables} tables dealing.\n  dashboard:   {room.url}\n"
              f"  first login: {name} / {password}\n  data:        {room.folder}\nCtrl-C stops everything.", flush=True)
        while True:
            room.check()
            time.sleep(1.0)
    except KeyboardInterrupt:
        stopping = True
        return 0
    except (RoomError, ServiceError, OSError) as error:
        print(f"dealer-assist room: {error}", file=sys.stderr)
        return 1
    finally:
        if stopping:
            print("Stopping the tables, the pit, the broker and the store...", flush=True)
        room.stop()

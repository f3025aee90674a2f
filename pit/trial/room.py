"""`dealer-assist room [--ha | --head-office --rooms N] [--tables N] [--http HOST:PORT] [--data DIR]`: a whole card
room on one machine (with --head-office, a head office and N rooms: `head_office`).

A private PostgreSQL cluster and nats-server in a data folder, the pit service, and N emulated
tables (`dealer-assist bench` on wire-emulated devices, real journals) dealing at a human pace and
shipping to the pit; it prints the dashboard's address, a first login and each part's process id,
and Ctrl-C stops all of it. With --ha, the layout of PIT.md §8 on one machine: three nats-server
nodes, a PostgreSQL primary and its streaming standby, two pit services. A part that stops is
started again, and the room says so, while the tables deal on. Each part is the product's own
command run as a subprocess, exactly as a room's server would run it, so a trial room exercises the
same paths as a real one. Run again on the same folder, it resumes the same tables and journals.
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

import platformdirs

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.rules.counts import count
from pit.address import Address, parse_address
from pit.errors import PitCode, PitError
from pit.service.store.pit_store import DB_ENV
from pit.trial.local_services import NatsServer, PostgresCluster, ServiceError, bind_error, free_port, multi_host_dsn
from pit.trial.room_log import RoomLog

ROOT_DATA = Path("/var/lib/dealer-assist/room")
PACE_S = 0.4  # seconds between a table's moves: a round in half a minute or so
ROUNDS = 1_000_000  # an emulated table deals until the room stops
SERVE_WAIT_S = 60.0
FIRST_LOGIN = "manager"  # a room's one first account; each start gives it a new password
STOP_WAIT_S = 20.0


class RoomError(PitError):
    """A part of the room that would not start; the text names it and what it printed."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.ROOM_FAILED, message, 1)


def default_folder() -> Path:
    """As root the cluster runs as `nobody`, which must reach the folder: a system folder then."""
    return ROOT_DATA if os.geteuid() == 0 else Path(platformdirs.user_data_dir("dealer-assist")) / "room"


def table_ids(count: int) -> list[str]:
    return [f"T{number:02d}" for number in range(1, count + 1)]


def command(*args: str) -> list[str]:
    """A `dealer-assist` command line, run by this same interpreter."""
    return [sys.executable, "-m", "ui.cli", *args]


def _run(what: str, *args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command(*args), input=stdin, capture_output=True, text=True, timeout=120, env=env)
    if done.returncode != 0:
        raise RoomError(f"{what} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-600:]}")
    return done.stdout


@dataclass
class Child:
    """A part the room runs as a process of its own: its command, to start it again if it dies."""

    args: tuple[str, ...]
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0


@dataclass
class Room:
    folder: Path
    tables: int
    http: str
    pace: float = PACE_S
    ha: bool = False  # three broker nodes, a store's primary and standby, two pit services
    say: Callable[[str], None] = print
    broker_args: tuple[str, ...] = ()  # more of `pit nats-config`: a head office's, or a room's leaf link to one
    stores: list[PostgresCluster] = field(default_factory=list)
    brokers: list[NatsServer] = field(default_factory=list)
    children: dict[str, Child] = field(default_factory=dict)
    logs: list[IO[bytes]] = field(default_factory=list)

    @property
    def dashboards(self) -> list[str]:
        return [f"http://{address}/" for address in self._dashboard_addresses(shown=True)]

    def _dashboard_addresses(self, shown: bool = False) -> list[Address]:
        """--http, and with --ha the second pit's on the port after it; `shown`: as a browser reaches
        them (this machine's, when --http listens on every address)."""
        host, port = parse_address(self.http)
        host = "127.0.0.1" if shown and host == "0.0.0.0" else host
        return [Address(host, port + number) for number in range(2 if self.ha else 1)]

    @property
    def log(self) -> RoomLog:
        return RoomLog(self.folder / "log", self._port)

    @property
    def url(self) -> str:
        return self.dashboards[0]

    @property
    def dsn(self) -> str:
        return multi_host_dsn(self.stores) if self.ha else self.stores[0].dsn

    @property
    def broker_urls(self) -> str:
        return ",".join(broker.url for broker in self.brokers)

    def start(self) -> tuple[str, str]:
        """Bring the room up; returns the first login (name, password)."""
        self._check_dashboards_free()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        (self.folder / "tables").mkdir(exist_ok=True)
        (self.folder / "logs").mkdir(exist_ok=True)
        primary = PostgresCluster(self.folder / "postgres", port=self._port("postgres"))
        self.stores = [primary]
        if self.ha:
            self.stores.append(PostgresCluster(self.folder / "postgres-2", port=self._port("postgres-2")))
        if not (primary.data / "PG_VERSION").exists():
            primary.init()
        primary = self.primary()  # after a failover in an earlier run, the other one
        primary.start()
        for store in self.stores:
            if not (store.data / "PG_VERSION").exists():
                store.follow(primary)
            store.start()
        _run("pit init", "pit", "init", env=self._env)
        for table_id in table_ids(self.tables):
            creds = self._creds(table_id)
            if not creds.exists():
                creds.write_text(_run(f"pit table add {table_id}", "pit", "table", "add", table_id, env=self._env))
                creds.chmod(0o600)
        nodes = 3 if self.ha else 1
        ports = [self._port(f"nats-{node}" if self.ha else "nats") for node in range(1, nodes + 1)]
        routes = ",".join(f"nats://127.0.0.1:{self._port(f'route-{node}')}" for node in range(1, nodes + 1))
        for node, port in enumerate(ports, start=1):
            place = ["--cluster", "room", "--node", str(node), "--routes", routes] if self.ha else []
            config = _run(
                "pit nats-config",
                "pit",
                "nats-config",
                "--port",
                str(port),
                "--store",
                str(self.folder / (f"jetstream-{node}" if self.ha else "jetstream")),
                "--host",
                "127.0.0.1",
                *place,
                *self.broker_args,
                env=self._env,
            )
            self.brokers.append(NatsServer(self.folder / (f"nats-{node}" if self.ha else "nats"), port, config))
        for broker in self.brokers:
            broker.start()
        login = self._first_login()
        self.log.prepare()
        for name, args in self.log.witnesses():
            self._spawn(name, *args)
        for number, address in enumerate(self._dashboard_addresses(), start=1):
            self._spawn(
                f"pit-{number}",
                "pit",
                "serve",
                "--nats",
                self.broker_urls,
                "--http",
                str(address),
                *self.log.pit_args(),
            )
        self._wait_for_http()
        for number, table_id in enumerate(table_ids(self.tables), start=1):
            journal = self.folder / "tables" / f"{table_id}.db"
            self._spawn(
                f"table-{table_id}",
                "bench",
                "--rounds",
                str(ROUNDS),
                "--seed",
                str(number),
                "--journal",
                str(journal),
                "--table-id",
                table_id,
                "--links",
                "pty",
                "--pace",
                str(self.pace),
                "--pit",
                self.broker_urls,
                "--pit-creds",
                str(self._creds(table_id)),
            )
        return login

    def up(self) -> None:
        """Start the room, and print its dashboards, first login and `PART PID` lines."""
        name, password = self.start()
        self.say(
            json.dumps(
                {
                    "dashboard": self.url,
                    "dashboards": self.dashboards,
                    "login": {"name": name, "password": password},
                    "tables": table_ids(self.tables),
                    "data": str(self.folder),
                    "store": self.dsn,
                    "broker": self.broker_urls,
                    "log_policy": str(self.log.policy_file),
                }
            )
        )
        for part, pid in self.parts():
            self.say(f"{part} {pid}")
        self.say(
            f"The card room is up: {count(self.tables, 'table')} dealing.\n  dashboard:  "
            f" {'  '.join(self.dashboards)}\n"
            f"  first login: {name} / {password}\n  data:        {self.folder}\n"
            f"  log policy:  {self.log.policy_file}\n{self.failure_hint()}\n"
            "Ctrl-C stops everything."
        )

    def parts(self) -> list[tuple[str, int | None]]:
        """Each part and its process id, as `PART PID` lines show them."""
        found: list[tuple[str, int | None]] = [
            (f"nats-{n}", b.process.pid if b.process else None) for n, b in enumerate(self.brokers, start=1)
        ]
        found += [(f"postgres-{n}", store.pid) for n, store in enumerate(self.stores, start=1)]
        found += [(name, child.process.pid if child.process else None) for name, child in self.children.items()]
        return found

    def primary(self) -> PostgresCluster:
        return next((store for store in self.stores if not store.is_standby), self.stores[0])

    def supervise(self) -> None:
        """Start again any part that has stopped, and say so; in --ha, a store's primary that stopped
        has its standby promoted, and comes back as the new primary's standby."""
        for number, broker in enumerate(self.brokers, start=1):
            if broker.process is None or broker.process.poll() is not None:
                code = broker.process.returncode if broker.process is not None else None
                try:
                    broker.start()
                except ServiceError as error:
                    self.say(
                        f"dealer-assist room: nats-{number} stopped and would not start again ({error}); trying again"
                    )
                    continue
                self._said(f"nats-{number}", code, broker.process.pid if broker.process else None)
        for number, store in enumerate(self.stores, start=1):
            if store.pid is None:
                try:
                    self._store_stopped(number, store)
                except ServiceError as error:
                    self.say(
                        f"dealer-assist room: postgres-{number} stopped and would not start again ({error});"
                        " trying again"
                    )
        for name, child in self.children.items():
            if (
                child.process is not None
                and child.process.poll() is not None
                and time.monotonic() - child.started > 1.0
            ):
                code = child.process.returncode
                self._start(name, child)
                self._said(name, code, child.process.pid if child.process else None)

    def _store_stopped(self, number: int, store: PostgresCluster) -> None:
        others = [other for other in self.stores if other is not store and other.pid is not None]
        if self.ha and not store.is_standby and others and others[0].is_standby:
            others[0].promote()
            self.say(
                f"dealer-assist room: postgres-{number}, the store's primary, stopped; its standby"
                f" postgres-{self.stores.index(others[0]) + 1} is promoted"
            )
            store.forget()
            store.follow(others[0])
        store.start()
        self._said(f"postgres-{number}", None, store.pid, "as the standby" if store.is_standby else "")

    def _said(self, name: str, code: int | None, pid: int | None, how: str = "") -> None:
        ended = f" (exit {code})" if code is not None else ""
        self.say(f"dealer-assist room: {name} stopped{ended}; started again{' ' + how if how else ''}: {name} {pid}")

    def failure_hint(self) -> str:
        if self.ha:
            return (
                "To try a failure, kill -9 any PID above: a broker node (the tables and the pits go on through"
                " the others), the store's primary (its standby is promoted), the pit service whose"
                ' /api/health says "role": "ingest" (the other takes over within 10 s), a table.'
                " The room starts each part again and says so."
            )
        return (
            "To try a failure, kill -9 any PID above: the broker (the tables deal on, showing what they have"
            " to send, and send it once it is back), the store, the pit service, a table. The room starts"
            " each part again and says so."
        )

    def stop(self) -> None:
        """The tables first (each closes its journal and hands the pit what it can), then the pits,
        the brokers and the store."""
        tables = [child for name, child in self.children.items() if name.startswith("table-")]
        others = [child for name, child in self.children.items() if not name.startswith("table-")]
        for group in (tables, others):
            for child in group:
                if child.process is not None and child.process.poll() is None:
                    child.process.send_signal(signal.SIGINT)
            for child in group:
                if child.process is None:
                    continue
                try:
                    child.process.wait(STOP_WAIT_S)
                except subprocess.TimeoutExpired:
                    child.process.kill()
                    child.process.wait()
        self.children.clear()
        for broker in self.brokers:
            broker.stop()
        for store in sorted(self.stores, key=lambda s: not s.is_standby):  # the standby before its primary
            store.stop()
        for log in self.logs:
            log.close()
        self.logs.clear()

    def _creds(self, table_id: str) -> Path:
        return self.folder / "tables" / f"{table_id}.creds"

    def _log(self, name: str) -> Path:
        return self.folder / "logs" / f"{name}.log"

    def _spawn(self, name: str, *args: str) -> None:
        self.children[name] = child = Child(args)
        self._start(name, child)

    def _start(self, name: str, child: Child) -> None:
        args = child.args
        if name.startswith("table-") and "--resume" not in args and Path(args[args.index("--journal") + 1]).exists():
            args = (*args, "--resume")  # the journal it dealt on before
        log = open(self._log(name), "ab")
        self.logs.append(log)
        # A session of its own: a Ctrl-C at the terminal reaches the room alone, which then stops
        # each part once, in order.
        child.process = subprocess.Popen(
            command(*args),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env=self._env,
        )
        child.started = time.monotonic()

    def _port(self, name: str) -> int:
        """The same port as the last run, so the pit's and the tables' addresses stay put."""
        saved = self.folder / f"{name}.port"
        if saved.exists():
            return int(saved.read_text())
        port = free_port()
        saved.write_text(str(port))
        return port

    def _first_login(self) -> tuple[str, str]:
        """The room's one first account, `manager`, with a new random password at every start: the
        password printed last time opens nothing any more."""
        password = secrets.token_urlsafe(12)
        try:
            _run(
                "pit user add",
                "pit",
                "user",
                "add",
                FIRST_LOGIN,
                "--role",
                "manager",
                "--password-stdin",
                stdin=password + "\n",
                env=self._env,
            )
        except RoomError as error:
            if '"exists"' not in str(error):
                raise
            _run(
                "pit user password",
                "pit",
                "user",
                "password",
                FIRST_LOGIN,
                "--password-stdin",
                stdin=password + "\n",
                env=self._env,
            )
        return FIRST_LOGIN, password

    @property
    def _env(self) -> dict[str, str]:
        """The parts' environment: the store's address in it, never in a command line that every
        user of the machine can read."""
        return os.environ | {DB_ENV: self.dsn}

    def _check_dashboards_free(self) -> None:
        """Refuse a dashboard's port that is taken before any part starts, rather than leave a pit
        service to exit on it with the room half up."""
        for number, (host, port) in enumerate(self._dashboard_addresses(), start=1):
            if error := bind_error(host, port):
                which = "its dashboard" if number == 1 else f"pit-{number}'s dashboard, the port after --http's"
                raise RoomError(
                    f"--http {self.http}: port {port} ({which}) cannot be used: {error.strerror}; choose another"
                )

    def _wait_for_http(self) -> None:
        deadline = time.monotonic() + SERVE_WAIT_S
        for host, port in self._dashboard_addresses(shown=True):
            while True:
                for name, child in self.children.items():
                    if child.process is not None and child.process.poll() is not None:
                        raise RoomError(f"{name} stopped ({child.process.returncode}); see {self._log(name)}")
                try:
                    with socket.create_connection((host, port), timeout=0.5):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RoomError(
                            f"pit serve did not answer on {host}:{port} within {SERVE_WAIT_S:.0f} s;"
                            f" see {self.folder / 'logs'}"
                        ) from None
                    time.sleep(0.2)


def main(argv: list[str]) -> int:
    return reporting(lambda: _room(argv), Stream.STDERR)


def _room(argv: list[str]) -> int:
    parser = JsonArgumentParser(prog="dealer-assist room", description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=4, help="emulated tables (default 4)")
    parser.add_argument(
        "--http",
        default="127.0.0.1:8080",
        metavar="HOST:PORT",
        help="the dashboard's address (with --ha, the second pit's on the next port)",
    )
    parser.add_argument("--data", type=Path, metavar="DIR", help=f"the room's folder (default {default_folder()})")
    parser.add_argument("--pace", type=float, default=PACE_S, metavar="SECONDS", help="seconds between a table's moves")
    parser.add_argument(
        "--ha",
        action="store_true",
        help="three broker nodes, a store's primary and standby, two pit"
        " services: a room that survives any one of them (PIT.md §8)",
    )
    parser.add_argument(
        "--head-office",
        action="store_true",
        help="a head office and --rooms rooms of --tables tables each, the rooms' brokers its leaf nodes (PIT.md §8)",
    )
    parser.add_argument("--rooms", type=int, default=2, help="with --head-office: how many rooms (default 2)")
    args = parser.parse_args(argv)
    parse_address(args.http)
    if not 1 <= args.tables <= 99:
        parser.error(f"--tables {args.tables}: from 1 to 99")
    if args.head_office and (args.ha or not 1 <= args.rooms <= 9):
        parser.error("--head-office: with --rooms from 1 to 9, and without --ha")
    folder = (args.data or default_folder()).absolute()
    if args.head_office:
        from pit.trial.head_office import HeadOfficeTrial  # it builds on Room: imported here, not in a cycle

        return _run_until_stopped(
            HeadOfficeTrial(folder, args.rooms, args.tables, args.http, args.pace, lambda line: print(line, flush=True))
        )
    return _run_until_stopped(
        Room(folder, args.tables, args.http, args.pace, args.ha, lambda line: print(line, flush=True))
    )


class Trial(Protocol):
    """What `room` runs until Ctrl-C: a room, or a head office and its rooms."""

    def up(self) -> None: ...  # start every part, and say how to reach it

    def supervise(self) -> None: ...

    def stop(self) -> None: ...


def _run_until_stopped(trial: Trial) -> int:
    stopping = False

    def interrupted(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    # Ctrl-C is taken here as SIGTERM is, not left to Python's default: that one is not there when the
    # room starts with SIGINT ignored, as a shell starts a script's background job, and Ctrl-C would
    # then leave the whole room running.
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, interrupted)
    try:
        trial.up()
        while True:
            trial.supervise()
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
        trial.stop()

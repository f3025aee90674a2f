"""`dealer-assist pit init|table add|nats-config|user add|token add|payout-threshold|serve|rebuild`: the card
room's pit service.

Errors are printed as `{"error": {"code", "message"}}` on stderr, with exit 2 for a wrong command
line and 1 for everything else.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import json
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any

import psycopg

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, report
from dealer_assist.errors import CommandCode, CommandError, Failure
from pit.address import Address, parse_address
from pit.errors import PitCode
from pit.service.floor.data import Role
from pit.service.ingest.leader import Ingest
from pit.service.ingest.writes import rebuild
from pit.service.log.keeper import DEFAULT_INTERVAL_S, LogKeeper, LogSettings
from pit.service.log.reading import LogReader
from pit.service.store.pit_store import DB_ENV, PitStore, units
from pit.stream.broker import ClusterNode, HeadOffice, LeafOfHeadOffice, leaf_creds_file, nats_config, read_leaf_creds
from pit.stream.wire import WireError
from pit.tlog.serve_log import log_key_and_policy

STOP_S = 4.5  # SIGTERM stops a pit serve within 5 s (PIT.md §8)


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist pit", description="The card room's pit service and its setup.")
    commands = parser.add_subparsers(dest="command", required=True)
    init = commands.add_parser("init", help="create or migrate the store, and the pit's broker identity")
    add_db_options(init)
    table = commands.add_parser("table", help="tables: `table add TABLE_ID` prints its --pit-creds file")
    table.add_argument("action", choices=["add"])
    table.add_argument("table_id")
    add_db_options(table)
    threshold = commands.add_parser(
        "payout-threshold", help="the room's large-payout alert threshold, in currency units"
    )
    threshold.add_argument("amount", type=Decimal)
    add_db_options(threshold)
    rebuild = commands.add_parser("rebuild", help="rebuild rounds, corrections and missing alerts from the records")
    add_db_options(rebuild)
    config = commands.add_parser("nats-config", help="print the nats-server configuration of the room")
    add_db_options(config)
    config.add_argument("--port", required=True, type=int)
    config.add_argument("--store", required=True, metavar="DIR", help="JetStream's store folder")
    config.add_argument("--host", default="0.0.0.0", help="the address to listen on (default all)")
    config.add_argument("--cluster", metavar="NAME", help="a node of the NATS cluster NAME (with --node and --routes)")
    config.add_argument("--node", type=int, metavar="N", help="this node's number, from 1, in --routes")
    config.add_argument(
        "--routes", metavar="URL,...", help="every node's cluster URL in node order, this one's included"
    )
    config.add_argument(
        "--leaf-remote",
        metavar="URL,...",
        help="a room's node: the head office's leaf URLs (nats-leaf://HOST:PORT), with --room and --leaf-creds",
    )
    config.add_argument("--room", metavar="NAME", help="with --leaf-remote: the room's name, its JetStream domain")
    config.add_argument(
        "--leaf-creds",
        type=Path,
        metavar="FILE",
        help="with --leaf-remote: the room's leaf credentials, as `nats-config --head-office` wrote them",
    )
    config.add_argument("--head-office", action="store_true", help="a head office's node (with --rooms, --leaf-listen)")
    config.add_argument("--rooms", metavar="NAME,...", help="the rooms whose streams the head office sources")
    config.add_argument(
        "--leaf-listen",
        metavar="HOST:PORT",
        help="where a head office takes the rooms' leaf links; the only address it tells them",
    )
    config.add_argument(
        "--leaf-creds-dir",
        type=Path,
        default=Path("."),
        metavar="DIR",
        help="where --head-office writes each room's leaf credentials, ROOM.leaf-creds (default .)",
    )
    user = commands.add_parser(
        "user",
        help="`user add NAME --role ROLE`: a pit user with a password; "
        "`user password NAME`: a new password for a user, the old one no longer opens",
    )
    user.add_argument("action", choices=["add", "password"])
    user.add_argument("name")
    user.add_argument("--role", choices=[role.value for role in Role], help="the new user's role (user add)")
    add_db_options(user)
    user.add_argument("--password-stdin", action="store_true", help="read the password from standard input")
    token = commands.add_parser("token", help="`token add NAME --role ROLE`: an API token, printed once")
    token.add_argument("action", choices=["add"])
    token.add_argument("name")
    token.add_argument("--role", required=True, choices=[role.value for role in Role])
    add_db_options(token)
    serve = commands.add_parser("serve", help="ingest, witness, alerts, the dashboard and the JSON API")
    serve.add_argument("--nats", required=True, metavar="URL", help="nats:// or tls:// URLs, comma-separated")
    add_db_options(serve)
    serve.add_argument("--http", required=True, metavar="HOST:PORT")
    serve.add_argument("--tls-cert", metavar="FILE")
    serve.add_argument("--tls-key", metavar="FILE")
    serve.add_argument(
        "--log-key", type=Path, metavar="FILE", help="the room's log key (`log keygen`): keep the public log"
    )
    serve.add_argument(
        "--log-policy", type=Path, metavar="FILE", help="the log's tlog-policy: its witnesses and quorum"
    )
    serve.add_argument(
        "--log-interval",
        type=float,
        default=DEFAULT_INTERVAL_S,
        metavar="S",
        help=f"seconds between checkpoints while the log grows (default {DEFAULT_INTERVAL_S:.0f})",
    )
    return parser


def add_db_options(parser: argparse.ArgumentParser) -> None:
    """The store's address: from a file or the environment, so a password in it is not in a command
    line every user of the machine can read; `--db` for a DSN without one."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--db-file", type=Path, metavar="FILE", help=f"a file holding the store's DSN (or set {DB_ENV})")
    where.add_argument(
        "--db",
        metavar="DSN",
        help="the store's DSN (seen by every user of the machine: "
        "use --db-file or the environment for one with a password)",
    )


def store_dsn(args: Any) -> str:
    """The store's DSN from --db-file, --db or the environment, in that order; every pit command's."""
    if args.db_file is not None:
        try:
            text = Path(args.db_file).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise CommandError(
                CommandCode.BAD_ARGUMENTS, f"--db-file {args.db_file}: {error.strerror or error}"
            ) from None
        if not text:
            raise CommandError(CommandCode.BAD_ARGUMENTS, f"--db-file {args.db_file}: the file is empty")
        return text
    dsn: str = args.db or os.environ.get(DB_ENV, "").strip()
    if not dsn:
        raise CommandError(
            CommandCode.BAD_ARGUMENTS, f"the store's address: give --db-file FILE, set {DB_ENV}, or --db DSN"
        )
    return dsn


def _store(dsn: str, set_up: bool = False) -> PitStore:
    """The store, migrated first when `set_up` (`init`, and `serve` as it starts); as it is otherwise."""
    try:
        return PitStore.set_up(dsn) if set_up else PitStore.open(dsn)
    except psycopg.OperationalError as error:
        raise CommandError(
            PitCode.STORE_UNREACHABLE, f"the store {dsn} cannot be reached: {str(error).strip()}", 1
        ) from None


def _password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("password: ")
    if getpass.getpass("again: ") != first:
        raise CommandError(PitCode.PASSWORD_MISMATCH, "the two passwords differ", 1)
    return first


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        dsn = store_dsn(args)
        if args.command == "init":
            return _init(dsn)
        if args.command == "serve":
            return _serve(args, dsn)
        if args.command == "rebuild":
            return _rebuild(dsn)
        store = _store(dsn)
        try:
            return _change(store, args)
        finally:
            store.close()
    except WireError as error:  # a table id the wire does not take: a value refused, as the store's are
        return _fail(PitCode.BAD_VALUE, error.message, 1)
    except Failure as error:  # the command line's, or the store's (exists, a bad value, not found)
        return _fail(error.code, error.message, error.exit_code)


def _fail(code: StrEnum, message: str, exit_code: int) -> int:
    return report(Failure(code, message, exit_code), Stream.STDERR)


def _init(dsn: str) -> int:
    store = _store(dsn, set_up=True)
    try:
        identity = store.pit_identity()
    finally:
        store.close()
    print(
        json.dumps({"migrations": [f"{m.version:03d}_{m.name}" for m in store.applied], "pit_key": identity.public_key})
    )
    return 0


def _rebuild(dsn: str) -> int:
    _store(dsn).close()  # reachable, and set up

    async def run() -> int:
        async with await psycopg.AsyncConnection.connect(dsn) as conn:
            async with conn.transaction():
                return await rebuild(conn)

    print(json.dumps({"records": asyncio.run(run())}))
    return 0


def _change(store: PitStore, args: Any) -> int:
    if args.command == "table":
        print(store.add_table(args.table_id).creds_file(), end="")
    elif args.command == "nats-config":
        cluster, leaf, head_office = _topology(store, args)
        if head_office is not None:
            _write_leaf_creds(args.leaf_creds_dir, head_office.rooms)
        print(
            nats_config(
                args.port,
                args.store,
                store.pit_identity().public_key,
                store.table_keys(),
                args.host,
                cluster,
                leaf,
                head_office,
            ),
            end="",
        )
    elif args.command == "user" and args.action == "password":
        user = store.set_password(args.name, _password(args.password_stdin))
        print(json.dumps({"user": user.name, "role": user.role.value, "password": "set"}))
    elif args.command == "user":
        if args.role is None:
            raise CommandError(CommandCode.BAD_ARGUMENTS, "dealer-assist pit user add: --role is needed for a new user")
        user = store.add_user(args.name, Role(args.role), _password(args.password_stdin))
        print(json.dumps({"user": user.name, "role": user.role.value}))
    elif args.command == "token":
        print(store.add_token(args.name, Role(args.role)))
    elif args.command == "payout-threshold":
        store.set_payout_threshold(args.amount)
        print(json.dumps({"payout_threshold": units(args.amount)}))
    return 0


def _topology(store: PitStore, args: Any) -> tuple[ClusterNode | None, LeafOfHeadOffice | None, HeadOffice | None]:
    """What `nats-config` was told of the node's place: in a cluster, in a room joined to a head office,
    in a head office (whose rooms are kept in its store, each with its leaf password, for its `pit serve`
    to source their streams)."""
    if (args.cluster is None) != (args.routes is None) or (args.cluster is None) != (args.node is None):
        raise CommandError(CommandCode.BAD_ARGUMENTS, "--cluster, --node and --routes go together")
    if not (args.leaf_remote is None) == (args.room is None) == (args.leaf_creds is None):
        raise CommandError(CommandCode.BAD_ARGUMENTS, "--leaf-remote, --room and --leaf-creds go together")
    if not args.head_office == (args.rooms is not None) == (args.leaf_listen is not None):
        raise CommandError(CommandCode.BAD_ARGUMENTS, "--head-office, --rooms and --leaf-listen go together")
    cluster = ClusterNode(args.cluster, args.node, _urls(args.routes)) if args.cluster is not None else None
    leaf = None
    if args.leaf_remote is not None:
        leaf = LeafOfHeadOffice(args.room, _urls(args.leaf_remote), _leaf_password(args.leaf_creds, args.room))
    head_office = None
    if args.head_office:
        names = list(_urls(args.rooms))
        HeadOffice(args.leaf_listen, {name: "" for name in names})  # names checked before any is kept
        head_office = HeadOffice(args.leaf_listen, store.set_rooms(names))
    return cluster, leaf, head_office


def _leaf_password(path: Path, room: str) -> str:
    try:
        named, password = read_leaf_creds(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"--leaf-creds {path}: {error.strerror or error}") from None
    except ValueError as error:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"--leaf-creds {path}: {error}") from None
    if named != room:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"--leaf-creds {path} is room {named!r}'s, not --room {room!r}'s")
    return password


def _write_leaf_creds(folder: Path, rooms: dict[str, str]) -> None:
    """Each room's leaf credentials in a file only its owner reads, named on stderr: never on a command line."""
    for room, password in sorted(rooms.items()):
        path = folder / f"{room}.leaf-creds"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.fchmod(fd, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(leaf_creds_file(room, password))
        except OSError as error:
            raise CommandError(
                CommandCode.BAD_ARGUMENTS, f"--leaf-creds-dir {folder}: {error.strerror or error}"
            ) from None
        print(json.dumps({"room": room, "leaf_creds": str(path)}), file=sys.stderr)


def _urls(listed: str) -> tuple[str, ...]:
    return tuple(item.strip() for item in listed.split(",") if item.strip())


def _serve(args: Any, dsn: str) -> int:
    address = parse_address(args.http)
    if bool(args.tls_cert) != bool(args.tls_key):
        raise CommandError(CommandCode.BAD_ARGUMENTS, "--tls-cert and --tls-key go together")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    keyed = log_key_and_policy(args.log_key, args.log_policy)
    if not args.log_interval > 0:
        raise CommandError(
            CommandCode.BAD_ARGUMENTS, f"--log-interval {args.log_interval}: a number of seconds above 0"
        )
    log = LogSettings(keyed[0], keyed[1], args.log_interval) if keyed is not None else None
    store = _store(dsn, set_up=True)
    try:
        seed = store.pit_identity().seed
        return asyncio.run(_run(store, seed, args.nats, address, args.tls_cert, args.tls_key, store.rooms(), log))
    finally:
        store.close()


async def _run(
    store: PitStore,
    seed: str,
    nats_url: str,
    address: Address,
    cert: str | None,
    key: str | None,
    rooms: list[str],
    log: LogSettings | None,
) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()

    def stopping() -> None:
        """A stop within STOP_S whatever the links: past it, the process ends with what it has."""
        if not stop.is_set():
            deadline = threading.Timer(STOP_S, _stopped_late)
            deadline.daemon = True
            deadline.start()
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopping)
    keeper = LogKeeper(store.dsn, log) if log is not None else None
    ingest = Ingest(nats_url, store.dsn, seed, rooms=rooms, log=keeper)  # a head office's rooms, kept by nats-config
    tasks = [asyncio.create_task(ingest.run(stop))]
    # Served once the pit has looked at its broker and store: /api/health never answers a default.
    known, stopped = asyncio.create_task(ingest.known.wait()), asyncio.create_task(stop.wait())
    await asyncio.wait([known, stopped, *tasks], return_when=asyncio.FIRST_COMPLETED)
    known.cancel()
    stopped.cancel()
    tasks.append(asyncio.create_task(_web(store, address, cert, key, stop, lambda: ingest.health().as_json())))
    print(json.dumps({"serving": f"{'https' if cert else 'http'}://{address}", "nats": nats_url}), flush=True)
    waiting = asyncio.create_task(stop.wait())
    await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
    stopping()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [r for r in results if isinstance(r, BaseException) and not isinstance(r, asyncio.CancelledError)]
    if failed:
        return _fail(PitCode.PIT_FAILED, f"{type(failed[0]).__name__}: {failed[0]}", 1)
    return 0


def _stopped_late() -> None:
    logging.getLogger("pit").warning("a link did not let go within %.1f s of the stop: ending now", STOP_S)
    logging.shutdown()
    os._exit(0)


async def _web(
    store: PitStore,
    address: Address,
    cert: str | None,
    key: str | None,
    stop: asyncio.Event,
    health: Callable[[], dict[str, Any]],
) -> None:
    import uvicorn

    from pit.service.web.serve import web_config

    config = web_config(
        store, str(address), Path(cert) if cert else None, Path(key) if key else None, health, LogReader(store.pool)
    )
    server = uvicorn.Server(config)
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]  # our stop event rules
    task = asyncio.create_task(server.serve())
    await stop.wait()
    server.should_exit = True
    await task

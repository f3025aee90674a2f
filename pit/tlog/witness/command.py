"""`dealer-assist witness keygen NAME --out FILE` and `dealer-assist witness serve --key FILE --state DB
--log VKEY [--log VKEY ...] --http HOST:PORT` (PIT.md §9, c2sp.org/tlog-witness)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
from pathlib import Path
from typing import Any

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import CommandCode, CommandError
from pit.tlog.errors import Malformed
from pit.tlog.keyfile import read_key, write_new_key
from pit.tlog.keys import SignatureType, VerifierKey
from pit.tlog.witness.state import WitnessState
from pit.tlog.witness.witness import Witness

STARTED_POLL_S = 0.02


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist witness", description="A tlog-witness for a room's log.")
    commands = parser.add_subparsers(dest="command", required=True)
    keygen = commands.add_parser("keygen", help="write a cosigner key (type 04) and print its vkey")
    keygen.add_argument("name", help="the witness's key name, e.g. witness-1.example-room.test")
    keygen.add_argument("--out", required=True, type=Path, metavar="FILE", help="the new key file (mode 0600)")
    serve = commands.add_parser("serve", help="answer POST /add-checkpoint for the logs given")
    serve.add_argument("--key", required=True, type=Path, metavar="FILE", help="the witness's key file")
    serve.add_argument("--state", required=True, type=Path, metavar="DB", help="the witness's SQLite state file")
    serve.add_argument("--log", required=True, action="append", metavar="VKEY", help="a log's vkey (repeatable)")
    serve.add_argument("--http", required=True, metavar="HOST:PORT")
    return parser


def main(argv: list[str]) -> int:
    def body() -> int:
        args = _parser().parse_args(argv)
        if args.command == "keygen":
            print(write_new_key(args.out, args.name, SignatureType.COSIGNATURE_V1).verifier())
            return 0
        return _serve(args)

    return reporting(body, Stream.STDERR)


def _log_keys(vkeys: list[str]) -> list[VerifierKey]:
    keys = []
    for text in vkeys:
        try:
            key = VerifierKey.parse(text)
        except Malformed as error:
            raise CommandError(CommandCode.BAD_ARGUMENTS, f"--log: {error}") from None
        if key.kind is not SignatureType.ED25519:
            raise CommandError(
                CommandCode.BAD_ARGUMENTS, f"--log {key.name}: a log key is of type 01, not {key.kind:02x}"
            )
        keys.append(key)
    return keys


def _address(http: str) -> tuple[str, int]:
    """'127.0.0.1:8081' -> ('127.0.0.1', 8081); '[::1]:8081' for IPv6."""
    host, _, port = http.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"--http {http!r}: use HOST:PORT, such as 127.0.0.1:8081")
    return host.strip("[]"), int(port)


def _serve(args: Any) -> int:
    host, port = _address(args.http)
    key = read_key(args.key, SignatureType.COSIGNATURE_V1)
    logs = _log_keys(args.log)
    state = WitnessState(args.state)
    try:
        return asyncio.run(_run(Witness(key, logs, state), host, port))
    finally:
        state.close()


async def _run(witness: Witness, host: str, port: int) -> int:
    import uvicorn

    from pit.tlog.witness.app import create_witness_app

    config = uvicorn.Config(create_witness_app(witness), host=host, port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    # Ctrl-C or SIGTERM stops it with exit 0, not with the signal uvicorn would raise again once stopped.
    server.capture_signals = contextlib.nullcontext  # type: ignore[method-assign,assignment]
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, lambda: setattr(server, "should_exit", True))
    task = asyncio.create_task(server.serve())
    while not server.started and not task.done():
        await asyncio.sleep(STARTED_POLL_S)
    if server.started:
        print(
            json.dumps(
                {
                    "serving": f"http://{host}:{port}",
                    "witness": str(witness.key.verifier()),
                    "logs": sorted(witness.origins),
                }
            ),
            flush=True,
        )
    await task
    return 0 if server.started else 1

"""`dealer-assist log keygen ORIGIN --out FILE`: the room's log key (PIT.md §9).

Writes an Ed25519 note key (type 0x01) named ORIGIN in Go's format, mode 0600, and prints its vkey.
"""
from __future__ import annotations

from pathlib import Path

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from pit.tlog.keyfile import write_new_key
from pit.tlog.keys import SignatureType


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist log", description="The room's public log.")
    commands = parser.add_subparsers(dest="command", required=True)
    keygen = commands.add_parser("keygen", help="write the log's note key and print its vkey")
    keygen.add_argument("origin", help="the log's origin and key name, e.g. pit.example-room.test/da-log")
    keygen.add_argument("--out", required=True, type=Path, metavar="FILE", help="the new key file (mode 0600)")
    return parser


def main(argv: list[str]) -> int:
    def body() -> int:
        args = _parser().parse_args(argv)
        print(write_new_key(args.out, args.origin, SignatureType.ED25519).verifier())
        return 0
    return reporting(body, Stream.STDOUT)

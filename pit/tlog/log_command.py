"""`dealer-assist log keygen ORIGIN --out FILE`: the room's log key (PIT.md §9); writes an Ed25519 note
key (type 0x01) named ORIGIN in Go's format, mode 0600, and prints its vkey. `dealer-assist log audit URL
--policy POLICY --state DIR`: exit 0 when the log only grew, 1 naming the break.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from pit.tlog.audit import Break, audit
from pit.tlog.keyfile import write_new_key
from pit.tlog.keys import SignatureType
from pit.tlog.policy import Policy
from pit.tlog.serve_log import read_policy


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist log", description="The room's public log.")
    commands = parser.add_subparsers(dest="command", required=True)
    keygen = commands.add_parser("keygen", help="write the log's note key and print its vkey")
    keygen.add_argument("origin", help="the log's origin and key name, e.g. pit.example-room.test/da-log")
    keygen.add_argument("--out", required=True, type=Path, metavar="FILE", help="the new key file (mode 0600)")
    audit = commands.add_parser("audit", help="check the published log only grew, and its new leaves")
    audit.add_argument("url", help="the log's prefix, http://HOST:PORT/log/")
    audit.add_argument("--policy", required=True, type=Path, metavar="POLICY", help="the log's tlog-policy")
    audit.add_argument("--state", required=True, type=Path, metavar="DIR", help="what the last audit saw")
    return parser


def main(argv: list[str]) -> int:
    def body() -> int:
        args = _parser().parse_args(argv)
        if args.command == "audit":
            return _audit(args.url, read_policy(args.policy), args.state)
        print(write_new_key(args.out, args.origin, SignatureType.ED25519).verifier())
        return 0

    return reporting(body, Stream.STDOUT)


def _audit(url: str, policy: Policy, state: Path) -> int:
    try:
        found = audit(url, policy, state)
    except Break as broken:
        print(f"BROKEN {broken}", file=sys.stderr)
        return 1
    print(f"log {url}: {found.size} leaves, grown from {found.old_size}, every new leaf chained onto its journal")
    return 0

"""`dealer-assist proof round --pit URL --token FILE --journal J --round R -o FILE` fetches a round's
proof file from the pit; `dealer-assist proof verify FILE --policy POLICY [--settle]` checks one offline (PIT.md §9):
exit 0 with one line, 1 `FAILED <step>: <why>`, 2 for input it cannot use."""

from __future__ import annotations

import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from pit.tlog.errors import TlogError
from pit.tlog.policy import Policy
from pit.tlog.round_proof import Failed, Unusable, load, verify
from pit.tlog.round_settle import settle

TIMEOUT_S = 30.0


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist proof", description="A round's proof from the room's public log.")
    commands = parser.add_subparsers(dest="command", required=True)
    fetch = commands.add_parser("round", help="fetch a round's proof file from the pit")
    fetch.add_argument("--pit", required=True, metavar="URL", help="the pit's dashboard, http://HOST:PORT")
    fetch.add_argument("--token", required=True, type=Path, metavar="FILE", help="an API token (`pit token add`)")
    fetch.add_argument("--journal", required=True, metavar="J", help="the journal's id (the hash of its first record)")
    fetch.add_argument("--round", required=True, type=int, metavar="R", help="the round's number")
    fetch.add_argument("-o", required=True, type=Path, metavar="FILE", dest="out", help="where the proof file goes")
    check = commands.add_parser("verify", help="check a proof file offline, step by step")
    check.add_argument("file", type=Path, help="a round-proof-v1 file")
    check.add_argument("--policy", required=True, type=Path, metavar="POLICY", help="the log's tlog-policy")
    check.add_argument("--settle", action="store_true", help="also replay the records through the rules")
    return parser


def main(argv: list[str]) -> int:
    def body() -> int:
        args = _parser().parse_args(argv)
        if args.command == "verify":
            return _verify(args.file, args.policy, args.settle)
        return _round(args.pit, args.token, args.journal, args.round, args.out)

    return reporting(body, Stream.STDOUT)


def _verify(file: Path, policy_file: Path, settling: bool) -> int:
    try:
        proof = load(file.read_bytes())
        policy = Policy.parse(policy_file.read_bytes())
    except OSError as error:
        raise Unusable(f"{error.filename}: {error.strerror}") from None
    except TlogError as error:
        raise Unusable(f"{policy_file}: {error.message}") from None
    try:
        proven = verify(proof, policy)
        if settling:
            settle(proof)
        print(proven.line() + ("; its ledger replays from its records" if settling else ""))
    except Failed as failed:
        print(failed, file=sys.stderr)
        return 1
    return 0


def _round(pit: str, token_file: Path, journal: str, round_id: int, out: Path) -> int:
    try:
        token = token_file.read_text(encoding="utf-8").strip()
    except OSError as error:
        raise Unusable(f"{token_file}: {error.strerror}") from None
    url = f"{pit.rstrip('/')}/api/proof/{urllib.parse.quote(journal, safe='')}/{round_id}"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
            data = answer.read()
    except urllib.error.HTTPError as error:
        print(f"the pit answered {error.code}: {error.read().decode('utf-8', 'replace').strip()}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError) as error:
        print(f"the pit at {pit} cannot be reached: {error}", file=sys.stderr)
        return 1
    out.write_bytes(data)
    print(f"round {round_id} of journal {journal}: proof written to {out}")
    return 0

"""`dealer-assist journal ...`: the table's journal commands, plus the two that need the pit.

`journal ship DB --pit URL --pit-creds FILE [--listen]` sends what the stream lacks (and, with
`--listen`, answers the pit's resend requests until Ctrl-C); `journal verify DB --pit
URL [--token FILE]` checks the file against the pit's witnessed copy as well as on its own. Every
other `journal` command is the domain's own (`dealer_assist.commands.journal`), which never
imports the card room.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_assist.commands import journal as domain_journal
from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.journal.journal_file import last_seq, verify
from dealer_assist.table.header import table_config

if TYPE_CHECKING:  # the broker's client loads only for the commands that talk to it
    from pit.shipping.link import PitLink

USAGE_ERROR = 2


def main(argv: list[str]) -> int:
    if argv[:1] == ["ship"]:
        return reporting(lambda: ship_main(argv[1:]), Stream.STDOUT, rule=True)
    if argv[:1] == ["verify"] and any(arg == "--pit" or arg.startswith("--pit=") for arg in argv):
        return reporting(lambda: verify_main(argv[1:]), Stream.STDOUT, rule=True)
    return int(domain_journal.main(argv))


def ship_main(argv: list[str]) -> int:
    parser = JsonArgumentParser(
        prog="dealer-assist journal ship",
        description="Send the pit's stream every record of a journal it does not hold yet.",
    )
    parser.add_argument("db", type=Path)
    parser.add_argument(
        "--pit", required=True, metavar="URL", help="the broker: nats://HOST:PORT or tls://..., comma-separated"
    )
    parser.add_argument(
        "--pit-creds", required=True, metavar="FILE", help="the table's credentials (dealer-assist pit table add)"
    )
    parser.add_argument(
        "--listen", action="store_true", help="after sending, answer the pit's requests for records again until Ctrl-C"
    )
    args = parser.parse_args(argv)
    from pit.shipping.link import PitLink
    from pit.shipping.ship_listen import listen

    try:
        if not args.db.is_file():
            raise ValueError(f"{args.db}: no such journal file")
        link = PitLink.of(args.pit, args.pit_creds)
        table_id = table_config(args.db).table_id
    except (ValueError, OSError, KeyError) as error:
        print(f"dealer-assist journal ship: {error}", file=sys.stderr)
        return USAGE_ERROR
    code, message = asyncio.run(ship(args.db, table_id, link))
    print(message, file=sys.stdout if code == 0 else sys.stderr, flush=True)
    if args.listen:
        return asyncio.run(listen(args.db, table_id, link, ship))
    return code


async def ship(path: Path, table_id: str, link: PitLink) -> tuple[int, str]:
    """Send what the stream lacks (its gaps, then what follows its highest record), then ask the
    broker again that it holds every record of the journal."""
    from pit.shipping.link import quietly_close
    from pit.shipping.outbox import Divergence, fill, holding, journal_of, ship_from

    errors: list[str] = []
    lost = asyncio.Event()

    async def on_error(error: Exception) -> None:
        errors.append(str(error) or type(error).__name__)

    async def on_lost() -> None:
        lost.set()

    journal = journal_of(path)
    if journal is None:
        return 0, f"{path}: the journal has no records: nothing to send"
    head = last_seq(path)
    try:
        client = await link.connect(table_id, on_error, on_lost)
    except Exception as error:
        return 1, f"FAILED: the broker at {', '.join(link.urls)} cannot be reached: {error or type(error).__name__}"
    try:
        js = client.jetstream(timeout=5.0)
        held = await holding(client, table_id, journal, path)
        await fill(js, table_id, journal, path, held.missing, lost)
        await ship_from(js, table_id, journal, path, held.top, lost, lambda seq: None)
        now = await holding(client, table_id, journal, path)
    except Divergence as divergence:
        return 1, f"DIVERGED: {divergence}; nothing was sent"
    except Exception as error:
        detail = f" ({errors[-1]})" if errors else ""
        return 1, f"FAILED: the broker refused or stopped answering: {error or type(error).__name__}{detail}"
    finally:
        await quietly_close(client)
    if not now.complete(head):
        return 1, (
            f"FAILED: the stream lacks {now.lacking(head)} of {head} records after sending, "
            f"from seq {now.first_missing}"
        )
    gaps = f", {len(held.missing)} of them in gaps from seq {held.first_missing}" if held.missing else ""
    return 0, (
        f"OK: the pit's stream holds all {head} records of journal {journal[:12]} ({held.lacking(head)} sent now{gaps})"
    )


def verify_main(argv: list[str]) -> int:
    parser = JsonArgumentParser(
        prog="dealer-assist journal verify",
        description="Check a journal's file, and against the copy the pit witnessed.",
    )
    parser.add_argument("db", type=Path)
    parser.add_argument("--pit", required=True, metavar="URL", help="the pit's web address: http(s)://HOST:PORT")
    parser.add_argument(
        "--token", type=Path, metavar="FILE", help="a file holding a pit API token (dealer-assist pit token add)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from pit.shipping.outbox import journal_of
    from pit.shipping.witness_check import PitUnavailable, PitWeb, check_against_pit, describe

    if not args.db.is_file():
        print(f"dealer-assist journal verify: {args.db}: no such journal file", file=sys.stderr)
        return USAGE_ERROR
    verdict = verify(args.db)
    journal = journal_of(args.db) if verdict.records else None
    try:
        token = args.token.read_text(encoding="utf-8").strip() if args.token else None
        comparison = check_against_pit(args.db, journal, PitWeb(args.pit, token)) if journal else None
    except (OSError, PitUnavailable) as error:
        print(f"dealer-assist journal verify: cannot check against the pit: {error}", file=sys.stderr)
        print(("OK: " if verdict.ok else "DAMAGED: ") + verdict.message)
        return USAGE_ERROR
    agrees = comparison is None or comparison.agrees
    pit_text = describe(comparison) if comparison is not None else "the journal has no records for the pit to witness"
    if args.json:
        print(
            json.dumps(
                {
                    "ok": verdict.ok and agrees,
                    "records": verdict.records,
                    "first_bad": verdict.first_bad,
                    "message": verdict.message,
                    "pit": {
                        "agrees": agrees,
                        "message": pit_text,
                        "witnessed": comparison.witnessed if comparison else 0,
                        "first_differs": comparison.first_differs[0]
                        if comparison and comparison.first_differs
                        else None,
                        "missing": [list(run) for run in comparison.missing] if comparison else [],
                        "not_yet_witnessed": list(comparison.not_yet) if comparison and comparison.not_yet else None,
                    },
                }
            )
        )
    else:
        print(("OK: " if verdict.ok else "DAMAGED: ") + verdict.message)
        print(("PIT OK: " if agrees else "DIFFERS FROM THE PIT: ") + pit_text)
    return 0 if verdict.ok and agrees else 1

"""`dealer-assist journal verify|recall|export`: the floor supervisor's view of a table's journal."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, report
from dealer_assist.errors import CommandCode, Failure
from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.errors import JournalCode, JournalDamaged, JournalError
from dealer_assist.journal.record_source import SqliteRecords, verify_source
from dealer_assist.journal.trusted import intact_journal
from dealer_assist.rules.refusals import InputError
from dealer_assist.text.round_story import HANDS_HEAD, LEDGER_HEAD, story


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist journal", description="Check, recall and export a table's journal.")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="check every record and the seal; exit 1 when damaged")
    check.add_argument("db")
    check.add_argument("--json", action="store_true")
    show = commands.add_parser("recall", help="show past rounds with every input, operation and the ledger")
    show.add_argument("db")
    which = show.add_mutually_exclusive_group()
    which.add_argument("--last", type=int, default=10, help="the last N rounds (default 10)")
    which.add_argument("--round", type=int, dest="round_id", help="one round by its id")
    show.add_argument("--json", action="store_true")
    out = commands.add_parser("export", help="one closed round as a round file for `dealer-assist settle`")
    out.add_argument("db")
    out.add_argument("round_id", type=int)
    return parser


def main(argv: list[str]) -> int:
    try:
        return _journal(argv)
    except JournalDamaged as damaged:  # exit 1: the file is evidence of damage, the command line was right
        report(damaged, Stream.STDOUT, rule=True, first_bad=damaged.verdict.first_bad)
        return 1
    except Failure as failure:
        return report(failure, Stream.STDOUT, rule=True)


def _journal(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    if not Path(args.db).is_file():
        raise JournalError(JournalCode.NO_JOURNAL, f"{args.db}: no such journal file")
    source = SqliteRecords(args.db)
    if args.command == "verify":
        verdict = verify_source(source)
        if args.json:
            print(
                json.dumps(
                    {
                        "ok": verdict.ok,
                        "records": verdict.records,
                        "first_bad": verdict.first_bad,
                        "message": verdict.message,
                    }
                )
            )
        else:
            print(("OK: " if verdict.ok else "DAMAGED: ") + verdict.message)
        return 0 if verdict.ok else 1
    intact_journal(Path(args.db))  # recall and export print evidence: a damaged journal is refused
    if args.command == "recall":
        if args.last is not None and args.last < 1:
            raise InputError(CommandCode.BAD_ARGUMENTS, f"--last {args.last}: ask for one round or more")
        found = recall(source, last=None if args.round_id else args.last, round_id=args.round_id)
        print(json.dumps(found, indent=1) if args.json else "\n\n".join(render_round(r) for r in found))
        return 0
    print(json.dumps(export_round(source, args.round_id), indent=2))
    return 0


def render_round(entry: dict[str, Any]) -> str:
    """One round as a supervisor reads it, in the words of the recall screen and the dispute report
    (one `RoundStory`): inputs with the operations they caused, corrections, refusals and device
    records, the final hands, then the ledger."""
    told = story(entry)
    lines = ["   ".join(told.heading)]
    if told.bank:
        lines.append(f"Player-dealer's bank: {told.bank}")
    for step in told.steps:
        lines.append(f"  #{step.seq:<7} {step.time}  {step.text}")
        lines += [f"{'':23}→ {op}" for op in step.operations]
    for title, rows in (
        ("Corrections", told.corrections),
        ("Refused inputs", told.refused),
        ("Device records", told.devices),
    ):
        if rows:
            lines += [f"{title}:", *(f"  #{row.seq:<7} {row.time}  {row.text}" for row in rows)]
    if told.hands:
        lines += [
            "Final hands:",
            *_columns(HANDS_HEAD, [(h.owner, h.hand or "—", h.cards, h.total) for h in told.hands]),
        ]
    if told.ledger:
        lines += ["Ledger:", *_columns(LEDGER_HEAD, [row.cells for row in told.ledger])]
        lines.append(
            "Nets: "
            + "   ".join(f"{seat} {net}" for seat, net in told.seat_nets)
            + (f"   player-dealer {told.player_dealer_net}" if told.player_dealer_net else "")
        )
    else:
        lines.append(
            "No ledger: the round was voided." if told.state == "voided" else "No ledger yet: the round is open."
        )
    return "\n".join(lines)


def _columns(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    """A table in aligned columns, its head first."""
    widths = [max(len(cell) for cell in column) for column in zip(head, *rows, strict=False)]
    return [
        "  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip()
        for row in (head, *rows)
    ]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

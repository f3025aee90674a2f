"""`dealer-assist journal verify|recall|export`: the floor supervisor's view of a table's journal."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dealer_assist.errors import InputError, JournalError, Refusal, RuleError
from dealer_assist.recall import export_round, recall
from dealer_assist.record_source import SqliteRecords, verify_source
from dealer_assist.record_words import amount_text, describe_fields, wager_name
from dealer_assist.trusted_journal import JournalDamaged, intact_journal


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise InputError(Refusal.BAD_ARGUMENTS, f"{self.prog}: {message}")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dealer-assist journal", description="Check, recall and export a table's journal.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
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
        args = _parser().parse_args(argv)
        if not Path(args.db).is_file():
            raise JournalError(Refusal.NO_JOURNAL, f"{args.db}: no such journal file")
        source = SqliteRecords(args.db)
        if args.command == "verify":
            verdict = verify_source(source)
            if args.json:
                print(json.dumps({"ok": verdict.ok, "records": verdict.records, "first_bad": verdict.first_bad,
                                  "message": verdict.message}))
            else:
                print(("OK: " if verdict.ok else "DAMAGED: ") + verdict.message)
            return 0 if verdict.ok else 1
        intact_journal(Path(args.db))  # recall and export print evidence: a damaged journal is refused
        if args.command == "recall":
            if args.last is not None and args.last < 1:
                raise InputError(Refusal.BAD_ARGUMENTS, f"--last {args.last}: ask for one round or more")
            found = recall(source, last=None if args.round_id else args.last, round_id=args.round_id)
            print(json.dumps(found, indent=1) if args.json else "\n\n".join(render_round(r) for r in found))
            return 0
        print(json.dumps(export_round(source, args.round_id), indent=2))
        return 0
    except JournalDamaged as error:
        print(json.dumps(error.to_json() | {"first_bad": error.verdict.first_bad}))
        return 1
    except RuleError as error:
        print(json.dumps(error.to_json()))
        return 2


def render_round(entry: dict[str, Any]) -> str:
    """One round as a supervisor reads it: inputs with their operations, then the ledger."""
    state = "voided" if entry["voided"] else "closed" if entry["closed"] else "OPEN"
    lines = [f"Round {entry['round_id']}  [{state}]  {entry['started']} .. {entry['ended'] or '-'}"]
    ops_by_seq: dict[int, list[dict[str, Any]]] = {}
    for op in entry["operations"]:
        ops_by_seq.setdefault(op["seq"], []).append(op)
    for event in entry["inputs"]:
        lines.append(f"  #{event['seq']:<7} {_describe(event)}")
        lines += [f"            -> {_describe(op)}" for op in ops_by_seq.get(event["seq"], [])]
    for refused in entry["refused"]:
        lines.append(f"  #{refused['seq']:<7} REFUSED {_describe(refused['input'])}: {refused['error']['message']}")
    for fix in entry["corrections"]:
        lines.append(f"  correction #{fix['seq']}: {_describe(fix)}")
    ledger = entry["ledger"]
    if ledger:
        lines.append("  ledger:")
        for row in ledger["settlements"]:
            lines.append(f"    seat {row['seat']} hand {row['hand'] + 1} {wager_name(row['wager']):<11} "
                         f"stake {amount_text(row['stake']):>9} {row['result']:<9} in action {amount_text(row['in_action']):>9} "
                         f"amount {amount_text(row['amount'], signed=True):>10}")
        if ledger["player_dealer"]:
            lines.append(f"    player-dealer net {amount_text(ledger['player_dealer']['net'], signed=True)}")
    return "\n".join(lines)


def _describe(data: dict[str, Any]) -> str:
    return f"{data['type']}({describe_fields(data)})"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

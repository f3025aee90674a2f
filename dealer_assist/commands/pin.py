"""`dealer-assist pin set | hash`: the floor supervisor's PIN, set where the table is set up.

A table's first PIN is never chosen on its screen, where whoever taps first would choose it:

    printf '4821\\n' | dealer-assist pin set --journal T1.db --profile nobust-4.0 --table-id T1
    printf '4821\\n7305\\n' | dealer-assist pin set --config /etc/dealer-assist/table.toml   # current, then new
    printf '4821\\n' | dealer-assist pin hash      # for the table file's supervisor_pin = "..."

Both read standard input, so a PIN never shows in a command line or the shell's history; at a
terminal they ask for it unseen, the new PIN twice. `set`
opens the table (making its journal when there is none), which takes the journal's lock, and
records the PIN as the table's, and nothing else (the table is not dealt, so no restart is
recorded): the current PIN first when the table has one (the bench's printed PIN included), then
the new one. A new PIN is checked by the one rule of `pins.check_new_pin` however it is given,
before the table is opened. It prints `{"pin_set": {"journal", "table_id"}}`.
"""

from __future__ import annotations

import getpass
import json
import sys
from pathlib import Path

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.pins import PinSetter, check_new_pin, pin_hash_text
from dealer_assist.table.table_file import table_start


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(
        prog="dealer-assist pin", description="Set the table's supervisor PIN, from standard input."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    setting = commands.add_parser("set", help="record the table's PIN (the current one first when it has one)")
    setting.add_argument("--config", type=Path, metavar="FILE", help="the table file, as `run --config` reads it")
    setting.add_argument("--journal", type=Path, help="the table's journal (default: the table file's, or run's)")
    setting.add_argument("--profile", help="the rule profile of a new table")
    setting.add_argument("--table-id", help="the table's name in a new journal")
    commands.add_parser("hash", help="print the PIN's hash for the table file's supervisor_pin")
    return parser


def main(argv: list[str]) -> int:
    return reporting(lambda: _pin(argv), Stream.STDOUT)


def _pin(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    lines = (
        _typed(args.command == "set")
        if sys.stdin.isatty()
        else [line.strip() for line in sys.stdin.read().splitlines() if line.strip()]
    )
    if args.command == "hash":
        print(pin_hash_text(_one(lines, "a PIN")))
        return 0
    if lines:
        check_new_pin(lines[-1])  # the new PIN is the last line: refused before the table is opened
    start = table_start(args.config, args.table_id, args.profile, args.journal)
    start.journal.parent.mkdir(parents=True, exist_ok=True)
    table = Table.open(start.journal, start.config, named=start.named, resumed=False)
    table_id = table.session.config.table_id
    try:
        if table.pins.digest is None:
            table.set_pin(_one(lines, "the new PIN"), by=PinSetter.SETUP)
        else:
            if len(lines) != 2:
                raise RuleError(
                    Refusal.WRONG_PIN,
                    f"table {table_id} has a supervisor PIN: give the "
                    "current PIN, then the new one, a line each, on standard input",
                )
            table.set_pin(lines[1], lines[0], by=PinSetter.SETUP)
    finally:
        table.close()
    print(json.dumps({"pin_set": {"journal": str(start.journal), "table_id": table_id}}))
    return 0


def _typed(with_current: bool) -> list[str]:
    """At a terminal: the PINs typed unseen, the new one twice (for `set`, the current one first if
    the table has one: an empty entry says it has none)."""
    current = getpass.getpass("Current PIN (Enter if the table has none): ").strip() if with_current else ""
    new = getpass.getpass("New PIN: ").strip()
    check_new_pin(new)
    if getpass.getpass("New PIN again: ").strip() != new:
        raise RuleError(Refusal.PIN_MISMATCH, "the second entry differs from the first: nothing was set")
    return [current, new] if current else [new]


def _one(lines: list[str], what: str) -> str:
    if len(lines) != 1:
        raise RuleError(Refusal.BAD_PIN, f"give {what}, alone on one line, on standard input")
    return lines[0]

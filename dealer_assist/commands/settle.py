"""`dealer-assist settle ROUND.json [--table]`: replay one round file and print its ledger."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import CommandCode
from dealer_assist.play.round_file import settle_round
from dealer_assist.rules.refusals import InputError
from dealer_assist.text.record_words import amount_text, result_word, wager_name


def load_json(path: str) -> object:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise InputError(CommandCode.UNREADABLE_FILE, f"{path}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise InputError(CommandCode.MALFORMED_JSON, f"{path}: not UTF-8 text (byte {error.start})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            CommandCode.MALFORMED_JSON, f"{path}: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None


def main(argv: list[str]) -> int:
    return reporting(lambda: _settle(argv), Stream.STDOUT, rule=True)


def _settle(argv: list[str]) -> int:
    parser = JsonArgumentParser(prog="dealer-assist settle", description="Settle one round file (round-v1).")
    parser.add_argument("round", help="the round file, or - for standard input")
    parser.add_argument("--table", action="store_true", help="print a readable table instead of JSON")
    args = parser.parse_args(argv)
    result = settle_round(load_json(args.round))  # nothing is printed before the whole ledger is known
    print(render_table(result) if args.table else json.dumps(result, indent=2))
    return 0


def render_table(ledger: dict[str, Any]) -> str:
    """The ledger as the dealer reads it: hands, then every wager in settlement order."""
    dealer = ledger["dealer"]
    lines = [
        f"Profile {ledger['profile']}   action starts at seat {ledger['action_seat'] or '-'}",
        f"Dealer  {' '.join(dealer['cards']):<24} {dealer['total']:>3}  {dealer['status']}",
        "",
        "Seat Hand  Cards                     Total  Status",
    ]
    for hand in ledger["hands"]:
        marks = (" doubled" if hand["doubled"] else "") + (" surrendered" if hand["surrendered"] else "")
        lines.append(
            f"{hand['seat']:>4} {hand['hand'] + 1:>4}  {' '.join(hand['cards']):<24} {hand['total']:>6} "
            f" {hand['status']}{marks}"
        )
    lines += ["", "  #  Seat Hand  Wager        Stake  Result     In action     Amount"]
    for number, row in enumerate(ledger["settlements"], 1):
        lines.append(
            f"{number:>3}  {row['seat']:>4} {row['hand'] + 1:>4}  {wager_name(row['wager']):<11}"
            f" {amount_text(row['stake']):>6}  "
            f"{result_word(row['result']):<9} {amount_text(row['in_action']):>9}"
            f" {amount_text(row['amount'], signed=True):>10}"
        )
    lines.append("")
    lines += [f"Seat {seat} net {amount_text(entry['net'], signed=True)}" for seat, entry in ledger["seats"].items()]
    if ledger["player_dealer"]:
        pd = ledger["player_dealer"]
        lines.append(
            f"Player-dealer (seat {pd['seat']}, bank {amount_text(pd['bank'])}) net"
            f" {amount_text(pd['net'], signed=True)}"
        )
    fees = ledger["fees"]
    lines.append(
        f"Fees: players {amount_text(fees['players'])}, player-dealer {amount_text(fees['player_dealer'])}  "
        f" unused cards {ledger['unused_cards']}"
    )
    return "\n".join(lines)

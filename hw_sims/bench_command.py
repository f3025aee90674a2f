"""`dealer-assist bench --rounds N --seed S --journal DB [--resume]`: a headless table at work.

By default its devices are the wire emulators on pseudo-terminals (`--links pty`); `--links
in-process` feeds the same inputs straight to the table controller, for long runs where the links
are not what is being measured. A journal that stops taking records ends the run: exit 2 with the
error, the journal intact up to its last record. `--pit URL --pit-creds FILE` ships the journal to
the card room as it is written; `--pace SECONDS` waits between the table's moves, for a table dealt
at a human pace. Its status messages carry the device lights the table controller keeps, as
`run`'s do (none with `--links in-process`, which has no device links).
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from dealer_assist.bench import BenchPlayer
from dealer_assist.errors import JournalError, Refusal, RuleError
from dealer_assist.journal import JournalCorrupt
from dealer_assist.table import Table
from dealer_assist.table_session import TableConfig
from devices.cli_support import stop_on_signals
from devices.table_controller import TableController
from hw_sims.linked_bench import LinkedBench
from pit.shipping.link import PitLinkError, add_pit_options, pit_link
from pit.shipping.shipper import Shipper, attach_shipper
from pit.shipping.table_view import snapshot_view
from pit.stream.wire import WireError, check_table_id

DRAIN_S = 10.0  # at the end, how long the bench waits for the pit's stream to hold every record


def _refusal(error: RuleError | JournalCorrupt | WireError | PitLinkError) -> tuple[Refusal, str]:
    """What the bench prints for a start it refuses: the code and the message."""
    match error:
        case RuleError():
            return error.code, error.message
        case JournalCorrupt():
            return Refusal.JOURNAL_DAMAGED, error.verdict.message
        case WireError():
            return Refusal.BAD_TABLE_ID, str(error)
        case _:
            return Refusal.BAD_PIT, str(error)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="dealer-assist bench", description="Play N complete rounds into a journal.")
    parser.add_argument("--rounds", type=int, required=True, help="rounds to have closed in the journal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", required=True, type=Path)
    parser.add_argument("--resume", action="store_true", help="continue the table in an existing journal")
    parser.add_argument("--profile", default="nobust-4.0")
    parser.add_argument("--table-id", default="BENCH-1")
    parser.add_argument("--links", choices=("pty", "in-process"), default="pty",
                        help="emulated devices on pseudo-terminals (default), or inputs fed in process")
    parser.add_argument("--pace", type=float, default=0.0, metavar="SECONDS", help="wait this long after each move")
    add_pit_options(parser)
    args = parser.parse_args(argv)
    # Stopped by hand or by `room`, the bench ends between two moves, never inside a journal
    # append, and the journal closes as after the last round.
    with stop_on_signals() as stop:
        return _bench(args, stop)


def _bench(args: argparse.Namespace, stop: threading.Event) -> int:
    try:
        check_table_id(args.table_id)
        link = pit_link(args.pit, args.pit_creds)
        if args.journal.exists() and not args.resume:
            raise JournalError(Refusal.JOURNAL_EXISTS, f"{args.journal} exists: use --resume to continue it (nothing is overwritten)")
        if args.resume and not args.journal.exists():
            raise JournalError(Refusal.NO_JOURNAL, f"{args.journal}: nothing to resume")
        table = Table.open(args.journal, TableConfig(args.table_id, args.profile),
                           devices={"shoe": {"model": "emulated", "seed": args.seed}})
    except (RuleError, JournalCorrupt, WireError, PitLinkError) as error:
        code, message = _refusal(error)
        print(json.dumps({"error": {"code": code, "message": message}}))
        return 2
    bench = LinkedBench(table, args.seed) if args.links == "pty" else None
    controller = bench.controller if bench is not None else TableController(table)
    shipper = None if link is None else attach_shipper(table.journal, controller.table_id, link,
                                                       snapshot_view(lambda: controller.snapshot, controller.device_lights),
                                                       _link_said())
    step = bench.step if bench is not None else _in_process(controller, args.seed)
    start, steps = time.perf_counter(), 0
    try:
        if bench is not None:
            bench.start()
        try:
            while table.rounds_closed < args.rounds and not stop.is_set():
                step()
                steps += 1
                if args.pace:
                    stop.wait(args.pace)
        finally:
            if bench is not None:
                bench.stop()
    except RuleError as error:
        table.close()
        _stop(shipper)
        print(json.dumps(error.to_json()))
        return 2
    table.close()
    elapsed = time.perf_counter() - start
    summary = {"rounds": table.rounds_closed, "steps": steps, "records": table.journal.seq, "links": args.links,
               "seconds": round(elapsed, 3)}
    if shipper is not None:
        _stop(shipper)
        summary["pit"] = shipper.link_text()
    print(json.dumps(summary))
    return 0


def _link_said() -> Callable[[str, bool], None]:
    """The status line's pit link, on standard error each time it goes down or comes back
    ("pit: down · 312 to send"), as the dealer would see it change."""
    last: list[bool] = []

    def said(text: str, up: bool) -> None:
        if last != [up]:
            last[:] = [up]
            print(text, file=sys.stderr, flush=True)

    return said


def _in_process(controller: TableController, seed: int) -> Callable[[], None]:
    """One move of an in-process bench: the bench player's next input, straight to the controller."""
    player = BenchPlayer(seed)

    def step() -> None:
        refused = controller.submit(player.next_input(controller.table.session))
        if refused is not None:
            raise refused

    return step


def _stop(shipper: Shipper | None) -> None:
    """Give the pit's stream the journal's last records, if the link allows, then stop shipping."""
    if shipper is not None:
        shipper.stop(DRAIN_S)

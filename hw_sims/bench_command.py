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
from typing import Any

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import Failure
from dealer_assist.journal.errors import JournalCode, JournalError
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.session import TableConfig
from dealer_assist.table.spots import layout
from devices.cli_support import stop_on_signals
from devices.table_owner.controller import TableController
from hw_sims.commands import felt
from hw_sims.linked_bench import LinkedBench
from pit.shipping.link import add_pit_options, pit_link
from pit.shipping.shipper import Shipper, attach_shipper
from pit.shipping.table_view import snapshot_view
from pit.stream.wire import check_table_id

PROFILE, TABLE_ID = "nobust-4.0", "BENCH-1"  # a new bench journal's table, unless named
MOST_SEATS = 12  # a --spot is checked against the largest layout: the table's is known once its journal is open
DRAIN_S = 10.0  # at the end, how long the bench waits for the pit's stream to hold every record
STOPPED_DRAIN_S = 1.5  # stopped by Ctrl-C or SIGTERM: the wait is cut to this, so the bench ends within 5 s


def main(argv: list[str]) -> int:
    return reporting(lambda: _main(argv), Stream.STDOUT)


def _main(argv: list[str]) -> int:
    parser = JsonArgumentParser(prog="dealer-assist bench", description="Play N complete rounds into a journal.")
    parser.add_argument("--rounds", type=int, required=True, help="rounds to have closed in the journal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--journal", required=True, type=Path)
    parser.add_argument("--resume", action="store_true", help="continue the table in an existing journal")
    parser.add_argument("--profile", help=f"the rule profile of a new journal (default {PROFILE})")
    parser.add_argument("--table-id", help=f"the table of a new journal (default {TABLE_ID})")
    parser.add_argument(
        "--links",
        choices=("pty", "in-process"),
        default="pty",
        help="emulated devices on pseudo-terminals (default), or inputs fed in process",
    )
    parser.add_argument("--pace", type=float, default=0.0, metavar="SECONDS", help="wait this long after each move")
    parser.add_argument(
        "--wagers",
        action="store_true",
        help="the players bet with chips on an emulated wager reader's spots (with --links pty)",
    )
    parser.add_argument(
        "--spot",
        action="append",
        default=[],
        metavar="SPOT=CENTS[,CENTS...]",
        help="chips on a spot of the emulated reader as the bench starts (the felt as it is), e.g. 3.base=2500,500",
    )
    add_pit_options(parser)
    args = parser.parse_args(argv)
    if (args.wagers or args.spot) and args.links != "pty":
        parser.error("--wagers and --spot need the emulated devices' links (--links pty)")
    if args.spot and not args.wagers:
        parser.error("--spot needs --wagers")
    args.felt = felt(args.spot, layout(MOST_SEATS))
    # Stopped by hand or by `room`, the bench ends between two moves, never inside a journal
    # append, and the journal closes as after the last round.
    with stop_on_signals() as stop:
        return _bench(args, stop)


def _bench(args: argparse.Namespace, stop: threading.Event) -> int:
    check_table_id(args.table_id or TABLE_ID)
    link = pit_link(args.pit, args.pit_creds)
    if args.journal.exists() and not args.resume:
        raise JournalError(
            JournalCode.JOURNAL_EXISTS, f"{args.journal} exists: use --resume to continue it (nothing is overwritten)"
        )
    if args.resume and not args.journal.exists():
        raise JournalError(JournalCode.NO_JOURNAL, f"{args.journal}: nothing to resume")
    named = {
        field: flag for field, flag in (("profile", "--profile"), ("table_id", "--table-id")) if getattr(args, field)
    }
    devices: dict[str, Any] = {"shoe": {"model": "emulated", "seed": args.seed}}
    if args.wagers:
        devices["wagers"] = {"model": "emulated", "seed": args.seed}
    controller = TableController.open(
        args.journal, TableConfig(args.table_id or TABLE_ID, args.profile or PROFILE), named=named, devices=devices
    )
    bench = LinkedBench(controller, args.seed, args.wagers, args.felt) if args.links == "pty" else None
    if bench is not None and bench.pin_set:
        print(
            f"dealer-assist bench: this bench journal's supervisor PIN is {bench.pin}, set by the bench; the journal "
            "will not deal live with real devices until a floor supervisor sets another",
            file=sys.stderr,
        )
    shipper = (
        None
        if link is None
        else attach_shipper(
            controller.journal_path,
            controller.add_sink,
            controller.table_id,
            link,
            snapshot_view(lambda: controller.snapshot, controller.device_lights),
            _link_said(),
        )
    )
    step = bench.step if bench is not None else _in_process(controller, args.seed)
    start, steps = time.perf_counter(), 0
    try:
        if bench is not None:
            bench.start()
        try:
            while controller.rounds_closed < args.rounds and not stop.is_set():
                step()
                steps += 1
                if args.pace:
                    stop.wait(args.pace)
        finally:
            if bench is not None:
                bench.stop()
    except Failure:  # the table refused the bench's own move, or its journal stopped
        controller.close()
        _stop(shipper, stop)
        raise
    controller.close()
    elapsed = time.perf_counter() - start
    summary = {
        "rounds": controller.rounds_closed,
        "steps": steps,
        "records": controller.records_written,
        "links": args.links,
        "seconds": round(elapsed, 3),
    }
    if shipper is not None:
        _stop(shipper, stop)
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
        refused = controller.submit(player.next_input(controller.facts()))
        if refused is not None:
            raise refused

    return step


def _stop(shipper: Shipper | None, stop: threading.Event) -> None:
    """Give the pit's stream the journal's last records, if the link allows, then stop shipping:
    a bench told to stop (even while it waits here) waits at most STOPPED_DRAIN_S more."""
    if shipper is not None:
        shipper.stop(STOPPED_DRAIN_S if stop.is_set() else DRAIN_S, stop, STOPPED_DRAIN_S)

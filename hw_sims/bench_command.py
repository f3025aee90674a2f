"""`dealer-assist bench --rounds N --seed S --journal DB [--resume]`: a headless table at work.

By default its devices are the wire emulators on pseudo-terminals (`--links pty`); `--links
in-process` feeds the same inputs straight to the table controller, for long runs where the links
are not what is being measured. A journal that stops taking records ends the run: exit 2 with the
error, the journal intact up to its last record.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from dealer_assist.bench import BenchPlayer
from dealer_assist.errors import RuleError, Refusal
from dealer_assist.journal import JournalCorrupt
from dealer_assist.table import Table
from dealer_assist.table_session import TableConfig
from devices.table_controller import TableController
from hw_sims.linked_bench import LinkedBench


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
    args = parser.parse_args(argv)
    try:
        if args.journal.exists() and not args.resume:
            raise RuleError(Refusal.JOURNAL_EXISTS, f"{args.journal} exists: use --resume to continue it (nothing is overwritten)")
        if args.resume and not args.journal.exists():
            raise RuleError(Refusal.NO_JOURNAL, f"{args.journal}: nothing to resume")
        table = Table.open(args.journal, TableConfig(args.table_id, args.profile),
                           devices={"shoe": {"model": "emulated", "seed": args.seed}})
    except (RuleError, JournalCorrupt) as error:
        message = error.verdict.message if isinstance(error, JournalCorrupt) else error.message
        print(json.dumps({"error": {"code": getattr(error, "code", "journal_damaged"), "message": message}}))
        return 2
    start, steps = time.perf_counter(), 0
    try:
        if args.links == "pty":
            bench = LinkedBench(table, args.seed)
            bench.start()
            try:
                while table.rounds_closed < args.rounds:
                    bench.step()
                    steps += 1
            finally:
                bench.stop()
        else:
            player, controller = BenchPlayer(args.seed), TableController(table)
            while table.rounds_closed < args.rounds:
                refused = controller.submit(player.next_input(table.session))
                if refused is not None:
                    raise refused
                steps += 1
    except RuleError as error:
        table.close()
        print(json.dumps(error.to_json()))
        return 2
    table.close()
    elapsed = time.perf_counter() - start
    print(json.dumps({"rounds": table.rounds_closed, "steps": steps, "records": table.journal.seq, "links": args.links,
                      "seconds": round(elapsed, 3)}))
    return 0

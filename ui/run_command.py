"""`dealer-assist run`: open the dealer's touchscreen on a journaled table.

Cards come from the shoe scanner at `--shoe URL` (and the peek device at `--peek URL`), real or
served by `dealer-assist sim`; without `--shoe`, from a bench shoe with a Deal button.
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path

from dealer_assist.errors import RuleError
from dealer_assist.journal import JournalCorrupt
from dealer_assist.profile import load_profile
from dealer_assist.table import Table
from dealer_assist.table_session import TableConfig


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealer-assist run", description="Open the dealer's touchscreen.")
    parser.add_argument("--profile", default="nobust-4.0", help="rule profile of a new table (default nobust-4.0)")
    parser.add_argument("--table-id", default="TABLE-1", help="the table's name in a new journal")
    parser.add_argument("--journal", type=Path, help="the table's journal; an existing one is resumed "
                        "(default: a new journal in a temporary folder)")
    parser.add_argument("--shoe", metavar="URL", help="the shoe scanner's URL (a device path, socket://HOST:PORT, ...)")
    parser.add_argument("--peek", metavar="URL", help="the peek device's URL (with --shoe)")
    parser.add_argument("--seed", type=int, default=None, help="shuffle and random play seed")
    parser.add_argument("--size", default="1280x800", help="window size WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--autoplay", type=int, default=0, metavar="N", help="play N random rounds through the screens")
    parser.add_argument("--screenshots", type=Path, metavar="DIR", help="save screenshots of the autoplayed rounds here")
    parser.add_argument("--exit", action="store_true", help="quit when the autoplay is done (or after the first frame)")
    return parser


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.shoe and args.autoplay:
        parser.error("--autoplay deals from the bench shoe: leave out --shoe")
    if args.peek and not args.shoe:
        parser.error("--peek needs --shoe")
    with tempfile.TemporaryDirectory(prefix="dealer-assist-") as scratch:
        try:
            profile = load_profile(args.profile)
            width, height = (int(v) for v in args.size.lower().split("x"))
            journal = args.journal or Path(scratch) / f"{args.table_id}.db"
            table = Table.open(journal, TableConfig(args.table_id, profile.id),
                               devices={"shoe": {"model": "bench", "seed": args.seed}})
        except (RuleError, JournalCorrupt, ValueError) as error:
            message = error.message if isinstance(error, RuleError) else str(error)
            print(f"dealer-assist run: {message}", file=sys.stderr)
            return 2
        try:
            return _show(table, args, width, height)
        finally:
            table.close()


def _show(table: Table, args: argparse.Namespace, width: int, height: int) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from dealer_assist.shoe import Shoe
    from ui.autoplay import AutoPlayer
    from ui.bench_panel import BenchPanel
    from ui.bridge import TableBridge
    from ui.dealer_window import DealerWindow
    from ui.device_links import DeviceLinks
    from ui.device_status import DeviceStatus

    app = QApplication.instance() or QApplication([sys.argv[0]])
    rng = random.Random(args.seed)
    devices = DeviceStatus()
    bridge = TableBridge(table, devices)
    links = DeviceLinks(bridge, devices, args.shoe, args.peek) if args.shoe else None
    bench = None if links else BenchPanel(Shoe(table.session.profile.decks, rng),
                                          lambda: bridge.tracker.expected_peek_answer(), devices)
    window = DealerWindow(bridge, bench)
    window.resize(width, height)
    window.show()
    if links is not None:
        links.start()
    if args.autoplay:
        player = AutoPlayer(window, rng, args.autoplay, args.screenshots)

        def tick() -> None:
            player.step()
            if not player.done:
                QTimer.singleShot(0, tick)
            elif args.exit:
                app.quit()
        QTimer.singleShot(0, tick)
    elif args.exit:
        QTimer.singleShot(0, app.quit)
    app.exec()
    if links is not None:
        links.stop()
    return 0

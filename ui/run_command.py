"""`dealer-assist run`: open the dealer's touchscreen on a bench table with an emulated shoe."""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from dealer_assist.errors import RuleError
from dealer_assist.money import parse_amount
from dealer_assist.profile import Profile, load_profile
from dealer_assist.shoe import Shoe
from dealer_assist.tracker import PlayerDealer, RoundTracker


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealer-assist run", description="Open the dealer's touchscreen.")
    parser.add_argument("--profile", default="nobust-4.0", help="rule profile (default nobust-4.0)")
    parser.add_argument("--pd-seat", type=int, help="the player-dealer's seat (default: the middle seat)")
    parser.add_argument("--bank", default="500", help="the player-dealer's bank in currency units (default 500)")
    parser.add_argument("--seed", type=int, default=None, help="shuffle and random play seed")
    parser.add_argument("--size", default="1280x800", help="window size WIDTHxHEIGHT (default 1280x800)")
    parser.add_argument("--autoplay", type=int, default=0, metavar="N", help="play N random rounds through the screens")
    parser.add_argument("--screenshots", type=Path, metavar="DIR", help="save screenshots of the autoplayed rounds here")
    parser.add_argument("--exit", action="store_true", help="quit when the autoplay is done (or after the first frame)")
    return parser


def round_factory(profile: Profile, pd_seat: int | None, bank: int):
    """New rounds at one table; the player-dealer keeps the bank until the table session rotates it."""
    player_dealer = PlayerDealer(pd_seat or (profile.seats + 1) // 2, bank) if profile.player_dealer else None

    def new_round() -> RoundTracker:
        return RoundTracker(profile, None, player_dealer)
    return new_round


def main(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    try:
        profile = load_profile(args.profile)
        bank = parse_amount(args.bank, "--bank")
        width, height = (int(v) for v in args.size.lower().split("x"))
    except (RuleError, ValueError) as error:
        print(f"dealer-assist run: {getattr(error, 'message', error)}", file=sys.stderr)
        return 2
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.autoplay import AutoPlayer
    from ui.bench_panel import BenchPanel
    from ui.bridge import TableBridge
    from ui.dealer_window import DealerWindow
    from ui.device_status import DeviceStatus

    app = QApplication.instance() or QApplication([sys.argv[0]])
    rng = random.Random(args.seed)
    devices = DeviceStatus()
    try:
        bridge = TableBridge(round_factory(profile, args.pd_seat, bank), devices)
    except RuleError as error:
        print(f"dealer-assist run: {error.message}", file=sys.stderr)
        return 2
    bench = BenchPanel(Shoe(profile.decks, rng), lambda: bridge.tracker.expected_peek_answer(), devices)
    window = DealerWindow(bridge, bench)
    window.resize(width, height)
    window.show()
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
    return 0

"""The dealer's touchscreen: time to the first painted frame, and from a card to its painted frame.

Targets: the window paints within 3 s of start; a card from the shoe is on the screen within one
frame (16 ms) at p99. Rounds are random legal play on the nobust-4.0 bench table, offscreen.
Run: `python benchmarks/ui.py [--cards N] [--short]`.
"""
from __future__ import annotations

import time

START = time.perf_counter()

import argparse  # noqa: E402  (the clock starts before any import)
import os  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# This file is named like the `ui` package: import the package, not this file.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2_000, help="cards to time (default 2000)")
    parser.add_argument("--short", action="store_true", help="a quick run: 150 cards")
    args = parser.parse_args(argv)
    cards = 150 if args.short else args.cards

    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    from dealer_assist.profile import load_profile
    from dealer_assist.shoe import Shoe
    from dealer_assist.table import Table
    from dealer_assist.table_session import TableConfig
    from dealer_assist.tracker import Need
    from ui.autoplay import AutoPlayer
    from ui.bench_panel import BenchPanel
    from ui.bridge import TableBridge
    from ui.card_widget import CardRow
    from ui.dealer_window import DealerWindow
    from ui.device_status import DeviceStatus
    from ui.settlement_panel import SettlementPanel

    class PaintWatch(QObject):
        """Notes when the screen paints: a hand's cards, or the settlement panel that replaces them."""

        painted = False

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and isinstance(watched, (CardRow, SettlementPanel)):
                self.painted = True
            return False

    app = QApplication.instance() or QApplication([])
    watch = PaintWatch()
    app.installEventFilter(watch)
    rng = random.Random(1)
    profile = load_profile("nobust-4.0")
    devices = DeviceStatus()
    scratch = tempfile.TemporaryDirectory(prefix="dealer-assist-bench-")
    table = Table.open(Path(scratch.name) / "bench.db", TableConfig("BENCH-UI", profile.id))
    bridge = TableBridge(table, devices)
    bench = BenchPanel(Shoe(profile.decks, rng), lambda: bridge.tracker.expected_peek_answer(), devices)
    window = DealerWindow(bridge, bench)
    window.resize(1280, 800)
    window.show()
    first_frame = _until(app, watch, lambda: window.isVisible()) or time.perf_counter()
    startup = first_frame - START

    player = AutoPlayer(window, rng, rounds=10**9)
    latencies: list[float] = []
    while len(latencies) < cards:
        tracker = bridge.tracker
        if tracker is None:  # between rounds: the shoe, the bank
            player.step()
            _settle(app)
            continue
        need = tracker.awaiting().need
        card_next = (need is Need.CARD or (need is Need.WAGERS and tracker.wagers)
                     or (need is Need.DECISION and tracker.takes_card() and rng.random() < 0.5))
        if not card_next:
            player.step()
            _settle(app)
            continue
        _settle(app)
        watch.painted = False
        began = time.perf_counter()
        bench.deal.click()
        _until(app, watch, lambda: True)
        latencies.append(time.perf_counter() - began)
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    print(f"startup to first painted frame: {startup:.2f} s (target < 3 s)")
    print(f"card to painted frame over {len(latencies)} cards: p50 {p50:.2f} ms, p99 {p99:.2f} ms (target < 16 ms)")
    print(f"rounds played: {bridge.session.round_id}")
    window.close()
    table.close()
    scratch.cleanup()
    return 0


def _settle(app) -> None:
    """What the event loop does between taps, deleting replaced widgets included."""
    from PySide6.QtCore import QCoreApplication, QEvent

    app.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _until(app, watch, ready) -> float | None:
    """Process events until the watch has seen a paint; the time it happened."""
    deadline = time.perf_counter() + 5
    while time.perf_counter() < deadline:
        app.processEvents()
        if watch.painted and ready():
            return time.perf_counter()
    return None


if __name__ == "__main__":
    raise SystemExit(main())

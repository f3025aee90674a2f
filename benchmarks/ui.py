"""The dealer's touchscreen: time to the first painted frame, and from a card to its painted frame.

Targets: the window paints within 3 s of start; a card from the shoe is on the screen within one
frame (16 ms) at p99. The table is set up as `dealer-assist run` sets it up: the emulated shoe and
peek reader on pseudo-terminals, their links, random legal rounds of nobust-4.0 played through the
screens, offscreen. A card's time starts when the shoe's link hands it to the table (on the link's
reader thread) and ends when the event loop has painted the frame that shows it: the hand that
took it, or the settlement page when it ended the round. Between cards the event loop sleeps
until something arrives, as it does at a table.
Run: `python benchmarks/ui.py [--cards N] [--pull-ms MS] [--short]`.
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
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:  # Qt loads after the clock starts, in `main`
    from PySide6.QtCore import QCoreApplication

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# This file is named like the `ui` package: import the package, not this file, and the package of
# this checkout rather than whichever one is installed.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [os.path.dirname(_HERE)] + [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

WAIT_S = 5.0  # a card not painted by then stops the benchmark with an error


@dataclass(frozen=True)
class CardTime:
    """One card, in seconds from its arrival: taken up by the GUI thread, recorded by the table,
    painted; `page` is the page it left on the screen: the table, the settle-now step, the settlement."""

    picked: float
    recorded: float
    painted: float
    page: str


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=2_000, help="cards to time (default 2000)")
    parser.add_argument("--short", action="store_true", help="a quick run: 150 cards")
    parser.add_argument(
        "--pull-ms",
        type=float,
        default=30.0,
        help="the dealer's hand: the event loop runs this long before each card leaves "
        "the shoe (default 30 ms; 0 deals the next card as soon as the screen allows)",
    )
    args = parser.parse_args(argv)
    cards = 150 if args.short else args.cards

    from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QWidget

    from dealer_assist.journal.journal_file import Record, RecordKind
    from dealer_assist.play.bench import BenchPlayer
    from dealer_assist.rules.inputs import CardDrawn
    from dealer_assist.rules.phases import Need
    from dealer_assist.rules.profile import load_profile
    from dealer_assist.table.session import TableConfig

    pages = {Need.PAYMENTS: "settle now", Need.NOTHING: "settlement"}
    from devices.table_owner.controller import Item, TableController
    from hw_sims.bench_devices import BenchDevices
    from ui.common.bridge import TableBridge
    from ui.common.screen_font import load_screen_font
    from ui.dealer.bench_panel import BenchPanel
    from ui.dealer.card_widget import CardRow
    from ui.dealer.dealer_window import DealerWindow
    from ui.settlement.settlement_table import SettlementTable
    from ui.shell.autoplay import AutoPlayer
    from ui.shell.long_lived import set_aside

    class TimedController(TableController):
        """Stamps a card from the shoe as its link hands it over, as the GUI thread takes it, and once
        the rules took it and the journal has it on disk (its record told to the journal's sinks)."""

        arrived: float | None = None
        picked: float | None = None
        recorded = 0.0

        def on_record(self, record: Record) -> None:
            if record.kind in (RecordKind.INPUT, RecordKind.CLOSE) and record.body["input"].get("type") == "CardDrawn":
                self.recorded = time.perf_counter()

        def deliver(self, item: Item) -> None:
            if isinstance(item, CardDrawn):
                self.arrived = time.perf_counter()  # on the shoe link's reader thread, as it hands the card over
            super().deliver(item)

        def _take(self, item: Item) -> None:
            if isinstance(item, CardDrawn):
                self.picked = time.perf_counter()
            super()._take(item)

    class PaintWatch(QObject):
        """Notes the window's first paint, and the first paint of a hand's cards or of the
        settlement once the table has taken the card: that frame shows the card. It watches
        only those widgets, so it adds nothing to the other events of a frame."""

        window_painted = card_painted = False

        def __init__(self, bridge: TimedController) -> None:
            super().__init__()
            self.bridge = bridge
            self.watched: set[int] = set()

        def watch(self, window: QWidget) -> None:
            """The window, and its hands and settlement tables (hand boxes come as splits need them)."""
            for widget in (window, *window.findChildren(CardRow), *window.findChildren(SettlementTable)):
                if id(widget) not in self.watched:
                    self.watched.add(id(widget))
                    widget.installEventFilter(self)

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                self.window_painted = True
                if self.bridge.picked is not None and isinstance(watched, (CardRow, SettlementTable)):
                    self.card_painted = True
            return False

    app = QApplication.instance() or QApplication([])
    load_screen_font()
    ticker = QTimer()  # waits for events wake at least this often to check their deadline
    ticker.start(100)
    scratch = tempfile.TemporaryDirectory(prefix="dealer-assist-bench-")
    profile = load_profile("nobust-4.0")
    controller = TimedController.open(Path(scratch.name) / "bench.db", TableConfig("BENCH-UI", profile.id))
    controller.add_sink(controller.on_record)
    bridge = TableBridge(controller)
    watch = PaintWatch(controller)
    wire = BenchDevices(controller.facts, BenchPlayer(1, shoe_reports_cut=True))
    wire.start()
    controller.connect_devices(wire.shoe_url, wire.peek_url)
    bench = BenchPanel(None, controller.facts, controller.devices, wire=wire)
    window = DealerWindow(bridge, bench)
    times: list[CardTime] = []
    try:
        window.resize(1280, 800)
        watch.watch(window)
        window.show()
        controller.start()
        with set_aside():  # as `dealer-assist run` runs its screen
            _wait(app, lambda: watch.window_painted)
            startup = time.perf_counter() - START
            rng = random.Random(1)
            player = AutoPlayer(window, rng, rounds=10**9)
            while len(times) < cards:
                snap = controller.snapshot
                card_next = (
                    not bench.busy()
                    and not wire.shoe.locked
                    and (
                        snap.need is Need.CARD
                        or (snap.need is Need.DECISION and snap.takes_card and rng.random() < 0.5)
                    )
                )
                if not card_next:
                    if not player.step():
                        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)  # a device is on its way
                    app.processEvents()
                    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # as between two taps
                    continue
                _wait_for(app, args.pull_ms / 1000)
                watch.watch(window)
                controller.arrived = controller.picked = None
                watch.card_painted = False
                bench.deal.click()
                _wait(app, lambda: watch.card_painted)
                painted = time.perf_counter()
                assert controller.arrived is not None and controller.picked is not None
                times.append(
                    CardTime(
                        controller.picked - controller.arrived,
                        controller.recorded - controller.arrived,
                        painted - controller.arrived,
                        pages.get(controller.snapshot.need, "table"),
                    )
                )
    finally:
        controller.stop()
        wire.stop()
        window.close()
        rounds = controller.rounds_closed
        controller.close()
        scratch.cleanup()
    _report(startup, times, rounds, args.pull_ms)
    return 0


def _wait(app: QCoreApplication, done: Callable[[], bool]) -> None:
    """Let the event loop sleep until events come, handle them, until `done()`."""
    from PySide6.QtCore import QEventLoop

    deadline = time.perf_counter() + WAIT_S
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError(f"nothing was painted within {WAIT_S:.0f} s")
        app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)


def _wait_for(app: QCoreApplication, seconds: float) -> None:
    """Let the event loop run, asleep between events, as it does while the dealer's hand reaches
    for the next card."""
    from PySide6.QtCore import QTimer

    if seconds > 0:
        done: list[bool] = []
        QTimer.singleShot(round(seconds * 1000), lambda: done.append(True))
        _wait(app, lambda: bool(done))


def _ms(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def _report(startup: float, times: list[CardTime], rounds: int, pull_ms: float) -> None:
    painted = [t.painted for t in times]
    slowest = sorted(times, key=lambda t: t.painted)[-max(1, len(times) // 100) :]
    print(f"startup to first painted frame: {startup:.2f} s (target < 3 s)")
    print(
        f"card to painted frame over {len(times)} cards, {pull_ms:g} ms between cards: p50 {_ms(painted, 0.5):.2f} ms, "
        f"p99 {_ms(painted, 0.99):.2f} ms (target < 16 ms)"
    )
    for page in ("settle now", "settlement"):
        shown = [t.painted for t in times if t.page == page]
        if shown:
            print(
                f"  a card that opens the {page} page, {len(shown)} cards: p50 {_ms(shown, 0.5):.2f} ms, "
                f"p99 {_ms(shown, 0.99):.2f} ms (target < 16 ms), max {_ms(shown, 1.0):.2f} ms"
            )
    for name, group in (("all cards", times), ("slowest 1 %", slowest)):
        hop = statistics.median(t.picked for t in group) * 1000
        table = statistics.median(t.recorded - t.picked for t in group) * 1000
        screen = statistics.median(t.painted - t.recorded for t in group) * 1000
        print(
            f"  medians, {name}: link to GUI thread {hop:.2f} ms, rules and journal {table:.2f} ms, "
            f"snapshot to painted {screen:.2f} ms"
        )
    print(f"rounds played: {rounds}")


if __name__ == "__main__":
    raise SystemExit(main())

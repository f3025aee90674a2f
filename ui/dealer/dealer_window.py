"""The dealer's window: the touchscreen view, with the bench panel beside it while there are no
devices; it wires the views to the bridge and nothing else."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QMainWindow, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ui.common.bridge import TableBridge
from ui.common.theme import see_through, style
from ui.dealer.bench_panel import BenchPanel
from ui.dealer.dealer_sign_in import dealer_button_text, open_dealer_sign_in
from ui.dealer.dealer_view import DealerView
from ui.supervisor.supervisor_window import open_supervisor

__all__ = ["DealerWindow"]


class DealerWindow(QMainWindow):
    def __init__(self, bridge: TableBridge, bench: BenchPanel | None = None) -> None:
        super().__init__()
        self.setWindowTitle(f"dealer-assist · {bridge.snapshot.profile_title}")
        self.scale = 1.0
        self.setStyleSheet(style(self.scale))
        self.bridge = bridge
        self.view = DealerView(len(bridge.snapshot.seats))
        self.bench = bench
        body = see_through(QWidget())
        layout = QHBoxLayout(body)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.addWidget(self.view, 1)
        side = QVBoxLayout()
        layout.addLayout(side)
        supervisor = QPushButton("Supervisor")
        supervisor.setObjectName("supervisor")
        supervisor.clicked.connect(lambda: open_supervisor(self, bridge.controller))
        side.addWidget(supervisor)
        self.dealer = QPushButton(dealer_button_text(None))  # who deals (RULES.md §8.25): as wide as the column
        self.dealer.setObjectName("dealer_sign_in")
        self.dealer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.dealer.clicked.connect(lambda: open_dealer_sign_in(self, bridge.controller))
        side.addWidget(self.dealer)
        bridge.snapshot_changed.connect(lambda snap: self.dealer.setText(dealer_button_text(snap.house_dealer)))
        self.dealer.setText(dealer_button_text(bridge.snapshot.house_dealer))
        side.addStretch(0 if bench else 1)
        if bench is not None:
            side.addWidget(bench, 1)
            bench.entered.connect(bridge.submit)
            bridge.snapshot_changed.connect(bench.show_table)
            bench.show_table(bridge.snapshot)
        self.setCentralWidget(body)
        self.view.input_entered.connect(bridge.submit)
        self.view.attention_dismissed.connect(bridge.dismiss)
        bridge.snapshot_changed.connect(self.view.show_table)
        bridge.snapshot_changed.connect(self._paint_now)
        # the links as they stand now: a change told from a reader thread arrives queued, after any
        # change made since on this thread, so the links it carries may be older than the status line's
        bridge.devices_changed.connect(lambda _links: self.view.show_devices(bridge.devices.links()))
        self.view.show_table(bridge.snapshot)
        self.view.tap_guard.watch(self)
        self.view.show_devices(bridge.devices.links())

    def _paint_now(self) -> None:
        """Lays out and paints a new state at once. Qt posts a window's repaint at low priority, so a
        device's answer queued meanwhile (the shoe's reply to its card-stop, journaled with fsync)
        would go first and hold the card's frame back by a few milliseconds."""
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        QCoreApplication.sendPostedEvents(self, QEvent.Type.UpdateRequest)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Sizes follow the screen: 1.0 at 1280x800, larger on larger screens, in steps of 0.1."""
        size = event.size()
        scale = max(1.0, round(min(size.width() / 1280, size.height() / 800), 1))
        if scale != self.scale:
            self.scale = scale
            self.setStyleSheet(style(scale))
        super().resizeEvent(event)

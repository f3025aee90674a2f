"""What the dealer settles now, before the round goes on (RULES.md §2.15, §2.17, §3.10, §5.4):
Lucky Lucky right after the deal, insurance once the peek has answered, a Natural as soon as the
dealer cannot have one. It covers the seats, as the settlement does, until the dealer taps Paid;
the shoe stays locked meanwhile. Each row reads as it will on the settlement, where it is then
named as settled before."""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from dealer_assist.snapshot import TableSnapshot
from ui.settlement_panel import EARLY_NAMES, WRAPPING, settlement_rows
from ui.settlement_table import SettlementTable

def step_title(snap: TableSnapshot) -> str:
    """'Settle now: Lucky Lucky · Natural' — the kinds of wager due, in settlement order."""
    kinds = [name for kind, name in EARLY_NAMES.items() if any(row.wager is kind for row in snap.due)]
    if not kinds:
        return "A Natural's cards go away now; it is paid at settlement"
    return "Settle now: " + " · ".join(kinds)


class PaymentsPanel(QFrame):
    """Built once; each step changes only its texts."""

    paid = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(16)
        rows_box = QVBoxLayout()
        self.title = QLabel("")
        self.title.setObjectName("title")
        self.title.setWordWrap(True)
        rows_box.addWidget(self.title)
        scroller = QScrollArea()
        scroller.setWidgetResizable(True)
        self.rows = SettlementTable(wrapping=WRAPPING)
        scroller.setWidget(self.rows)
        scroller.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        rows_box.addWidget(scroller, 1)
        self.later = QLabel("")
        self.later.setObjectName("muted")
        self.later.setWordWrap(True)
        rows_box.addWidget(self.later)
        layout.addLayout(rows_box, 3)
        side = QVBoxLayout()
        self.hint = QLabel("Pay and collect top to bottom, before any more cards.")
        self.hint.setWordWrap(True)
        side.addWidget(self.hint)
        side.addStretch(1)
        self.confirm = QPushButton("Paid · go on")
        self.confirm.setObjectName("primary")
        self.confirm.setMinimumHeight(80)
        self.confirm.clicked.connect(self.paid)
        side.addWidget(self.confirm)
        layout.addLayout(side, 1)

    def show_table(self, snap: TableSnapshot) -> None:
        self.title.setText(step_title(snap))
        self.confirm.setText("Paid · go on" if snap.due else "Cards away · go on")
        self.rows.show_rows(settlement_rows(snap.due, snap) if snap.due else [])
        self.rows.setVisible(bool(snap.due))
        later = ", ".join(str(seat) for seat in snap.naturals_later)
        self.later.setText(f"Natural of seat {later}: put the cards away and leave the wager; it is paid in its place"
                           " at settlement (the bank may not reach it in full)." if later else "")
        self.later.setVisible(bool(later))

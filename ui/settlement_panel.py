"""What to pay and collect, wager by wager in settlement order (RULES.md §5.2), then each seat's net."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame, QGridLayout, QHBoxLayout, QLabel, QLayout, QPushButton, QScrollArea, QVBoxLayout, QWidget,
)

from dealer_assist.snapshot import SettlementLine, TableSnapshot
from ui.text import RESULTS, WAGER_NAMES, card_text, money, settlement_action, signed


def _cell(text: str, role: str = "amount") -> QLabel:
    label = QLabel(text)
    label.setObjectName(role)
    return label


def _role(amount: int) -> str:
    return "pay" if amount > 0 else "collect" if amount < 0 else "return"


class SettlementPanel(QFrame):
    """Rebuilt once per settled round; the dealer confirms when every row is done."""

    confirmed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(16)
        rows_box = QVBoxLayout()
        self.dealer_line = _cell("", "title")
        rows_box.addWidget(self.dealer_line)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.rows_widget = QWidget()
        self.rows = QGridLayout(self.rows_widget)
        self.rows.setHorizontalSpacing(18)
        self.rows.setVerticalSpacing(6)
        self.rows.setSizeConstraint(QLayout.SizeConstraint.SetMinimumSize)  # scroll rather than squeeze a row
        self.scroll.setWidget(self.rows_widget)
        rows_box.addWidget(self.scroll, 1)
        layout.addLayout(rows_box, 3)
        side = QVBoxLayout()
        side.addWidget(_cell("Nets", "title"))
        self.nets = QGridLayout()
        self.nets.setVerticalSpacing(4)
        side.addLayout(self.nets)
        side.addStretch(1)
        self.fees = _cell("", "muted")
        self.fees.setWordWrap(True)
        side.addWidget(self.fees)
        self.confirm = QPushButton("Done · next round")
        self.confirm.setObjectName("primary")
        self.confirm.setMinimumHeight(80)
        self.confirm.clicked.connect(self.confirmed)
        side.addWidget(self.confirm)
        layout.addLayout(side, 1)
        self.lines: tuple[SettlementLine, ...] = ()

    @staticmethod
    def _clear(grid: QGridLayout) -> None:
        while grid.count():
            item = grid.takeAt(0)
            if item.widget() is not None:
                item.widget().hide()
                item.widget().deleteLater()

    def show_table(self, snap: TableSnapshot) -> None:
        if snap.settlement == self.lines and self.rows.count():
            return
        self.lines = snap.settlement
        dealer = snap.dealer
        cards = " ".join(card_text(c) for c in dealer.cards if c is not None)
        status = dealer.status.value.upper() if dealer.status else ""
        self.dealer_line.setText(f"Dealer {cards}  =  {dealer.total} {status}   ·   pay and collect top to bottom")
        self._clear(self.rows)
        for column, head in enumerate(("#", "Seat", "Wager", "Stake", "Result", "Pay / collect")):
            self.rows.addWidget(_cell(head, "muted"), 0, column)
        for line in self.lines:
            self._add_row(line)
        self.rows.setRowStretch(len(self.lines) + 1, 1)
        self._clear(self.nets)
        seats = [s for s in snap.seats if s.net is not None]
        for row, seat in enumerate(seats):
            self.nets.addWidget(_cell(f"Seat {seat.seat}"), row, 0)
            self.nets.addWidget(_cell(signed(seat.net or 0), _role(seat.net or 0)), row, 1)
        if snap.bank is not None and snap.bank.net is not None:
            self.nets.addWidget(_cell(f"PD seat {snap.bank.seat}"), len(seats), 0)
            self.nets.addWidget(_cell(signed(snap.bank.net), _role(-snap.bank.net)), len(seats), 1)
        players, pd = snap.fees
        self.fees.setText(f"Fees taken before the deal: players {money(players)}, player-dealer {money(pd)}" if players or pd else "")

    def _add_row(self, line: SettlementLine) -> None:
        row = line.order
        wager = WAGER_NAMES[line.wager] + (f" H{line.hand + 1}" if line.hand else "")
        cells = (str(row), str(line.seat), wager, money(line.stake), RESULTS[line.result])
        for column, text in enumerate(cells):
            self.rows.addWidget(_cell(text, "row" if column else "muted"), row, column)
        self.rows.addWidget(_cell(settlement_action(line.amount, line.result, line.stake, line.in_action), _role(line.amount)), row, 5)

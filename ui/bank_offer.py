"""Between rounds: the bank is offered seat by seat (RULES.md §5.6); the dealer keys the answer."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QWidget

from dealer_assist.money import Cents
from dealer_assist.session_inputs import BankAccepted, BankRefused
from dealer_assist.snapshot import TableSnapshot
from dealer_assist.table_session import TableState
from ui.text import money

BANK_CHIPS: tuple[Cents, ...] = (10_000, 50_000, 100_000)


class BankOffer(QWidget):
    """The seat offered the bank takes it with the amount keyed here, or refuses it."""

    entered = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat: int | None = None
        self.amount: Cents = 0
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.label = QLabel("")
        self.label.setObjectName("amount")
        layout.addWidget(self.label, 0, 0, 1, 2)
        self.accept = QPushButton("Takes the bank")
        self.accept.setObjectName("primary")
        self.accept.clicked.connect(self._accept)
        layout.addWidget(self.accept, 0, 2, 1, 2)
        self.refuse = QPushButton("Refuses")
        self.refuse.setObjectName("bank_refuse")
        self.refuse.clicked.connect(lambda: self.seat is not None and self.entered.emit(BankRefused(self.seat)))
        layout.addWidget(self.refuse, 0, 4)
        self.chips: dict[Cents, QPushButton] = {}
        for column, chip in enumerate(BANK_CHIPS):
            button = QPushButton(f"+{money(chip)}")
            button.setObjectName(f"bank_chip_{chip}")
            button.clicked.connect(lambda _=False, c=chip: self._add(c))
            layout.addWidget(button, 1, column)
            self.chips[chip] = button
        self.clear = QPushButton("Clear")
        self.clear.clicked.connect(lambda: self._add(-self.amount))
        layout.addWidget(self.clear, 1, len(BANK_CHIPS))

    def show_table(self, snap: TableSnapshot) -> None:
        table = snap.table
        offered = table is not None and table.state is TableState.OFFERING_BANK
        self.setVisible(offered)
        seat = table.offer_seat if offered and table is not None else None
        if seat != self.seat:
            self.seat, self.amount = seat, 0
        self._show_amount()

    def _add(self, chip: Cents) -> None:
        self.amount += chip
        self._show_amount()

    def _show_amount(self) -> None:
        self.label.setText(f"Seat {self.seat} bank {money(self.amount)}" if self.seat is not None else "")
        self.accept.setEnabled(self.amount > 0)

    def _accept(self) -> None:
        if self.seat is not None:
            self.entered.emit(BankAccepted(self.seat, self.amount))

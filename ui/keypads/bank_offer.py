"""Between rounds: the bank is offered seat by seat (RULES.md §5.6); the dealer keys the answer. Where
the wager reader reads `pd.bank`, the chips there are the bank offered (§8.22): its amount is read,
not keyed, and one tap takes it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget

from dealer_assist.rules.money import CHIP_VALUES, Cents
from dealer_assist.table.session import TableState
from dealer_assist.table.session_inputs import BankAccepted, BankRefused
from dealer_assist.table.snapshot import TableSnapshot
from dealer_assist.table.spots import BANK
from dealer_assist.text.journal_text import money
from ui.keypads.amount_keypad import AmountKeypad

__all__ = ["BANK_CHIPS", "BankOffer"]

BANK_CHIPS: tuple[Cents, ...] = CHIP_VALUES[3:]  # $100 to $1,000, each in its column of every keypad


class BankOffer(QWidget):
    """The seat offered the bank takes it with the amount keyed here (or read on pd.bank), or refuses it."""

    entered = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat: int | None = None
        self.read: Cents | None = None  # the chips on pd.bank, where the reader reads it
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.keypad = AmountKeypad(
            BANK_CHIPS,
            "Takes the bank",
            "bank",
            lambda amount: f"Seat {self.seat} bank {money(amount)}" + (" · read" if self.read is not None else ""),
        )
        self.keypad.confirmed.connect(self._take)
        layout.addWidget(self.keypad)
        self.refuse = QPushButton("Refuses")
        self.refuse.setObjectName("bank_refuse")
        self.refuse.clicked.connect(self._refuse)
        self.keypad.top.addWidget(self.refuse)

    def show_table(self, snap: TableSnapshot) -> None:
        table = snap.table
        offered = table is not None and table.state is TableState.OFFERING_BANK
        seat = table.offer_seat if offered and table is not None else None
        self.setVisible(seat is not None)
        spots = snap.reader.spots if snap.reader is not None else ()
        read = next((view.reading.amount for view in spots if view.reading.spot == BANK), None)
        for button in (*self.keypad.chips.values(), self.keypad.clear):
            button.setEnabled(read is None)
        if seat != self.seat or read != self.read:
            self.seat, self.read = seat, read
            self.keypad.set_amount(read or 0)

    def _take(self, amount: Cents) -> None:
        if self.seat is not None:  # shown only while a seat is offered the bank
            self.entered.emit(BankAccepted(self.seat, amount))

    def _refuse(self) -> None:
        if self.seat is not None:
            self.entered.emit(BankRefused(self.seat))

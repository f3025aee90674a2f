"""An amount keyed in chips and confirmed with one button: the bank taken, a double for less."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QPushButton, QWidget

from dealer_assist.rules.money import Cents
from dealer_assist.text.journal_text import money
from ui.elided_label import ElidedLabel
from ui.tap_guard import repeatable


class AmountKeypad(QWidget):
    """Row 0: what the amount is for, and the confirm button; row 1: the chips and Clear.
    The owner says what the amount means (`describe`), which amounts it takes (`accepts`: the
    confirm button is lit exactly for those), and may add buttons to `grid`."""

    confirmed = Signal(int)

    def __init__(self, chips: tuple[Cents, ...], confirm: str, name: str,
                 describe: Callable[[Cents], str], parent: QWidget | None = None,
                 accepts: Callable[[Cents], bool] = lambda amount: amount > 0) -> None:
        super().__init__(parent)
        self.amount: Cents = 0
        self.describe = describe
        self.accepts = accepts
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(6)
        self.label = ElidedLabel(name="amount")  # however long the amount's words, the chips stay put
        self.grid.addWidget(self.label, 0, 0, 1, 2)
        self.confirm = QPushButton(confirm)
        self.confirm.setObjectName("primary")
        self.confirm.clicked.connect(lambda: self.confirmed.emit(self.amount))
        self.grid.addWidget(self.confirm, 0, 2, 1, 2)
        self.chips: dict[Cents, QPushButton] = {}
        for column, chip in enumerate(chips):
            button = repeatable(QPushButton(f"+{money(chip)}"))
            button.setObjectName(f"{name}_chip_{chip}")
            button.clicked.connect(lambda _=False, c=chip: self.set_amount(self.amount + c))
            self.grid.addWidget(button, 1, column)
            self.chips[chip] = button
        self.clear = QPushButton("Clear")
        self.clear.setObjectName(f"{name}_clear")
        self.clear.clicked.connect(lambda: self.set_amount(0))
        self.grid.addWidget(self.clear, 1, len(chips))

    def set_amount(self, amount: Cents) -> None:
        self.amount = amount
        self.label.setText(self.describe(amount))
        self.confirm.setEnabled(self.accepts(amount))

"""An amount keyed in chips and confirmed with one button: the bank taken, a double for less."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from dealer_assist.rules.money import Cents
from ui.common.elided_label import ElidedLabel
from ui.keypads.chip_row import ChipRow


class AmountKeypad(QWidget):
    """Above: what the amount is for, and the confirm button; below, at the keypad's foot: the chip
    row every keypad shares. The owner says what the amount means (`describe`), which amounts it
    takes (`accepts`: the confirm button is lit exactly for those), and may add buttons to `top`."""

    confirmed = Signal(int)

    def __init__(
        self,
        chips: tuple[Cents, ...],
        confirm: str,
        name: str,
        describe: Callable[[Cents], str],
        parent: QWidget | None = None,
        accepts: Callable[[Cents], bool] = lambda amount: amount > 0,
    ) -> None:
        super().__init__(parent)
        self.amount: Cents = 0
        self.describe = describe
        self.accepts = accepts
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.top = QHBoxLayout()
        self.top.setSpacing(6)
        self.label = ElidedLabel(name="amount")  # however long the amount's words, the chips stay put
        self.top.addWidget(self.label, 1)
        self.confirm = QPushButton(confirm)
        self.confirm.setObjectName("primary")
        self.confirm.clicked.connect(lambda: self.confirmed.emit(self.amount))
        self.top.addWidget(self.confirm, 1)
        layout.addLayout(self.top)
        layout.addStretch(1)
        self.row = ChipRow(chips, f"{name}_chip_", f"{name}_clear")
        self.row.tapped.connect(lambda chip: self.set_amount(self.amount + chip))
        layout.addWidget(self.row, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
        self.chips = self.row.chips
        self.clear = self.row.clear
        self.clear.clicked.connect(lambda: self.set_amount(0))

    def set_amount(self, amount: Cents) -> None:
        self.amount = amount
        self.label.setText(self.describe(amount))
        self.confirm.setEnabled(self.accepts(amount))

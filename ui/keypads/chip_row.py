"""The chips and Clear, one row built alike in every keypad: each chip value keeps one place on the
screen whichever keypad shows it (a keypad that does not offer a value leaves its place empty), so
the finger that found +$100 while betting finds it there for a double for less and for the bank."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QSizePolicy, QWidget

from dealer_assist.rules.money import CHIP_VALUES, Cents
from dealer_assist.text.journal_text import money
from ui.common.tap_guard import repeatable
from ui.common.theme import hold_place


class ChipRow(QWidget):
    """A button per chip value of `CHIP_VALUES`, in its order, then Clear; only `offered` ones show.
    As wide as its buttons ask, never stretched, so its places depend on nothing around it."""

    tapped = Signal(int)  # the chip's value

    def __init__(self, offered: tuple[Cents, ...], name: str, clear: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        unknown = set(offered) - set(CHIP_VALUES)
        if unknown:
            raise ValueError(f"chips {sorted(unknown)} are not among the chip values {CHIP_VALUES}")
        self.setObjectName("chips")  # its buttons' padding (ui/common/theme.py), the same in every keypad
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.chips: dict[Cents, QPushButton] = {}
        for chip in CHIP_VALUES:
            button = hold_place(repeatable(QPushButton(f"+{money(chip)}")))
            button.setObjectName(f"{name}{chip}")
            button.clicked.connect(lambda _=False, c=chip: self.tapped.emit(c))
            layout.addWidget(button)
            if chip in offered:
                self.chips[chip] = button
            else:
                button.hide()
        self.clear = QPushButton("Clear")
        self.clear.setObjectName(clear)
        layout.addWidget(self.clear)

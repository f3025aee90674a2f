"""The supervisor's PIN on a large keypad. The table checks it and journals every try; the pad
only collects digits, shows the table's refusal and, while locked, the time the lock has left."""
from __future__ import annotations

import math

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dealer_assist.errors import RuleError
from dealer_assist.table import Table
from ui.notice_label import NoticeLabel

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "⌫")
MAX_DIGITS = 12


def lock_left(table: Table) -> float:
    """Seconds until the table's PIN lock ends; 0 when it is not locked."""
    return max(0.0, table.pins.locked_until - table.clock())


class PinPad(QWidget):
    """Emits `unlocked` with the PIN once the table accepted it."""

    unlocked = Signal(str)

    def __init__(self, table: Table, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self.digits = ""
        outer = QHBoxLayout(self)
        outer.addStretch(1)
        root = QVBoxLayout()
        outer.addLayout(root)
        outer.addStretch(1)
        root.addStretch(1)
        heading = QLabel(f"Floor supervisor · table {table.session.config.table_id}")
        heading.setObjectName("big")
        root.addWidget(heading)
        self.shown = QLabel("Enter the PIN")
        self.shown.setObjectName("pin")
        root.addWidget(self.shown)
        self.notice = NoticeLabel()
        root.addWidget(self.notice)
        self.lock = QLabel("")
        self.lock.setObjectName("total")
        root.addWidget(self.lock)
        grid = QGridLayout()
        grid.setSpacing(10)
        self.keys: dict[str, QPushButton] = {}
        for number, key in enumerate(KEYS):
            button = QPushButton(key)
            button.setObjectName("key")
            button.clicked.connect(lambda _=False, k=key: self._press(k))
            grid.addWidget(button, number // 3, number % 3)
            self.keys[key] = button
        self.enter = QPushButton("Enter")
        self.enter.setObjectName("primary")
        self.enter.setMinimumHeight(80)
        self.enter.clicked.connect(self._enter)
        grid.addWidget(self.enter, 4, 0, 1, 3)
        root.addLayout(grid)
        root.addStretch(1)
        self.ticker = QTimer(self)
        self.ticker.setInterval(1000)
        self.ticker.timeout.connect(self._show_lock)
        self._show_lock()

    def _press(self, key: str) -> None:
        if key == "Clear":
            self.digits = ""
        elif key == "⌫":
            self.digits = self.digits[:-1]
        elif len(self.digits) < MAX_DIGITS:
            self.digits += key
        self.shown.setText(" ".join("●" * len(self.digits)) if self.digits else "Enter the PIN")

    def _enter(self) -> None:
        pin, self.digits = self.digits, ""
        self._press("Clear")
        try:
            self.table.check_pin(pin)
        except RuleError as error:
            self.notice.refuse(error.message)
            return
        finally:
            self._show_lock()
        self.notice.clear()
        self.unlocked.emit(pin)

    def _show_lock(self) -> None:
        left = lock_left(self.table)
        if left:
            seconds = math.ceil(left)
            self.lock.setText(f"Locked: {seconds // 60}:{seconds % 60:02d} left")
            self.ticker.start()
        else:
            self.lock.setText("")
            self.ticker.stop()

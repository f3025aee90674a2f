"""A double for less (RULES.md §8.15): the dealer keys the extra wager, the tracker checks it."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from dealer_assist.rules.inputs import Action, Decide
from dealer_assist.rules.money import Cents
from dealer_assist.rules.phases import Phase
from dealer_assist.table.snapshot import Decisions, TableSnapshot
from dealer_assist.text.journal_text import money
from ui.keypads.amount_keypad import AmountKeypad
from ui.keypads.wager_pad import CHIPS

__all__ = ["DoubleForLess"]


class DoubleForLess(QWidget):
    """Shown all through play so the layout holds still; usable when the hand may double for less."""

    entered = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.decisions = Decisions()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.keypad = AmountKeypad(CHIPS, "Double for less", "double", self._describe, accepts=self._accepts)
        self.keypad.confirmed.connect(self._double)
        layout.addWidget(self.keypad)

    def show_table(self, snap: TableSnapshot) -> None:
        self.setVisible(snap.phase is Phase.PLAYING)
        d = snap.decisions
        if (d.seat, d.hand) != (self.decisions.seat, self.decisions.hand):
            self.keypad.amount = 0
        self.decisions = d
        self.keypad.clear.setEnabled(d.double_for_less)
        self.keypad.set_amount(self.keypad.amount)

    def _accepts(self, amount: Cents) -> bool:
        """The tracker's own range (`RoundTracker.double_range`, carried by the snapshot): lit exactly
        at the amounts a double for less is accepted at; a chip that would pass the most is dark."""
        d = self.decisions
        for chip, button in self.keypad.chips.items():
            button.setEnabled(d.double_for_less and amount + chip <= d.double_max)
        return d.double_for_less and d.double_min <= amount <= d.double_max

    def _describe(self, amount: Cents) -> str:
        d = self.decisions
        if not d.double_for_less:
            return "Double for less: not open"
        return f"Seat {d.seat}: double for {money(amount)} ({money(d.double_min)}–{money(d.double_max)})"

    def _double(self, amount: Cents) -> None:
        d = self.decisions
        if d.seat is not None and d.hand is not None:
            self.entered.emit(Decide(d.seat, d.hand, Action.DOUBLE, amount))

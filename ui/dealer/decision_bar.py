"""The player's decisions, as large buttons the dealer taps; a hit is the next card from the shoe."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from dealer_assist.rules.inputs import Action, Decide
from dealer_assist.table.snapshot import Decisions
from ui.common.confirm_overlay import Confirmation, confirm

LABELS = {Action.STAND: "Stand", Action.DOUBLE: "Double", Action.SPLIT: "Split", Action.SURRENDER: "Surrender"}


class DecisionBar(QWidget):
    """Each button is enabled exactly when the snapshot says the tracker would accept it."""

    entered = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.buttons: dict[Action, QPushButton] = {}
        self._decisions = Decisions()
        self._question: Confirmation | None = None
        for action, text in LABELS.items():
            button = QPushButton(text)
            button.setObjectName(f"decide_{action.value}")
            button.setMinimumSize(120, 72)
            button.setEnabled(False)
            button.clicked.connect(lambda _=False, a=action: self._tap(a))
            layout.addWidget(button)
            self.buttons[action] = button

    def show_decisions(self, decisions: Decisions) -> None:
        if decisions != self._decisions and self._question is not None:
            self._question.close()  # asked of a decision no longer due
        self._decisions = decisions
        for action, button in self.buttons.items():
            button.setEnabled(decisions.enabled(action))

    def _tap(self, action: Action) -> None:
        d = self._decisions
        if d.seat is None or d.hand is None:
            return
        decide = Decide(d.seat, d.hand, action)
        if action is Action.SURRENDER:  # it cannot be taken back: asked once more
            hand = f" hand {d.hand + 1}" if d.hand else ""
            self._question = confirm(
                self,
                f"Surrender seat {d.seat}{hand}?",
                "The hand ends here and cannot be played on.",
                "Surrender",
                lambda: self.entered.emit(decide),
            )
            self._question.destroyed.connect(self._forget_question)
            return
        self.entered.emit(decide)

    def _forget_question(self) -> None:
        self._question = None

"""The attention banner: a refused input, a misdeal, a misread or a failed peek, until resolved."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from dealer_assist.inputs import CheckedByHand
from dealer_assist.snapshot import AttentionKind, TableSnapshot
from dealer_assist.tracker import Need
from ui.theme import set_flag

TITLES = {
    AttentionKind.REFUSED: "Refused",
    AttentionKind.MISDEAL: "MISDEAL",
    AttentionKind.MISREAD: "MISREAD",
    AttentionKind.MISMATCH: "MISMATCH",
    AttentionKind.PEEK_FAILED: "PEEK FAILED",
    AttentionKind.PEEK_DISAGREES: "PEEK DISAGREES",
}


class AttentionBanner(QFrame):
    """Hidden while all is well; a held round also offers the by-hand check a supervisor confirms."""

    dismissed = Signal()
    entered = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(14, 6, 8, 6)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        layout.addWidget(self.message, 1)
        self.natural = QPushButton("Hole card: Natural")
        self.natural.setObjectName("checked_natural")
        self.natural.clicked.connect(lambda: self.entered.emit(CheckedByHand(True)))
        self.no_natural = QPushButton("Hole card: no Natural")
        self.no_natural.setObjectName("checked_no_natural")
        self.no_natural.clicked.connect(lambda: self.entered.emit(CheckedByHand(False)))
        self.resolve = QPushButton("Resolved")
        self.resolve.setObjectName("attention_resolved")
        self.resolve.clicked.connect(self.dismissed)
        for button in (self.natural, self.no_natural, self.resolve):
            layout.addWidget(button)
        self.hide()

    def show_table(self, snap: TableSnapshot) -> None:
        attention = snap.attention
        if attention is None:
            self.hide()
            return
        rule = f" (rule {attention.rule})" if attention.rule else ""
        self.message.setText(f"{TITLES[attention.kind]}{rule}: {attention.message}")
        set_flag(self, "kind", attention.kind.value)
        held = snap.need is Need.CHECK_BY_HAND
        self.natural.setVisible(held)
        self.no_natural.setVisible(held)
        self.resolve.setVisible(not held)
        self.show()

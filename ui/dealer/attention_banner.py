"""The attention banner: a refused input, a misdeal, a misread or a failed peek, until resolved; or,
while none of those shows, a device's state that changes what the dealer must do (a device down or
faulted, and back), as long as it lasts, in the words of its `DeviceState`."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QWidget

from dealer_assist.table.snapshot import AttentionKind, TableSnapshot
from ui.common.elided_label import ElidedLabel
from ui.common.theme import hold_place, set_flag

LINES = 3  # a misdeal: the rule, what it held, and that a floor supervisor discards it

TITLES = {
    AttentionKind.REFUSED: "Refused",
    AttentionKind.MISDEAL: "MISDEAL",
    AttentionKind.MISREAD: "MISREAD",
    AttentionKind.MISMATCH: "MISMATCH",
    AttentionKind.PEEK_FAILED: "PEEK FAILED",
    AttentionKind.PEEK_DISAGREES: "PEEK DISAGREES",
    AttentionKind.JOURNAL: "JOURNAL",
    AttentionKind.READER_BACK: "WAGER READER BACK",
}


class AttentionBanner(QFrame):
    """Hidden while all is well, its place kept (the owner holds it): it is as tall with one line
    to say as with three. What holds the round stays until a supervisor resolves it on the
    supervisor's screen; anything else the dealer acknowledges."""

    dismissed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(14, 6, 8, 6)
        self.message = ElidedLabel(lines=LINES)
        layout.addWidget(self.message, 1)
        self.resolve = hold_place(QPushButton("OK"))  # a banner the dealer cannot dismiss is as tall
        self.resolve.setObjectName("attention_resolved")
        self.resolve.clicked.connect(self.dismissed)
        layout.addWidget(self.resolve)
        self.hide()

    def show_table(self, snap: TableSnapshot) -> None:
        attention = snap.attention
        if attention is None:
            self._show_device(snap)
            return
        rule = f" (rule {attention.rule})" if attention.rule else ""
        self.message.setText(f"{TITLES[attention.kind]}{rule}: {attention.message}")
        set_flag(self, "kind", attention.kind.value)
        self.resolve.setVisible(not attention.held)
        self.show()

    def _show_device(self, snap: TableSnapshot) -> None:
        """A device's state lasts until the device changes it: nothing for the dealer to dismiss."""
        told = snap.device_told
        if told is None:
            self.hide()
            return
        self.message.setText(f"{told.headline}: {told.sentence}")
        set_flag(self, "kind", f"device-{told.light.name.lower()}")
        self.resolve.setVisible(False)
        self.show()

"""A line that tells the supervisor what just happened: the rules' refusal in red, a success in
green, nothing at all while there is nothing to say."""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from ui.theme import set_flag


class NoticeLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("notice")  # set before the first polish: the padding is read only then
        self.setWordWrap(True)
        self.hide()

    def refuse(self, message: str) -> None:
        self._show("refusal", message)

    def done(self, message: str) -> None:
        self._show("done", message)

    def clear(self) -> None:
        self.setText("")
        self.hide()

    def _show(self, kind: str, message: str) -> None:
        set_flag(self, "kind", kind)
        self.setText(message)
        self.show()

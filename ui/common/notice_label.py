"""A line that tells the supervisor what just happened: the rules' refusal in red, a success in
green, nothing at all while there is nothing to say. Its place is kept while it says nothing, and
it is as tall whatever it says, so the tabs, lists and keys below it never move."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from ui.common.elided_label import ElidedLabel
from ui.common.theme import hold_place, set_flag

__all__ = ["NoticeLabel"]


class NoticeLabel(ElidedLabel):
    def __init__(self, lines: int = 1, parent: QWidget | None = None) -> None:
        super().__init__(name="notice", lines=lines, parent=parent)
        hold_place(self)
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

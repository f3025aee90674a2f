"""An on-screen keyboard for the supervisor's text fields: a touchscreen has no keyboard. It
types into the field it was last pointed at; letters, digits, space, hyphen and a backspace are
enough for a name, a badge or a short reason."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLineEdit, QPushButton, QWidget

__all__ = ["TouchKeyboard"]

ROWS = ("1234567890", "qwertyuiop", "asdfghjkl-", "zxcvbnm.,/")
SPACE, BACK = "Space", "⌫"


class TouchKeyboard(QWidget):
    """Keys in a fixed grid; `target` is the field the keys type into."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.target: QLineEdit | None = None
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(4)
        self.keys: dict[str, QPushButton] = {}
        for row, letters in enumerate(ROWS):
            for column, letter in enumerate(letters):
                self._key(grid, letter, row, column, 1)
        self._key(grid, SPACE, len(ROWS), 0, 8)
        self._key(grid, BACK, len(ROWS), 8, 2)

    def _key(self, grid: QGridLayout, text: str, row: int, column: int, span: int) -> None:
        button = QPushButton(text)
        button.setObjectName("letter")
        button.clicked.connect(lambda _=False, t=text: self.press(t))
        grid.addWidget(button, row, column, 1, span)
        self.keys[text] = button

    def type_into(self, field: QLineEdit) -> None:
        self.target = field

    def press(self, key: str) -> None:
        field = self.target
        if field is None:
            return
        if key == BACK:
            field.backspace()
        else:
            field.insert(" " if key == SPACE else key)

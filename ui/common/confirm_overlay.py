"""Ask before an irreversible action: a question over the whole window with two large buttons,
the action and "Go back". It is a child of the window, never a window of its own, so a kiosk
without a window manager shows it and never loses the table behind it."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.common.theme import ALERT, PANEL, TEXT

__all__ = ["Confirmation", "confirm", "open_confirmation"]


class Confirmation(QFrame):
    """Covers `host`'s window until the action is confirmed (then `act` runs) or given up."""

    def __init__(self, host: QWidget, question: str, detail: str, action: str, act: Callable[[], None]) -> None:
        window = host.window()
        super().__init__(window)
        self.setObjectName("confirmation")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet(
            f"QFrame#confirmation {{ background: rgba(0, 0, 0, 170); }}"
            f"QFrame#question {{ background: {PANEL}; border: 3px solid {ALERT}; border-radius: 14px; }}"
            f"QLabel {{ color: {TEXT}; }}"
        )
        self._act = act
        self._host = host
        self._window = window
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        box = QFrame()
        box.setObjectName("question")
        inner = QVBoxLayout(box)
        inner.setContentsMargins(28, 22, 28, 22)
        inner.setSpacing(14)
        self.question = QLabel(question)
        self.question.setObjectName("title")
        self.question.setWordWrap(True)
        inner.addWidget(self.question)
        self.detail = QLabel(detail)
        self.detail.setObjectName("row")
        self.detail.setWordWrap(True)
        inner.addWidget(self.detail)
        buttons = QHBoxLayout()
        buttons.setSpacing(16)
        self.back = QPushButton("Go back")
        self.back.setMinimumSize(200, 80)
        self.back.clicked.connect(self.close)
        buttons.addWidget(self.back)
        self.yes = QPushButton(action)
        self.yes.setObjectName("primary")
        self.yes.setMinimumSize(260, 80)
        self.yes.clicked.connect(self._confirm)
        buttons.addWidget(self.yes)
        inner.addLayout(buttons)
        box.setMinimumWidth(560)
        box.setMaximumWidth(760)
        row.addWidget(box)
        row.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(1)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.installEventFilter(self)
        self.setGeometry(window.rect())
        self.show()
        self.raise_()
        self.back.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(self._window.rect())
        return False

    def closeEvent(self, event: QCloseEvent) -> None:
        """The keyboard goes back to the screen that asked: its Escape (leave the supervisor's
        screens) works again, rather than going to whatever the window focuses next."""
        super().closeEvent(event)
        self._host.setFocus()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Escape goes back without acting."""
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)

    def _confirm(self) -> None:
        self.close()  # first: an action that opens another question shows it on top
        self._act()


def confirm(host: QWidget, question: str, detail: str, action: str, act: Callable[[], None]) -> Confirmation:
    """Ask over `host`'s window; `act` runs only when the action is tapped."""
    return Confirmation(host, question, detail, action, act)


def open_confirmation(host: QWidget) -> Confirmation | None:
    """The question shown over `host`'s window, if one is."""
    shown = [c for c in host.window().findChildren(Confirmation) if c.isVisible()]
    return shown[-1] if shown else None

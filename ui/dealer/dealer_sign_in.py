"""Who deals (RULES.md §8.25): the house dealer signs in at the touchscreen, and out when relieved.
A name or badge from the table's roster of dealers (`dealers.txt` beside the journal) is a
button; any other is typed on the screen's own keyboard. It opens over the dealer's window, inside
it, as the supervisor's screens do, and goes back to the table once the table took the input;
a refusal is said on it. A table without a dealer signed in still deals."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from dealer_assist.table.session import TableInput
from dealer_assist.table.session_inputs import DealerSignIn, DealerSignOut
from devices.table_owner.controller import TableController
from ui.common.elided_label import ElidedLabel
from ui.common.notice_label import NoticeLabel
from ui.common.touch_keyboard import TouchKeyboard
from ui.supervisor.supervisor_theme import supervisor_style


def dealer_button_text(dealer: str | None) -> str:
    """The dealer's control on the table: who deals, in two lines whatever it says."""
    return f"Dealer\n{dealer}" if dealer else "Dealer\nsign in"


class DealerSignInPanel(QWidget):
    """Names from the roster as buttons, a field typed on the keyboard, Sign in and Sign out."""

    def __init__(self, controller: TableController, parent: QWidget) -> None:
        super().__init__(parent, Qt.WindowType.Widget)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet(supervisor_style())
        self.controller = controller
        root = QVBoxLayout(self)
        root.setContentsMargins(12, 10, 12, 12)
        top = QHBoxLayout()
        dealer = controller.snapshot.house_dealer
        self.title = ElidedLabel(f"Who deals · now {dealer or 'nobody is signed in'}", "title")
        top.addWidget(self.title, 1)
        self.back = QPushButton("◀ Back to table")
        self.back.setObjectName("back")
        self.back.setMinimumHeight(64)
        self.back.clicked.connect(self.close)
        top.addWidget(self.back)
        root.addLayout(top)
        self.notice = NoticeLabel()
        root.addWidget(self.notice)
        names = QHBoxLayout()
        label = QLabel("Dealer")
        label.setMinimumWidth(130)
        names.addWidget(label)
        self.field = QLineEdit()
        self.field.setPlaceholderText("name or badge: tap a name or type one")
        self.names: list[QPushButton] = []
        for name in controller.dealer_roster():
            button = QPushButton(name)
            button.setObjectName("chip")
            button.clicked.connect(lambda _=False, n=name: self.field.setText(n))
            names.addWidget(button)
            self.names.append(button)
        names.addWidget(self.field, 1)
        root.addLayout(names)
        self.keyboard = TouchKeyboard()
        self.keyboard.type_into(self.field)
        root.addWidget(self.keyboard, 1)
        buttons = QHBoxLayout()
        self.sign_in = QPushButton("Sign in")
        self.sign_in.setObjectName("primary")
        self.sign_in.clicked.connect(lambda: self._enter(DealerSignIn(self.field.text())))
        self.sign_out = QPushButton("Sign out")
        self.sign_out.setEnabled(dealer is not None)
        self.sign_out.clicked.connect(lambda: self._enter(DealerSignOut()))
        buttons.addWidget(self.sign_in, 1)
        buttons.addWidget(self.sign_out, 1)
        root.addLayout(buttons)
        self.host = parent
        parent.installEventFilter(self)
        self.setGeometry(parent.rect())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Over the dealer's window: keep its size."""
        if event.type() == QEvent.Type.Resize and watched is self.host:
            self.setGeometry(self.host.rect())
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close()
            return
        super().keyPressEvent(event)

    def _enter(self, event: TableInput) -> None:
        refused = self.controller.submit(event)
        if refused is not None:
            self.notice.refuse(refused.message)
            return
        self.close()


def open_dealer_sign_in(parent: QWidget, controller: TableController) -> DealerSignInPanel:
    """Open who deals over `parent`'s window, inside it."""
    panel = DealerSignInPanel(controller, parent.window())
    panel.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    panel.show()
    panel.raise_()
    panel.setFocus()
    return panel

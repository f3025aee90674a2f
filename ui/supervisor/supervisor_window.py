"""The floor supervisor's screens, behind the PIN: recall with the dispute report, corrections on
the open round, the player-dealer rotation, and changing the PIN. On a table without a PIN it opens
on choosing one. It reads the controller's supervisor snapshot and acts through the controller, so
a correction reaches the dealer's screen as any input does, and is marked on the dealer's status
line. `open_supervisor` is how the dealer's screen opens it: over the dealer's window, inside it,
so a kiosk without a window manager never loses the table; "Back to table" on every screen (and
Escape) locks the screens and shows the table again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QStackedWidget, QTabWidget, QVBoxLayout, QWidget

from dealer_assist.errors import Failure
from dealer_assist.history.supervisor_snapshot import SupervisorSnapshot
from dealer_assist.rules.counts import count
from dealer_assist.table.session import TableInput
from dealer_assist.text.journal_text import words
from dealer_assist.text.round_story import story
from devices.table_owner.controller import TableController
from ui.common.closing import CLOSED_BY
from ui.common.confirm_overlay import confirm
from ui.common.elided_label import ElidedLabel
from ui.common.notice_label import NoticeLabel
from ui.supervisor.corrections_view import CorrectionsView, OpenRound
from ui.supervisor.dispute_report import write_report
from ui.supervisor.pin_dialog import PinPad
from ui.supervisor.recall_view import RecallView
from ui.supervisor.rotation_view import RotationStatus, RotationView
from ui.supervisor.supervisor_theme import supervisor_style

__all__ = ["open_supervisor"]

RECALL_ROUNDS = 20


def back_button() -> QPushButton:
    button = QPushButton("◀ Back to table")
    button.setObjectName("back")
    button.setMinimumHeight(64)
    return button


class SupervisorWindow(QWidget):
    """Opens on the PIN pad; the screens show only once the table accepted the PIN (or recorded
    the table's first one), which is kept for the corrections until the supervisor locks the window
    again or goes back to the table. With a `parent` it covers the parent's window from inside;
    without one it is a window of its own. Emits `left` when it gives the table back."""

    left = Signal()

    def __init__(self, controller: TableController, reports: Path | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Widget if parent is not None else Qt.WindowType.Window)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setWindowTitle(f"dealer-assist · supervisor · table {controller.table_id}")
        self.controller = controller
        self._unsubscribe = controller.subscribe_supervisor(self._told)
        self.destroyed.connect(lambda: self._unsubscribe())
        snap = controller.supervisor_snapshot(recent=0)
        self.reports = reports or snap.journal_path.parent / "reports"
        self.pin: str | None = None
        self.scale = 1.0
        self.setStyleSheet(supervisor_style(self.scale))
        root = QVBoxLayout(self)
        root.setContentsMargins(12, 10, 12, 12)
        self.stack = QStackedWidget()
        root.addWidget(self.stack)
        self.pad = PinPad(controller)
        self.pad.unlocked.connect(self._unlock)
        self.pad.pin_set.connect(self._pin_set)
        self.pad.cancelled.connect(lambda: self.stack.setCurrentIndex(1))
        self.pad.back.clicked.connect(self.back_to_table)
        self.stack.addWidget(self.pad)
        screens = QWidget()
        box = QVBoxLayout(screens)
        box.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.title = ElidedLabel(name="title")
        top.addWidget(self.title, 1)
        self.change_pin = QPushButton("Change PIN")
        self.change_pin.clicked.connect(self._change_pin)
        top.addWidget(self.change_pin)
        self.lock = QPushButton("Lock")
        self.lock.clicked.connect(self.lock_screens)
        top.addWidget(self.lock)
        self.close_table = QPushButton("Close table")
        self.close_table.setObjectName("close_table")
        self.close_table.clicked.connect(
            lambda: confirm(
                self,
                "Close the table?",
                "The journal is sealed and the screen closes. An open round goes on where it "
                "stopped when the table is started again.",
                "Close table",
                self._close_table,
            )
        )
        top.addWidget(self.close_table)
        self.back = back_button()
        self.back.clicked.connect(self.back_to_table)
        top.addWidget(self.back)
        box.addLayout(top)
        self.notice = NoticeLabel()
        box.addWidget(self.notice)
        self.tabs = QTabWidget()
        self.recall = RecallView()
        self.recall.report_requested.connect(self._report)
        self.corrections = CorrectionsView(snap.roster)
        self.corrections.correction.connect(self._correct)
        self.rotation = RotationView()
        self.tabs.addTab(self.recall, "Recall")
        self.tabs.addTab(self.corrections, "Corrections")
        self.tabs.addTab(self.rotation, "Rotation")
        self.tabs.currentChanged.connect(lambda _: self.notice.clear())
        box.addWidget(self.tabs, 1)
        self.stack.addWidget(screens)
        self.ticker = QTimer(self)
        self.ticker.setInterval(1000)
        self.ticker.timeout.connect(
            lambda: self.rotation.show_status(RotationStatus.of(self.controller.supervisor_snapshot(recent=0).rotation))
        )
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.host = parent
        if parent is not None:
            parent.installEventFilter(self)
            self.setGeometry(parent.rect())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Over a parent window: keep its size."""
        if event.type() == QEvent.Type.Resize and self.host is not None and watched is self.host:
            self.setGeometry(self.host.rect())
        return False

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Escape, wherever the focus is on these screens, gives the table back."""
        if event.key() == Qt.Key.Key_Escape:
            self.back_to_table()
            return
        super().keyPressEvent(event)

    def back_to_table(self) -> None:
        """Lock the screens and give the table back: the window closes, the PIN is forgotten."""
        self.lock_screens()
        self.left.emit()
        self.close()

    def _close_table(self) -> None:
        """The supervisor ends the table's day: the dealer's window closes, and `run` seals the journal."""
        self.lock_screens()
        host = self.host.window() if self.host is not None else self
        host.setProperty(CLOSED_BY, "the floor supervisor closed the table")
        host.close()

    def refresh(self) -> None:
        """Read the journal and the table again: after a correction, and whenever the screens open."""
        snap = self.controller.supervisor_snapshot(RECALL_ROUNDS)
        self.title.setText(f"Supervisor · table {snap.table_id} · {count(snap.rounds_closed, 'round')} closed")
        self.recall.show_rounds(tuple(story(entry) for entry in snap.rounds))
        self.corrections.show_round(OpenRound.of(snap))
        self.rotation.show_status(RotationStatus.of(snap.rotation))

    def _told(self, snap: SupervisorSnapshot) -> None:
        """A change at the table while these screens are open: what they show follows it."""
        if self.pin is not None and self.isVisible():
            self.refresh()

    def lock_screens(self) -> None:
        """Forget the PIN (and the round recall showed) and go back to the pad."""
        self.pin = None
        self.ticker.stop()
        self.notice.clear()
        self.recall.forget()
        self.pad.reset()
        self.stack.setCurrentWidget(self.pad)

    def _unlock(self, pin: str) -> None:
        self.pin = pin
        self.refresh()
        self.stack.setCurrentIndex(1)
        self.ticker.start()

    def _change_pin(self) -> None:
        """The pad asks for the current PIN again: a screen left unlocked does not give the PIN away."""
        self.notice.clear()
        self.pad.change()
        self.stack.setCurrentWidget(self.pad)

    def _pin_set(self, pin: str) -> None:
        changed = self.pin is not None
        self._unlock(pin)
        self.notice.done("Supervisor PIN changed" if changed else "Supervisor PIN set: it opens these screens now")

    def _correct(self, event: TableInput) -> None:
        if self.pin is None:
            return
        round_id = self.corrections.round_id
        try:
            ops = self.controller.supervise(event, self.pin)
        except Failure as error:
            self.corrections.notice.refuse(error.message)
            return
        # by its kind only: the operation itself may name an open round's hole card; recall masks it
        what = words(type(ops[0]).__name__)
        self.corrections.accepted(f"Recorded: {what}, see the round in Recall")
        where = f" in round {round_id}" if round_id is not None else ""
        self.controller.add_status("Supervisor", f"{what}{where} · {event_by(event)}")

    def _report(self, round_id: int) -> None:
        pdf = self.reports / f"{self.controller.table_id}-round-{round_id}.pdf"
        try:
            report = write_report(self.controller.records, round_id, pdf)
        except (Failure, OSError) as error:
            self.notice.refuse(f"No dispute report written to {pdf}: {getattr(error, 'message', error)}")
            return
        if report.damage is not None:
            self.notice.refuse(f"Dispute report saved: {pdf} · every page says {report.damage}")
            return
        self.notice.done(f"Dispute report saved: {pdf}")

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Sizes follow the screen as on the dealer's: 1.0 at 1280x800, in steps of 0.1."""
        scale = max(1.0, round(min(event.size().width() / 1280, event.size().height() / 800), 1))
        if scale != self.scale:
            self.scale = scale
            self.setStyleSheet(supervisor_style(scale))
        super().resizeEvent(event)


def event_by(event: TableInput) -> str:
    """Who made a correction, as the dealer's status line names them."""
    return f"by {getattr(event, 'supervisor', '') or 'a supervisor'}"


def open_supervisor(parent: QWidget, controller: TableController) -> SupervisorWindow:
    """Open the supervisor's screens over `parent`'s window, inside it, on the PIN pad; one at a time."""
    host = parent.window()
    shown = [window for window in host.findChildren(SupervisorWindow) if window.isVisible()]
    if shown:
        shown[0].raise_()
        return shown[0]
    window = SupervisorWindow(controller, parent=host)
    window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    window.show()
    window.raise_()
    window.setFocus()
    return window

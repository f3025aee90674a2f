"""The supervisor's PIN on a large keypad. The table controller checks it and journals every try;
the pad only collects digits, shows the refusal with the tries left before the lock and, while
locked, the time the lock has left. Every line has a place of its own, kept while it says nothing:
no key moves from step to step, nor when a refusal shows.
"Back to table" leaves the pad at any step.

Nobody chooses the table's first PIN by being first at the screen: on a table without one the pad
says so and how the PIN is set where the table is set up (`dealer-assist pin set`), and takes no
digits. Behind the current PIN "Change PIN" asks for the new one twice.
"""

from __future__ import annotations

import math
from enum import StrEnum

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dealer_assist.errors import Failure
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.pins import MAX_DIGITS, MIN_DIGITS, check_new_pin
from devices.table_owner.controller import TableController
from ui.common.elided_label import ElidedLabel
from ui.common.notice_label import NoticeLabel
from ui.common.theme import hold_place

KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "Clear", "0", "⌫")


def tries_left(tries: int) -> str:
    return f"{tries} {'try' if tries == 1 else 'tries'} left before the PIN locks"


class Step(StrEnum):
    """What the pad asks for next; the value is what it says while no digit is keyed."""

    NONE = "No supervisor PIN is set"
    UNLOCK = "Enter the PIN"
    CURRENT = "Enter the current PIN"
    NEW = f"Enter a new PIN: {MIN_DIGITS} to {MAX_DIGITS} digits"
    AGAIN = "Enter the new PIN again"


class PinPad(QWidget):
    """Emits `unlocked` with the PIN once the table accepted it, `pin_set` with a new PIN once the
    table recorded it, and `cancelled` when a change is given up; `back` is for the window to give
    the table back."""

    unlocked = Signal(str)
    pin_set = Signal(str)
    cancelled = Signal()

    def __init__(self, controller: TableController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._journal = controller.supervisor_snapshot(recent=0).journal_path
        self.digits = ""
        self.step = Step.UNLOCK
        self._changing = False
        self._current: str | None = None  # while changing: the current PIN, accepted by the table
        self._first: str | None = None  # the new PIN as first entered
        outer = QHBoxLayout(self)  # the pad keeps its width from step to step, whatever the texts say
        outer.addStretch(1)
        root = QVBoxLayout()
        outer.addLayout(root, 4)
        outer.addStretch(1)
        root.addStretch(1)
        top = QHBoxLayout()
        heading = QLabel(f"Floor supervisor · table {controller.table_id}")
        heading.setObjectName("big")
        top.addWidget(heading, 1)
        self.back = QPushButton("◀ Back to table")
        self.back.setObjectName("back")
        self.back.setMinimumHeight(64)
        top.addWidget(self.back)
        root.addLayout(top)
        self.flow = hold_place(ElidedLabel(name="step"))
        root.addWidget(self.flow)
        self.shown = ElidedLabel(name="pin")
        root.addWidget(self.shown)
        self.notice = NoticeLabel(lines=2)  # a wrong PIN with the tries left, the lock with its time
        root.addWidget(self.notice)
        self.lock = ElidedLabel(name="total")
        root.addWidget(self.lock)
        grid = QGridLayout()
        grid.setSpacing(10)
        self.keys: dict[str, QPushButton] = {}
        for number, key in enumerate(KEYS):
            button = QPushButton(key)
            button.setObjectName("key")
            button.clicked.connect(lambda _=False, k=key: self._press(k))
            grid.addWidget(button, number // 3, number % 3)
            self.keys[key] = button
        root.addLayout(grid)
        bottom = QHBoxLayout()
        bottom.setSpacing(10)
        self.cancel = hold_place(QPushButton("Cancel"))  # Enter keeps its width without it
        self.cancel.setMinimumHeight(80)
        self.cancel.clicked.connect(self._cancel)
        bottom.addWidget(self.cancel, 1)
        self.enter = QPushButton("Enter")
        self.enter.setObjectName("primary")
        self.enter.setMinimumHeight(80)
        self.enter.clicked.connect(self._enter)
        bottom.addWidget(self.enter, 2)
        root.addLayout(bottom)
        root.addStretch(1)
        self.ticker = QTimer(self)  # fires as the seconds shown change, and as the lock ends
        self.ticker.setSingleShot(True)
        self.ticker.timeout.connect(self._show_lock)
        self._lock_told = False  # the notice says the PIN is locked: it goes with the lock
        self.reset()

    def reset(self) -> None:
        """Ask for the PIN; a table without one says how it is set."""
        self._changing, self._current, self._first = False, None, None
        self._begin(Step.UNLOCK if self.controller.supervisor_snapshot(recent=0).has_pin else Step.NONE)
        self.notice.clear()

    def change(self) -> None:
        """Change the PIN: the current one first, then the new one twice."""
        self._changing, self._current, self._first = True, None, None
        self._begin(Step.CURRENT)
        self.notice.clear()

    def _begin(self, step: Step) -> None:
        self.step = step
        self.digits = ""
        flow = (
            "Change the supervisor PIN"
            if self._changing
            else f"Set it where the table is set up: dealer-assist pin set --journal {self._journal}"
            if step is Step.NONE
            else ""
        )
        self.flow.setText(flow)
        self.flow.setVisible(bool(flow))
        self.cancel.setVisible(self._changing)
        for key in (*self.keys.values(), self.enter):
            key.setEnabled(step is not Step.NONE)
        self._show_digits()
        self._show_lock()

    def _press(self, key: str) -> None:
        if key == "Clear":
            self.digits = ""
        elif key == "⌫":
            self.digits = self.digits[:-1]
        elif len(self.digits) < MAX_DIGITS:
            self.digits += key
        self._show_digits()

    def _show_digits(self) -> None:
        self.shown.setText(" ".join("●" * len(self.digits)) if self.digits else self.step.value)

    def _enter(self) -> None:
        pin = self.digits
        self.digits = ""
        self._show_digits()
        try:
            self._take(pin)
        except Failure as error:
            self.notice.refuse(self._refusal(error))
            self._lock_told = error.code is Refusal.PIN_LOCKED
        finally:
            self._show_lock()

    def _refusal(self, error: Failure) -> str:
        """A wrong PIN says how many tries are left before the lock."""
        if error.code is not Refusal.WRONG_PIN or self.step not in (Step.UNLOCK, Step.CURRENT):
            return error.message
        return f"{error.message}: {tries_left(self.controller.supervisor_snapshot(recent=0).pin_tries_left)}"

    def _take(self, pin: str) -> None:
        """One entry for the step the pad is on; a refusal raises and the pad asks again."""
        match self.step:
            case Step.UNLOCK:
                self.controller.check_pin(pin)
                self.notice.clear()
                self.unlocked.emit(pin)
            case Step.CURRENT:
                self.controller.check_pin(pin)
                self.notice.clear()
                self._current = pin
                self._begin(Step.NEW)
            case Step.NEW:
                check_new_pin(pin)
                self.notice.clear()
                self._first = pin
                self._begin(Step.AGAIN)
            case Step.NONE:
                raise RuleError(Refusal.NO_PIN, "no supervisor PIN is set for this table")
            case Step.AGAIN:
                if pin != self._first:
                    self._first = None
                    self._begin(Step.NEW)
                    raise RuleError(
                        Refusal.PIN_MISMATCH, "the second entry differs from the first: enter the new PIN again"
                    )
                try:
                    self.controller.set_pin(pin, self._current)
                except Failure:
                    self.reset()  # set or changed meanwhile: start again from the PIN the table has
                    raise
                self.reset()
                self.pin_set.emit(pin)

    def _cancel(self) -> None:
        self.reset()
        self.cancelled.emit()

    def _show_lock(self) -> None:
        """The time the lock has left, in whole seconds rounded up, until it ends; then neither
        this line nor a notice of the lock says it lasts."""
        left = self.controller.supervisor_snapshot(recent=0).pin_lock_left
        if left > 0:
            seconds = math.ceil(left)
            self.lock.setText(f"Locked: {seconds // 60}:{seconds % 60:02d} left")
            self.ticker.start(math.ceil((left - (seconds - 1)) * 1000))  # when the next second is shown
            return
        self.lock.setText("")
        self.ticker.stop()
        if self._lock_told:
            self.notice.clear()
            self._lock_told = False

"""The supervisor's PIN chosen on the keypad: a table without one opens on choosing it (twice, at
least four digits), the table journals it and it survives a restart; behind the current PIN it is
changed the same way."""
from __future__ import annotations

import random

from PySide6.QtWidgets import QApplication, QPushButton

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.profile import load_profile
from dealer_assist.play.shoe import Shoe
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from ui.bench_panel import BenchPanel
from ui.bridge import TableBridge
from ui.dealer_window import DealerWindow
from devices.table_controller import TableController
from ui.pin_dialog import Step
from ui.supervisor_window import SupervisorWindow

from test_supervisor_helpers import PIN, Clock, journal, key_in, new_table, opened, tap, unlocked  # noqa: F401


def _security(table: Table) -> list[str]:
    return [r.body["event"] for r in read_records(table.path) if r.kind is RecordKind.SECURITY]


def _no_pin_table(path) -> Table:
    return Table.open(path, TableConfig("T-5", "nobust-4.0"), clock=Clock())


def _refused(window: SupervisorWindow) -> str:
    assert window.pad.notice.isVisible(), "the pad says nothing"
    return window.pad.notice.text()


def test_a_table_without_a_pin_has_it_chosen_twice_and_it_opens_the_screens_after_a_restart(qtbot, journal):
    table = _no_pin_table(journal)
    window = opened(qtbot, table)
    pad = window.pad
    assert window.stack.currentWidget() is pad and pad.step is Step.NEW
    assert pad.flow.text() == "No supervisor PIN yet: choose the table's PIN"
    assert pad.shown.text() == "Enter a new PIN: 4 to 12 digits"
    assert not pad.cancel.isVisible(), "there is no screen to go back to without a PIN"

    key_in(qtbot, window, "135")
    assert _refused(window) == "a PIN is 4 to 12 digits, this one has 3"
    assert pad.step is Step.NEW
    key_in(qtbot, window, "")
    assert _refused(window) == "a PIN is 4 to 12 digits, this one has 0"

    key_in(qtbot, window, "7531")
    assert pad.step is Step.AGAIN and pad.shown.text() == "Enter the new PIN again"
    assert not pad.notice.isVisible()
    key_in(qtbot, window, "7532")
    assert _refused(window) == "the second entry differs from the first: enter the new PIN again"
    assert pad.step is Step.NEW, "a mismatch starts the new PIN over"
    assert table.pins.digest is None and _security(table) == []

    key_in(qtbot, window, "7531")
    key_in(qtbot, window, "7531")
    assert window.stack.currentIndex() == 1 and window.pin == "7531"
    assert window.notice.text() == "Supervisor PIN set: it opens these screens now"
    assert _security(table) == ["pin_set"]
    table.close()

    reopened = Table.open(journal, clock=Clock())
    again = opened(qtbot, reopened)
    assert again.pad.step is Step.UNLOCK and again.pad.shown.text() == "Enter the PIN"
    key_in(qtbot, again, "1357")
    assert _refused(again) == "wrong supervisor PIN: 4 tries left before the PIN locks"
    key_in(qtbot, again, "7531")
    assert again.stack.currentIndex() == 1
    assert _security(reopened) == ["pin_set", "pin_wrong", "pin_ok"]
    reopened.close()


def test_the_pin_is_changed_behind_the_current_one_and_the_change_survives_a_restart(qtbot, journal):
    table = new_table(journal)
    window = unlocked(qtbot, table)
    tap(qtbot, window.change_pin)
    pad = window.pad
    assert window.stack.currentWidget() is pad and pad.step is Step.CURRENT
    assert pad.flow.text() == "Change the supervisor PIN" and pad.shown.text() == "Enter the current PIN"

    key_in(qtbot, window, "9999")
    assert _refused(window) == "wrong supervisor PIN: 4 tries left before the PIN locks" and pad.step is Step.CURRENT
    key_in(qtbot, window, PIN)
    assert pad.step is Step.NEW
    key_in(qtbot, window, "86420")
    key_in(qtbot, window, "8642")
    assert _refused(window) == "the second entry differs from the first: enter the new PIN again"
    key_in(qtbot, window, "86420")
    key_in(qtbot, window, "86420")
    assert window.stack.currentIndex() == 1 and window.pin == "86420"
    assert window.notice.text() == "Supervisor PIN changed"
    assert _security(table)[-4:] == ["pin_wrong", "pin_ok", "pin_ok", "pin_set"]

    tap(qtbot, window.lock)
    key_in(qtbot, window, PIN)
    assert _refused(window) == "wrong supervisor PIN: 4 tries left before the PIN locks", "the old PIN no longer opens the screens"
    table.close()

    reopened = Table.open(journal, clock=Clock())
    key_in(qtbot, opened(qtbot, reopened), "86420")
    assert _security(reopened)[-1] == "pin_ok"
    reopened.close()


def test_a_change_given_up_keeps_the_pin_and_the_screens(qtbot, journal):
    table = new_table(journal)
    window = unlocked(qtbot, table)
    tap(qtbot, window.change_pin)
    key_in(qtbot, window, PIN)
    key_in(qtbot, window, "1111")
    tap(qtbot, window.pad.cancel)
    assert window.stack.currentIndex() == 1 and window.pin == PIN
    assert _security(table)[-1] == "pin_ok", "nothing was set"
    tap(qtbot, window.lock)
    assert window.pad.step is Step.UNLOCK and not window.pad.cancel.isVisible()
    key_in(qtbot, window, PIN)
    assert window.stack.currentIndex() == 1


def test_the_dealers_supervisor_button_on_a_table_without_a_pin_opens_on_choosing_it(qtbot, journal):
    table = _no_pin_table(journal)
    controller = TableController(table)
    bridge = TableBridge(controller)
    shoe = Shoe(load_profile("nobust-4.0").decks, random.Random(0))
    dealer = DealerWindow(bridge, BenchPanel(shoe, controller.consult, controller.devices))
    qtbot.addWidget(dealer)
    dealer.resize(1280, 800)
    dealer.show()
    qtbot.waitExposed(dealer)
    tap(qtbot, dealer.findChild(QPushButton, "supervisor"))
    window = dealer.findChild(SupervisorWindow)
    assert window is not None and window.pad.step is Step.NEW
    key_in(qtbot, window, "24680")
    key_in(qtbot, window, "24680")
    assert window.stack.currentIndex() == 1
    QApplication.processEvents()
    assert table.pins.digest is not None and _security(table) == ["pin_set"]
    window.close()
    table.close()

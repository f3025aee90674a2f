"""The supervisor's PIN: nobody chooses a table's first PIN on its screen, where whoever is first
would; the pad says how it is set where the table is set up (`dealer-assist pin set`), and once
set it opens the screens and survives a restart; behind the current PIN it is changed on the pad."""

from __future__ import annotations

import io
import json
import random

from PySide6.QtWidgets import QApplication, QPushButton
from test_supervisor_helpers import PIN, Clock, journal, key_in, new_table, opened, tap, unlocked  # noqa: F401

from dealer_assist.commands.pin import main as pin_command
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.profile import load_profile
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from devices.table_owner.controller import TableController
from ui.common.bridge import TableBridge
from ui.dealer.bench_panel import BenchPanel
from ui.dealer.dealer_window import DealerWindow
from ui.supervisor.pin_dialog import Step
from ui.supervisor.supervisor_window import SupervisorWindow


def _security(table: Table) -> list[str]:
    return [r.body["event"] for r in read_records(table.path) if r.kind is RecordKind.SECURITY]


def _no_pin_table(path) -> Table:
    return Table.open(path, TableConfig("T-5", "nobust-4.0"), clock=Clock())


def _refused(window: SupervisorWindow) -> str:
    assert window.pad.notice.isVisible(), "the pad says nothing"
    return window.pad.notice.text()


def test_a_table_without_a_pin_says_how_it_is_set_and_nobody_chooses_it_on_the_screen(
    qtbot, journal, monkeypatch, capsys
):
    table = _no_pin_table(journal)
    window = opened(qtbot, table)
    pad = window.pad
    assert window.stack.currentWidget() is pad and pad.step is Step.NONE
    assert pad.flow.text() == f"Set it where the table is set up: dealer-assist pin set --journal {journal}"
    assert pad.shown.text() == "No supervisor PIN is set"
    assert not any(key.isEnabled() for key in pad.keys.values()) and not pad.enter.isEnabled()
    assert pad.back.isEnabled(), "the table is always there to go back to"
    assert table.pins.digest is None and _security(table) == []
    table.close()

    monkeypatch.setattr("sys.stdin", io.StringIO("7531\n"))
    assert pin_command(["set", "--journal", str(journal)]) == 0
    assert json.loads(capsys.readouterr().out) == {"pin_set": {"journal": str(journal), "table_id": "T-5"}}
    reopened = Table.open(journal, clock=Clock())
    again = opened(qtbot, reopened)
    assert again.pad.step is Step.UNLOCK and again.pad.shown.text() == "Enter the PIN"
    key_in(qtbot, again, "1357")
    assert _refused(again) == "wrong supervisor PIN: 4 tries left before the PIN locks"
    key_in(qtbot, again, "7531")
    assert again.stack.currentIndex() == 1
    assert _security(reopened) == ["pin_set", "pin_wrong", "pin_ok"]
    assert next(r.body["by"] for r in read_records(journal) if r.kind is RecordKind.SECURITY) == "setup"
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
    assert _refused(window) == "wrong supervisor PIN: 4 tries left before the PIN locks", (
        "the old PIN no longer opens the screens"
    )
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


def test_the_dealers_supervisor_button_on_a_table_without_a_pin_says_how_it_is_set(qtbot, journal):
    table = _no_pin_table(journal)
    controller = TableController(table)
    bridge = TableBridge(controller)
    shoe = Shoe(load_profile("nobust-4.0").decks, random.Random(0))
    dealer = DealerWindow(bridge, BenchPanel(shoe, controller.facts, controller.devices))
    qtbot.addWidget(dealer)
    dealer.resize(1280, 800)
    dealer.show()
    qtbot.waitExposed(dealer)
    tap(qtbot, dealer.findChild(QPushButton, "supervisor"))
    window = dealer.findChild(SupervisorWindow)
    assert window is not None and window.pad.step is Step.NONE and "dealer-assist pin set" in window.pad.flow.text()
    assert not window.pad.keys["2"].isEnabled(), "a dealer cannot choose the table's PIN by being first"
    QApplication.processEvents()
    assert table.pins.digest is None and _security(table) == []
    window.close()
    table.close()

"""The dealer's Supervisor button: it opens the supervisor's window on the PIN pad, and a
correction made there shows on the dealer's screen at once."""
from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from dealer_assist.table_session import TableState
from ui.supervisor_window import SupervisorWindow

from test_supervisor_helpers import key_in, tap


def test_the_supervisor_button_opens_the_pin_pad_and_a_void_shows_on_the_dealers_screen(qtbot, table):
    t = table("nobust-4.0")
    assert t.snap.table.state is TableState.ROUND
    tap(qtbot, t.window.findChild(QPushButton, "supervisor"))
    window = t.window.findChild(SupervisorWindow)
    assert window is not None and window.isVisible() and window.stack.currentWidget() is window.pad
    assert window.size() == t.window.size()
    key_in(qtbot, window, t.pin)
    window.tabs.setCurrentWidget(window.corrections)
    qtbot.keyClicks(window.corrections.supervisor, "floor-2")
    qtbot.keyClicks(window.corrections.reason, "dealer exposed the deck")
    tap(qtbot, window.corrections.void)
    assert window.corrections.notice.text().startswith("Recorded: Round voided")
    assert t.snap.table.state is TableState.OFFERING_BANK, "the dealer's screen shows the round closed"

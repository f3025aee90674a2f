"""The dealer's Supervisor button: it opens the supervisor's screens over the dealer's window, on
the PIN pad; "Back to table" (or Escape) gives the live table back from every screen, choosing a new
table's first PIN included; a correction
is made with taps only (a name from the roster, a reason from the list, the screen's keyboard),
asked once more, and shows on the dealer's screen at once."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPushButton
from test_supervisor_helpers import key_in, tap, tap_and_confirm

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.table.roster import ROSTER_FILE
from dealer_assist.table.session import TableState
from ui.common.closing import CLOSED_BY
from ui.supervisor.pin_dialog import Step
from ui.supervisor.supervisor_window import SupervisorWindow


def _open(qtbot, t) -> SupervisorWindow:
    tap(qtbot, t.window.findChild(QPushButton, "supervisor"))
    shown = [w for w in t.window.findChildren(SupervisorWindow) if w.isVisible()]
    assert len(shown) == 1 and shown[0].stack.currentWidget() is shown[0].pad
    assert shown[0].parentWidget() is t.window, "inside the dealer's window: no window manager needed"
    assert shown[0].geometry() == t.window.rect()
    return shown[0]


def _back_at_the_table(t) -> None:
    assert not [w for w in t.window.findChildren(SupervisorWindow) if w.isVisible()]
    assert t.view.isVisible() and t.window.isVisible()


def test_every_supervisor_screen_goes_back_to_the_live_table(qtbot, table):
    new = table("nobust-4.0", pin=None)  # its supervisor screens open on how the table's PIN is set
    t = table("nobust-4.0")
    leave_by_button = lambda w: tap(qtbot, w.back if w.stack.currentIndex() == 1 else w.pad.back)  # noqa: E731
    leave_by_escape = lambda w: qtbot.keyClick(w.focusWidget() or w, Qt.Key.Key_Escape)  # noqa: E731
    for leave in (leave_by_button, leave_by_escape):
        window = _open(qtbot, new)
        assert window.pad.step is Step.NONE and window.pad.back.isVisible()
        window.pad.setFocus()
        leave(window)  # from the pad that says how the PIN is set
        _back_at_the_table(new)
        window = _open(qtbot, t)
        window.setFocus()
        leave(window)  # from the PIN pad
        _back_at_the_table(t)
        for tab in range(3):
            window = _open(qtbot, t)
            key_in(qtbot, window, t.pin)
            window.tabs.setCurrentIndex(tab)
            window.tabs.currentWidget().setFocus()
            leave(window)
            _back_at_the_table(t)
        window = _open(qtbot, t)
        key_in(qtbot, window, t.pin)
        tap(qtbot, window.change_pin)  # the pad, changing the PIN
        window.pad.setFocus()
        leave(window)
        _back_at_the_table(t)
        window = _open(qtbot, t)
        key_in(qtbot, window, t.pin)
        tap(qtbot, window.change_pin)
        key_in(qtbot, window, t.pin)
        key_in(qtbot, window, "7531")
        assert window.pad.step is Step.AGAIN
        window.pad.setFocus()
        leave(window)  # from entering the new PIN again
        _back_at_the_table(t)
        window = _open(qtbot, t)
        key_in(qtbot, window, t.pin)
        window.tabs.setCurrentWidget(window.corrections)
        qtbot.mouseClick(window.corrections.reason, Qt.MouseButton.LeftButton)  # the keyboard open
        assert window.corrections.keyboard.isVisible()
        leave(window)
        _back_at_the_table(t)
    window = _open(qtbot, t)
    assert window.pin is None, "back at the table the PIN is forgotten"
    assert _open(qtbot, new).pad.step is Step.NONE and new.journaled.pins.digest is None, (
        "nobody chose a PIN on the screen"
    )
    pins_set = [
        r for r in read_records(t.journaled.path) if r.kind is RecordKind.SECURITY and r.body["event"] == "pin_set"
    ]
    assert len(pins_set) == 1, "a change half made is not kept"


def test_a_void_by_taps_only_is_asked_first_and_marked_on_the_dealers_screen(qtbot, table):
    t = table("nobust-4.0")
    (t.journaled.path.parent / ROSTER_FILE).write_text("# the floor\nfloor-1\nfloor-2\n\n")
    window = _open(qtbot, t)
    key_in(qtbot, window, t.pin)
    fixes = window.corrections
    window.tabs.setCurrentWidget(fixes)
    names = [b.text() for b in fixes.findChildren(QPushButton, "chip")]
    assert names[:2] == ["floor-1", "floor-2"] and "Card exposed" in names
    tap(qtbot, next(b for b in fixes.findChildren(QPushButton, "chip") if b.text() == "floor-2"))
    tap(qtbot, next(b for b in fixes.findChildren(QPushButton, "chip") if b.text() == "Card exposed"))
    qtbot.mouseClick(fixes.reason, Qt.MouseButton.LeftButton)
    for key in (",", "Space", "d", "e", "c", "k", "⌫", "k"):
        tap(qtbot, fixes.keyboard.keys[key])
    assert fixes.reason.text() == "Card exposed, deck"
    tap(qtbot, fixes.typing)
    assert fixes.void.isVisible() and not fixes.keyboard.isVisible()

    tap(qtbot, fixes.void)
    from ui.common.confirm_overlay import open_confirmation

    question = open_confirmation(fixes)
    assert question is not None and question.question.text() == "Void round 1?"
    assert "supervisor floor-2, reason Card exposed, deck" in question.detail.text()
    tap(qtbot, question.back)
    assert t.snap.table.state is TableState.ROUND, "nothing is voided until it is confirmed"

    tap_and_confirm(qtbot, fixes.void, "Void round 1?")
    assert fixes.notice.text().startswith("Recorded: Round voided")
    assert t.snap.table.state is TableState.OFFERING_BANK, "the dealer's screen shows the round closed"
    tap(qtbot, window.back)
    qtbot.waitUntil(
        lambda: t.view.devices.labels["Supervisor"].toolTip() == "Supervisor: Round voided in round 1 · by floor-2"
    )


def test_the_supervisor_closes_the_table_after_asking_once_more(qtbot, table):
    t = table("nobust-4.0")
    window = _open(qtbot, t)
    key_in(qtbot, window, t.pin)
    asked = tap_and_confirm(qtbot, window.close_table)
    assert "Close the table?" in asked
    assert not t.window.isVisible(), "the dealer's window closes: run then seals the journal"
    assert t.window.property(CLOSED_BY) == "the floor supervisor closed the table"

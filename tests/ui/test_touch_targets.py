"""Nothing moves under the dealer's finger, nor the supervisor's: every touch target shown keeps its
rectangle in the window whenever it is shown, through a whole played round (the bank offer, wagers
and a refusal, a misdeal held and discarded by a supervisor, decisions, the settle-now step, the
settlement), the next round's wagers keyed "as last round" (lit, then dimmed) and a supervisor's session (the PIN
chosen, a wrong PIN and the lock, recall, the
dispute report, a correction, the PIN changed, the keyboard with and without a refusal), at both
screen sizes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLineEdit, QListWidget, QPushButton, QTabBar, QWidget

from dealer_assist.rules.inputs import Action, WagerKind
from dealer_assist.rules.phases import Need
from dealer_assist.table.session import TableState
from tests.ui.conftest import Table
from ui.common.confirm_overlay import open_confirmation
from ui.dealer.seat_widget import SeatPanel
from ui.supervisor.corrections_view import REASONS
from ui.supervisor.supervisor_window import SupervisorWindow

SIZES = [(1280, 800), (1920, 1080)]
# nobust-4.0, the PD in seat 4: seat 1 6S 7C (Lucky Lucky with the PD's 7D up: settled after the deal),
# seat 3 5H 6H, seat 6 TD 7S (must stand on hard 17); the PD 7D 9C. Seat 1 doubles and takes 2D, seat 3
# doubles and takes 9D; KS to seat 6's hard 17 is a misdeal; the PD hits 16 with 4C.
CARDS = ["6S", "5H", "TD", "7D", "7C", "6H", "7S", "9C", "2D", "9D", "KS", "4C"]
NEW_PIN, OTHER_PIN = "1357", "8642"
TARGETS = (QAbstractButton, QLineEdit, QListWidget, SeatPanel)


def _rect(widget: QWidget, local: QRect | None = None) -> QRect:
    local = local if local is not None else widget.rect()
    return QRect(widget.mapTo(widget.window(), local.topLeft()), local.size())


def _name(widget: QWidget) -> str:
    text = widget.text() if isinstance(widget, (QAbstractButton, QLineEdit)) else ""
    return f"{type(widget).__name__} {text or widget.objectName() or widget.accessibleName()!r}"


def _targets(window: QWidget) -> Iterator[tuple[object, QWidget, str, QRect]]:
    """(key, widget, name, rectangle in the window) of every touch target shown: buttons, text
    fields, lists, seats and each tab of a tab bar."""
    for widget in window.findChildren(QWidget):
        if not widget.isVisible():
            continue
        if isinstance(widget, QTabBar):
            for index in range(widget.count()):
                yield (
                    (id(widget), index),
                    widget,
                    f"tab {index + 1} of {widget.tabText(0)!r}",
                    _rect(widget, widget.tabRect(index)),
                )
        elif isinstance(widget, TARGETS):
            yield id(widget), widget, _name(widget), _rect(widget)


@dataclass
class Places:
    """The first rectangle each target was seen at, and the first state that showed it elsewhere."""

    first: dict[object, tuple[QWidget, str, QRect, str]] = field(default_factory=dict)
    moved: dict[object, str] = field(default_factory=dict)  # each target's first move
    states: int = 0

    def look(self, window: QWidget, state: str) -> None:
        for _ in range(3):  # a change can post layout requests up several levels: let them all run
            QApplication.processEvents()
        self.states += 1
        for key, widget, name, rect in _targets(window):
            seen = self.first.setdefault(key, (widget, name, rect, state))  # the widget is kept: its id stays its own
            if seen[2] != rect and key not in self.moved:
                self.moved[key] = f"{seen[1]}: {_text(seen[2])} at {seen[3]!r}, {_text(rect)} at {state!r}"


def _text(rect: QRect) -> str:
    return f"x {rect.x()}-{rect.right()} y {rect.y()}-{rect.bottom()}"


class WatchedTable(Table):
    """The bench table whose every tap is followed by a look at every touch target."""

    def __init__(self, places: Places, *args, **kwargs) -> None:
        self.places = places
        super().__init__(*args, **kwargs)

    def look(self, state: str) -> None:
        self.places.look(self.window, state)

    def tap(self, widget) -> None:
        name = _name(widget)
        super().tap(widget)
        self.look(f"{name} tapped")

    def tap_seat(self, seat: int) -> None:
        super().tap_seat(seat)
        self.look(f"seat {seat} tapped")

    def supervisor(self) -> SupervisorWindow:
        self.tap(self.window.findChild(QPushButton, "supervisor"))
        return next(w for w in self.window.findChildren(SupervisorWindow) if w.isVisible())

    def key_in(self, pad, pin: str) -> None:
        for digit in pin:
            self.tap(pad.keys[digit])
        self.tap(pad.enter)

    def confirm(self, button) -> None:
        self.tap(button)
        question = open_confirmation(self.window)
        assert question is not None, f"{button.text()} acted without asking"
        self.tap(question.yes)

    def type_on_keyboard(self, fixes, field: QLineEdit, text: str) -> None:
        self.qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
        self.look(f"{_name(field)} tapped")
        for letter in text:
            self.tap(fixes.keyboard.keys["Space" if letter == " " else letter])


def _play_the_round(t: WatchedTable) -> None:
    t.tap_seat(2)
    t.tap(t.view.wagers.chip_buttons[100])  # below the table's minimum: refused
    assert t.view.banner.isVisible()
    t.tap(t.view.banner.resolve)
    t.wager(1, WagerKind.BASE, 500)
    t.wager(1, WagerKind.LUCKY_LUCKY, 500)
    t.wager(3, WagerKind.BASE, 5_000)
    t.wager(6, WagerKind.BASE, 2_500)
    t.deal(8)
    assert t.snap.need is Need.PAYMENTS
    t.tap(t.view.payments.confirm)
    t.decide(Action.DOUBLE)
    t.deal()
    t.decide(Action.DOUBLE)
    t.deal()
    assert t.snap.decisions.seat == 6
    t.deal()  # to a hard 17 that must stand: held as a misdeal
    assert t.view.banner.isVisible() and t.snap.table.misdeal is not None
    _discard_the_misdeal(t)
    assert not t.view.banner.isVisible()
    t.confirm(t.view.decisions.buttons[Action.SURRENDER])
    t.deal()
    assert t.snap.need is Need.NOTHING
    t.tap(t.view.settlement.confirm)
    assert t.snap.table.state is TableState.OFFERING_BANK
    t.tap(t.view.bank_offer.keypad.chips[50_000])


def _same_as_last_round(t: WatchedTable) -> None:
    """Round 2, keyed from the last: the seat's "as last round" lit and dimmed, the table's, a refusal."""
    t.tap(t.view.bank_offer.keypad.confirm)
    pad = t.view.wagers
    assert t.snap.need is Need.WAGERS and pad.table_as_last.isEnabled()
    t.tap_seat(1)
    t.tap(pad.seat_as_last)
    assert not pad.seat_as_last.isEnabled() and (t.snap.seat(1).base, t.snap.seat(1).lucky_lucky) == (500, 500)
    t.tap(pad.table_as_last)
    assert not pad.table_as_last.isEnabled() and t.snap.seat(6).base == 2_500
    t.tap(pad.clear)  # the base before its Lucky Lucky: refused
    assert t.view.banner.isVisible()
    t.tap(t.view.banner.resolve)
    t.tap(pad.no_more_bets)


def _discard_the_misdeal(t: WatchedTable) -> None:
    """The supervisor opens the screens with the table's PIN, then discards the held card with a name
    typed under the refusal of a discard without one, and a listed reason."""
    window = t.supervisor()
    t.key_in(window.pad, NEW_PIN)
    assert window.stack.currentIndex() == 1
    fixes = window.corrections
    window.tabs.setCurrentWidget(fixes)
    t.look("corrections")
    t.tap(fixes.discard)  # no name, no reason: refused on the screen
    assert fixes.notice.isVisible()
    t.type_on_keyboard(fixes, fixes.supervisor, "floor 1")  # the keyboard with the refusal shown
    t.tap(fixes.typing)
    t.tap(next(b for b in fixes.findChildren(QPushButton, "chip") if b.text() == REASONS[2]))
    t.confirm(fixes.discard)
    assert fixes.notice.text().startswith("Recorded: Misdeal discarded"), fixes.notice.text()
    t.tap(window.back)


def _supervisor_session(t: WatchedTable) -> None:
    window = t.supervisor()
    t.key_in(window.pad, OTHER_PIN)
    assert window.pad.notice.isVisible(), "a wrong PIN is refused"
    t.key_in(window.pad, NEW_PIN)
    recall = window.recall
    for _ in range(3):
        t.tap(recall.next)
    t.tap(recall.previous)
    recall.rounds.setCurrentRow(recall.rounds.count() - 1)
    t.look("the first round chosen")
    for tab in range(recall.tabs.count()):
        recall.tabs.setCurrentIndex(tab)
        t.look(f"recall tab {tab + 1}")
    t.tap(recall.report)
    assert window.notice.text().startswith("Dispute report saved"), window.notice.text()
    fixes = window.corrections
    window.tabs.setCurrentWidget(fixes)
    t.look("corrections")
    assert not fixes.notice.isVisible()
    t.type_on_keyboard(fixes, fixes.reason, "late bet")  # the keyboard with nothing refused
    t.tap(fixes.typing)
    window.tabs.setCurrentWidget(window.rotation)
    t.look("rotation")
    t.tap(window.change_pin)
    t.key_in(window.pad, NEW_PIN)
    t.key_in(window.pad, OTHER_PIN)
    t.key_in(window.pad, NEW_PIN)  # differs: the new PIN is asked again, the refusal shown
    assert window.pad.notice.isVisible()
    t.key_in(window.pad, OTHER_PIN)
    t.key_in(window.pad, OTHER_PIN)
    assert window.notice.text() == "Supervisor PIN changed"
    t.tap(window.lock)
    for _ in range(5):
        t.key_in(window.pad, NEW_PIN)
    assert window.pad.lock.text().startswith("Locked"), "five wrong PINs lock the pad"
    t.tap(window.pad.back)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_touch_target_keeps_its_place_through_a_round_and_a_supervisors_session(qtbot, tmp_path, size):
    places = Places()
    t = WatchedTable(places, qtbot, tmp_path / "t.db", "nobust-4.0", CARDS, pd_seat=4, size=size, pin=NEW_PIN)
    try:
        assert t.window.size().width() == size[0] and t.window.size().height() == size[1]
        _play_the_round(t)
        _same_as_last_round(t)
        _supervisor_session(t)
    finally:
        t.journaled.close()
    assert places.states > 100 and len(places.first) > 150
    assert not places.moved, f"{len(places.moved)} touch targets moved:\n" + "\n".join(places.moved.values())

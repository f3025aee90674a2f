"""Shared by the supervisor screen tests: real tables on journals in tmp_path, a hand-moved clock,
and the supervisor's window opened on one and unlocked through its keypad."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "journal"))
from journal_helpers import Clock, play  # noqa: E402

from dealer_assist.rules.cards import parse_card  # noqa: E402
from dealer_assist.rules.inputs import CardDrawn, NoMoreBets, PlaceWager, WagerKind  # noqa: E402
from dealer_assist.table.journaled_table import Table  # noqa: E402
from dealer_assist.table.session import TableConfig  # noqa: E402
from dealer_assist.table.session_inputs import BankAccepted, ShoeLoaded  # noqa: E402
from devices.table_owner.controller import TableController  # noqa: E402
from tests.ui.label_checks import check_elided  # noqa: E402
from ui.common.elided_label import ElidedLabel  # noqa: E402
from ui.supervisor.supervisor_window import SupervisorWindow  # noqa: E402

PIN = "4821"


def new_table(path: Path, profile: str = "nobust-4.0", clock: Clock | None = None, rotation: bool = False) -> Table:
    table = Table.open(path, TableConfig("T-5", profile, rotation_rules=rotation), clock=clock or Clock())
    table.set_pin(PIN)
    return table


def played_table(path: Path, rounds: int = 14, profile: str = "nobust-4.0") -> Table:
    """A table with `rounds` bench rounds closed, its journal still open as on the floor."""
    table = new_table(path, profile)
    play(table, rounds, seed=3)
    return table


def open_round(path: Path, *cards: str, profile: str = "nobust-4.0") -> Table:
    """Round 1 of a new table: seat 1 banks, seat 2 bets $10, then `cards` from the shoe."""
    table = new_table(path, profile)
    table.submit(ShoeLoaded("S-1", 6))
    table.submit(BankAccepted(1, 50_000))
    table.submit(PlaceWager(2, WagerKind.BASE, 1_000))
    if cards:
        table.submit(NoMoreBets())
    for code in cards:
        table.submit(CardDrawn(parse_card(code)))
    return table


def tap(qtbot, widget: QWidget) -> None:
    assert widget.isVisible() and widget.isEnabled(), f"{widget.objectName() or widget.text()} is not tappable"
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


def tap_and_confirm(qtbot, widget: QWidget, asked: str = "") -> str:
    """Tap an irreversible action, find the question it asks over the window and confirm it;
    returns the question."""
    from ui.common.confirm_overlay import open_confirmation

    tap(qtbot, widget)
    question = open_confirmation(widget)
    assert question is not None, f"{widget.text()} acted without asking"
    text = question.question.text()
    assert asked in text, text
    tap(qtbot, question.yes)
    assert open_confirmation(widget) is None
    return text


def key_in(qtbot, window: SupervisorWindow, pin: str) -> None:
    """Type `pin` on the keypad and tap Enter."""
    for digit in pin:
        tap(qtbot, window.pad.keys[digit])
    tap(qtbot, window.pad.enter)


def opened(qtbot, table: Table, size: tuple[int, int] = (1280, 800)) -> SupervisorWindow:
    window = SupervisorWindow(TableController(table))
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    return window


def unlocked(qtbot, table: Table, size: tuple[int, int] = (1280, 800)) -> SupervisorWindow:
    window = opened(qtbot, table, size)
    key_in(qtbot, window, PIN)
    assert window.stack.currentIndex() == 1, window.pad.notice.text()
    return window


def assert_fits(window: QWidget, size: tuple[int, int]) -> None:
    """The window keeps the screen's size; every shown button is a touch target and nothing is cut."""
    QApplication.processEvents()
    assert (window.width(), window.height()) == size, f"the window grew to {window.width()}x{window.height()}"
    for button in window.findChildren(QPushButton):
        if button.isVisible():
            assert button.height() >= 48 and button.width() >= 48, (
                f"{button.text()!r} is {button.width()}x{button.height()}"
            )
            assert button.width() >= button.minimumSizeHint().width(), f"{button.text()!r} is cut"
    for label in window.findChildren(QLabel):
        if label.isVisible() and isinstance(label, ElidedLabel):  # cut short: fine with its words on the tooltip
            check_elided(label)
        elif label.isVisible() and label.text() and not label.wordWrap():
            assert label.width() >= label.minimumSizeHint().width(), f"{label.text()!r} is cut"


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "table.db"

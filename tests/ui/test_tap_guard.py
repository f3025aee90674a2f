"""A double tap decides once: the guard is one time, applied to every button of the dealer's screen."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton

from dealer_assist.rules.inputs import Action, WagerKind
from ui.common.tap_guard import GUARD_S, REPEATABLE

CARDS = ["TS", "9H", "KD", "QH", "8C", "5D"]  # seat 1 TS QH 20, seat 6 9H 8C 17, the PD KD 5D


def test_stand_tapped_twice_fast_stands_one_seat_only(table, qtbot):
    t = table("nobust-4.0", CARDS, pd_seat=4)
    t.wager(1, WagerKind.BASE, 2_500)
    t.wager(6, WagerKind.BASE, 2_500)
    t.deal(6)
    assert t.snap.decisions.seat == 1
    stand = t.view.decisions.buttons[Action.STAND]
    t.view.tap_guard.clock = time.monotonic  # this test keeps the guard on real time
    qtbot.mouseClick(stand, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(stand, Qt.MouseButton.LeftButton)
    assert t.snap.decisions.seat == 6, "the second tap within the guard time did nothing"
    assert t.tracker.hands[6][0].ended is None
    qtbot.wait(int(GUARD_S * 1000) + 20)
    qtbot.mouseClick(stand, Qt.MouseButton.LeftButton)
    assert t.tracker.hands[6][0].ended is not None, "a tap after the guard time counts"


def test_every_button_of_the_dealer_screen_is_guarded_but_the_chips(table):
    t = table("nobust-4.0")
    buttons = t.view.findChildren(QAbstractButton)
    guarded = {b.objectName() for b in buttons if not b.property(REPEATABLE)}
    assert {"decide_stand", "decide_surrender", "no_more_bets", "close_insurance", "wager_clear"} <= guarded
    assert all(
        b.objectName().startswith(("chip_", "bank_chip_", "double_chip_")) or "chip" in b.objectName()
        for b in buttons
        if b.property(REPEATABLE)
    )
    assert all(b.property(REPEATABLE) for b in t.view.wagers.chip_buttons.values())

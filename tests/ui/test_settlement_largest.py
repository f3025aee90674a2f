"""The largest settlement a table can have, read to its last row at 1280x800.

The most rows a settlement shows come from seven player seats (nobust-4.0's eight seats less the
player-dealer's; sd-buster's seven) each split to four hands (max_hands) and holding a Buster wager:
35 rows. Lucky Lucky and insurance are settled before the round ends at a live table (RULES.md §5.4),
named on the note line, and no profile pays a free bonus. 35 rows cannot fit a 1280x800 screen at a
size the dealer reads, so Done is held until every row has been wholly on screen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication

from dealer_assist.rules.inputs import Action, WagerKind
from dealer_assist.rules.phases import Need
from dealer_assist.rules.profile import load_profile, profile_names
from tests.screenshots import shoot

TENS = ["TS", "JH", "QD", "KC"] * 20  # every pair splits (split_same_value), every hand stands on 20


def _largest_rows() -> int:
    most = 0
    for name in profile_names():
        p = load_profile(name)
        players = p.seats - (1 if p.player_dealer else 0)
        most = max(most, players * (p.max_hands + 1))  # each hand's base and the seat's Buster
    return most


def _settle_the_largest(table):
    t = table("sd-buster-a", TENS, size=(1280, 800))
    for seat in range(1, 8):
        t.wager(seat, WagerKind.BASE, 1_000)
        t.wager(seat, WagerKind.BUSTER, 100)
    for _ in range(300):  # each step a tap
        need = t.tracker.awaiting().need
        if need is Need.NOTHING:
            return t
        enabled = t.enabled_decisions()
        if need is Need.PEEK:
            t.tap(t.bench.peek_buttons["answer"])
        elif need is Need.INSURANCE:
            t.tap(t.view.wagers.close_insurance)
        elif need is Need.PAYMENTS:
            t.tap(t.view.payments.confirm)
        elif need is Need.DECISION and Action.SPLIT in enabled:
            t.decide(Action.SPLIT)
        elif need is Need.DECISION and Action.STAND in enabled:
            t.decide(Action.STAND)
        else:
            t.deal()
    raise AssertionError(f"the round did not end: {t.view.prompt.text()!r}")


def _on_screen(t) -> list[bool]:
    """Each row (under the heading): wholly inside the scroll area's viewport now."""
    QApplication.processEvents()
    panel = t.view.settlement
    viewport = panel.scroller.viewport()
    shown = QRect(viewport.mapTo(t.window, QPoint(0, 0)), viewport.size())
    origin = panel.rows.mapTo(t.window, QPoint(0, 0))
    return [
        shown.contains(QRect(origin.x(), origin.y() + top, panel.rows.width(), bottom - top))
        for top, bottom in panel.rows.row_spans()[1:]
    ]


def test_the_largest_settlement_holds_done_until_every_row_has_been_on_screen(table, tmp_path: Path):
    t = _settle_the_largest(table)
    panel = t.view.settlement
    cells = t.settlement_cells()
    assert len(cells) == _largest_rows() == 35
    assert [row[2] for row in cells].count("Buster") == 7
    seen = _on_screen(t)
    assert seen[0] and not all(seen), "a 1280x800 screen shows the first rows, not all 35"
    assert not panel.confirm.isEnabled() and panel.confirm.text() == "↓ Scroll to row 35"
    shoot(t.window, tmp_path, "settlement-largest-1280x800.png")
    bar = panel.scroller.verticalScrollBar()
    ever = list(seen)
    while bar.value() < bar.maximum():  # the dealer drags the scroll bar down, a step at a time
        assert not panel.confirm.isEnabled(), "Done is held while a row has not been on screen"
        bar.setValue(bar.value() + bar.singleStep() * 5)
        ever = [a or b for a, b in zip(ever, _on_screen(t), strict=False)]
    assert all(ever), "every row, the Buster rows and the last too, was wholly on screen"
    assert panel.confirm.isEnabled() and panel.confirm.text() == "Done · next round"
    shoot(t.window, tmp_path, "settlement-largest-end-1280x800.png")
    t.tap(panel.confirm)
    assert t.snap.need is not Need.NOTHING or t.view.stack.currentWidget() is not panel

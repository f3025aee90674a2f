"""The screens at 1280x800 and 1920x1080: touch targets, nothing clipped or scrolled sideways,
screenshots saved."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QScrollArea

from dealer_assist.rules.inputs import Action, WagerKind
from dealer_assist.rules.phases import Need
from dealer_assist.table.session_inputs import ConfirmPeek
from tests.screenshots import shoot
from tests.ui.label_checks import check_elided
from ui.common.elided_label import ElidedLabel
from ui.settlement.settlement_table import NO_BREAK, SettlementTable

SIZES = [(1280, 800), (1920, 1080)]


def _check_fit(window) -> None:
    for _ in range(3):  # a change can post layout requests up several levels: let them all run
        QApplication.processEvents()
    for button in window.findChildren(QPushButton):
        if button.isVisible():
            assert button.height() >= 48, f"{button.text()!r} is {button.height()} px tall"
            assert button.width() >= button.sizeHint().width(), f"{button.text()!r} is clipped"
    for label in window.findChildren(QLabel):
        if label.isVisible() and isinstance(label, ElidedLabel):  # cut short: fine with its words on the tooltip
            check_elided(label)
        elif label.isVisible() and label.text() and not label.wordWrap():
            assert label.width() >= label.minimumSizeHint().width(), f"{label.text()!r} is clipped"
        if label.isVisible() and label.text():
            assert label.height() >= label.minimumSizeHint().height(), f"{label.text()!r} is squeezed"
    for area in window.findChildren(QScrollArea):
        if area.isVisible():
            sideways = area.horizontalScrollBar()
            assert not sideways.isVisible() and sideways.maximum() == 0, (
                f"{type(area.widget()).__name__} scrolls sideways"
            )
            assert area.widget().width() <= area.viewport().width(), f"{type(area.widget()).__name__} is cut off"
    for table in window.findChildren(SettlementTable):
        if table.isVisible():
            assert table.painted_width <= table.width(), f"the column {table.texts()[0][-1]!r} is cut off"
            scrolls = isinstance(table.parentWidget().parentWidget(), QScrollArea)
            assert scrolls or table.height() >= table.minimumSizeHint().height(), (
                f"the rows {table.texts()} are cut off"
            )


def _midround(t) -> None:
    for seat in (1, 2, 3, 5, 6, 7, 8):
        t.wager(seat, WagerKind.BASE, 10_000 + 2_500 * seat)
        t.wager(seat, WagerKind.LUCKY_LUCKY, 500)
        t.wager(seat, WagerKind.BUSTER, 10_000)
    while t.snap.need is not Need.DECISION:
        t.deal()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_mid_round_and_settlement_fit_the_screen(table, size, tmp_path):
    t = table("nobust-4.0", seed=11, size=size)
    assert t.window.size().width() == size[0] and t.window.size().height() == size[1]
    _midround(t)
    _check_fit(t.window)
    shoot(t.window, tmp_path, f"dealer-midround-{size[0]}x{size[1]}.png")
    while t.snap.need is not Need.NOTHING:
        enabled = t.enabled_decisions()
        if t.snap.need is Need.PAYMENTS:
            t.tap(t.view.payments.confirm)
        elif enabled and not t.tracker.takes_card():
            t.decide(sorted(enabled)[0])
        else:
            t.deal()
    _check_fit(t.window)
    shoot(t.window, tmp_path, f"settlement-{size[0]}x{size[1]}.png")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_what_is_settled_after_the_deal_fits_the_screen(table, size, tmp_path):
    # as in test_told_when_due: Lucky Lucky on seat 1 and a Natural on seat 2, due right after the deal
    t = table("nobust-4.0", ["6S", "AH", "9D", "7D", "7C", "KH", "7H", "9C", "KD"], pd_seat=4, bank=50_000, size=size)
    t.wager(1, WagerKind.BASE, 1_000)
    t.wager(1, WagerKind.LUCKY_LUCKY, 500)
    t.wager(2, WagerKind.BASE, 1_000)
    t.wager(6, WagerKind.BASE, 1_000)
    t.deal(8)
    assert t.snap.need is Need.PAYMENTS and t.view.stack.currentWidget() is t.view.payments
    _check_fit(t.window)
    shoot(t.window, tmp_path, f"settle-now-{size[0]}x{size[1]}.png")


def test_the_settlement_heading_keeps_to_one_line_at_1280(table):
    # c21-8.0: seat 1 stands on 9S 7D; the PD's TD (hole) 6C (up) draws 6H: over at 22
    t = table("c21-8.0", ["9S", "TD", "7D", "6C", "6H"], pd_seat=4, size=(1280, 800))
    t.wager(1, WagerKind.BASE, 2_500)
    t.deal(4)
    t.decide(Action.STAND)
    t.deal()
    title = t.view.settlement.title
    assert title.text() == "Dealer's hand 10♦ 6♣ 6♥  =  22 OVER"
    assert t.view.prompt.text() == "The player-dealer is over at 22 — settle in order" and not t.view.prompt.cut
    for heading in (t.view.prompt, title):  # one line, or cut short with its words on the tooltip
        assert isinstance(heading, ElidedLabel) and heading.lines == 1 and "\n" not in heading.shown()
        check_elided(heading)


def test_wager_entry_fits_at_1280x800(table):
    t = table("nobust-4.0", size=(1280, 800))
    t.tap_seat(3)
    assert t.view.wagers.isVisible()
    _check_fit(t.window)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_failed_peek_and_the_bank_offer_fit_the_screen(table, size, tmp_path):
    # c21-8.0: seats 1 and 2 play; the dealer's hole card TD, up card AS
    t = table("c21-8.0", ["9S", "KH", "TD", "7D", "8C", "AS", "5C"], pd_seat=4, size=size)
    t.wager(1, WagerKind.BASE, 2_500)
    t.wager(2, WagerKind.BASE, 1_000)
    t.deal(6)
    t.tap(t.view.wagers.close_insurance)
    t.tap(t.bench.peek_buttons["noread"])
    assert t.view.banner.isVisible()
    _check_fit(t.window)
    shoot(t.window, tmp_path, f"peek-failed-{size[0]}x{size[1]}.png")
    assert t.supervise(ConfirmPeek(True, "Floor 1", "checked by hand"), t.pin) is None
    t.tap(t.view.settlement.confirm)
    assert t.view.bank_offer.isVisible()
    t.tap(t.view.bank_offer.keypad.chips[50_000])
    _check_fit(t.window)
    shoot(t.window, tmp_path, f"bank-offer-{size[0]}x{size[1]}.png")


HAND = f"10♦ A♣ 2♥ 3♠ 4♦ ={NO_BREAK}soft{NO_BREAK}20"


def test_a_narrow_settlement_breaks_its_wrapping_columns_only_as_far_as_it_must(qtbot):
    rows = [
        [("#", "muted"), ("Wager", "muted"), ("Pay / collect", "muted"), ("Hand", "muted")],
        [("1", "muted"), ("Lucky Lucky", "row"), ("COLLECT $5", "collect"), ("", "hand")],
        [("2", "muted"), ("Base", "row"), ("PAY $187.50", "pay"), (HAND, "hand")],
    ]
    table = SettlementTable(wrapping=(3, 1))
    qtbot.addWidget(table)
    table.show_rows(rows)
    table.show()
    wide = table.sizeHint().width()
    table.resize(wide, 400)
    assert table.lines()[2][3] == [HAND], "room enough: nothing breaks"
    table.resize(wide - 40, 400)
    assert table.lines()[2][3] == ["10♦ A♣ 2♥ 3♠ 4♦", f"={NO_BREAK}soft{NO_BREAK}20"], (
        "the total keeps its words together"
    )
    assert table.lines()[1][1] == ["Lucky Lucky"], "the hand's break was enough"
    assert table.painted_width <= table.width()
    table.resize(table.minimumSizeHint().width(), 400)
    assert table.lines()[1][1] == ["Lucky", "Lucky"] and table.lines()[1][2] == ["COLLECT $5"], (
        "only the wrapping columns break"
    )
    assert table.painted_width <= table.width()
    assert table.texts()[2][3] == "10♦ A♣ 2♥ 3♠ 4♦ = soft 20"

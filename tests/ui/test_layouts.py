"""The screens at 1280x800 and 1920x1080: touch targets, nothing clipped, screenshots saved."""
from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from dealer_assist.inputs import WagerKind
from dealer_assist.session_inputs import ConfirmPeek
from dealer_assist.tracker import Need

SIZES = [(1280, 800), (1920, 1080)]


def _check_fit(window) -> None:
    for _ in range(3):  # a change can post layout requests up several levels: let them all run
        QApplication.processEvents()
    for button in window.findChildren(QPushButton):
        if button.isVisible():
            assert button.height() >= 48, f"{button.text()!r} is {button.height()} px tall"
            assert button.width() >= button.sizeHint().width(), f"{button.text()!r} is clipped"
    for label in window.findChildren(QLabel):
        if label.isVisible() and label.text() and not label.wordWrap():
            assert label.width() >= label.minimumSizeHint().width(), f"{label.text()!r} is clipped"
        if label.isVisible() and label.text():
            assert label.height() >= label.minimumSizeHint().height(), f"{label.text()!r} is squeezed"


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
    assert t.window.grab().save(str(tmp_path / "midround.png"))
    while t.snap.need is not Need.NOTHING:
        enabled = t.enabled_decisions()
        if enabled and not t.tracker.takes_card():
            t.decide(sorted(enabled)[0])
        else:
            t.deal()
    _check_fit(t.window)
    assert t.window.grab().save(str(tmp_path / "settlement.png"))


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
    assert t.window.grab().save(str(tmp_path / "peek-failed.png"))
    assert t.supervise(ConfirmPeek(True, "Floor 1", "checked by hand"), t.pin) is None
    t.tap(t.view.settlement.confirm)
    assert t.view.bank_offer.isVisible()
    t.tap(t.view.bank_offer.keypad.chips[50_000])
    _check_fit(t.window)
    assert t.window.grab().save(str(tmp_path / "bank-offer.png"))

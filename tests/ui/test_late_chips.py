"""Late chips settled right (RULES.md §8.23-8.24), on the real dealer's window by taps: the shoe and
the wager reader on pseudo-terminals, the players' chips on the emulated reader's spots. Seat 7's
late $25 goes back to the player, a right payout of its closed $100 passes the payout check, the
late change is journaled once however many scans follow, and a losing wager left on its spot reads
"not collected", put right as the reader reads it, with the rows never moving."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.history.recall import recall
from dealer_assist.rules.inputs import Action
from dealer_assist.rules.phases import Need, Phase
from tests.devices.reader_rig import ReaderTable
from tests.screenshots import shoot
from tests.ui.test_layouts import _check_fit
from ui.common.bridge import TableBridge
from ui.common.tap_guard import GUARD_S
from ui.dealer.dealer_window import DealerWindow

# sd-buster-a deals seats 2, 3 and 7, the dealer's up card, again, the hole card: seat 2 9H 7C = 16, seat 3
# AS KD a Natural (paid at once: the dealer's 6 up cannot make one), seat 7 TH QH = 20; the dealer 6D 9C = 15
# draws 3S: 18. Seat 2 loses, seat 7 wins.
CARDS = ["9H", "AS", "TH", "6D", "7C", "KD", "QH", "9C", "3S"]
SIZES = [(1280, 800), (1920, 1080)]


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def felt(request, qtbot, tmp_path):
    rig = ReaderTable(tmp_path / "table.db", CARDS, wait=lambda done, seconds: _waited(qtbot, done, seconds))
    window = DealerWindow(TableBridge(rig.controller))
    qtbot.addWidget(window)
    window.resize(*request.param)
    window.show()
    rig.start()
    clock = [0.0]  # the double-tap guard's: each tap is a deliberate one, past the guard
    window.view.tap_guard.clock = lambda: clock[0]

    def tap_on(button) -> None:
        clock[0] += GUARD_S + 0.02
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    rig.tap_on = tap_on
    yield rig, window, f"{request.param[0]}x{request.param[1]}"
    rig.stop()


def _waited(qtbot, done, seconds: float) -> bool:
    try:
        qtbot.waitUntil(done, timeout=int(seconds * 1000))
    except AssertionError:
        return False
    return True


def _shown(window) -> None:
    for _ in range(3):
        QApplication.processEvents()
    _check_fit(window)


def _scanned(rig) -> None:
    rig.until(lambda: rig.controller.scanning is None, "the reader's scan")


def _deal_paying_naturals(rig, window, count: int) -> None:
    """Cards one by one; the Natural settled at once is paid on its spot and the dealer taps Paid."""
    for _ in range(count):
        rig.deal(1)
        if rig.snapshot.need is Need.PAYMENTS:
            (row,) = rig.snapshot.due
            assert (row.seat, row.amount) == (3, 1_500)
            rig.chips("3.base", 10, 10, 5)
            rig.tap_on(window.view.payments.confirm)
            _scanned(rig)
            assert rig.snapshot.need is not Need.PAYMENTS, "the Natural paid right: the step ends"


def test_late_chips_are_returned_and_a_right_payout_passes_the_check(felt, tmp_path):
    rig, window, size = felt
    view = window.view
    rig.chips("2.base", 5)
    rig.chips("3.base", 10)
    rig.chips("7.base", 100)
    rig.tap_on(view.wagers.no_more_bets)
    _scanned(rig)
    rig.chips("7.base", 100, 25)  # slipped on after "No more bets"
    _deal_paying_naturals(rig, window, 3)
    _shown(window)
    note = view.seats[7].note
    assert note.text() == "Late +$25 on Base · closed $100 stands"
    assert not note.cut, "all of it on the seat: nothing only on a tooltip"
    assert view.seats[7].wagers.text() == "$100", "the closed wager stands"
    _deal_paying_naturals(rig, window, 5)
    rig.tap_on(view.decisions.buttons[Action.STAND])  # seat 2 on 16
    rig.tap_on(view.decisions.buttons[Action.STAND])  # seat 7 on 20
    rig.deal(1)
    rig.until(lambda: rig.snapshot.phase is Phase.SETTLED, "the settlement")

    settlement = view.settlement
    rows = settlement.rows.texts()[1:]
    late_row = ["", "7", "Base", "", "late", "RETURN LATE $25", "added late · not in play"]
    assert rows[rows.index(late_row) - 1][1:3] == ["7", "Base"], "under seat 7's base: " + repr(rows)
    _shown(window)
    rows_top = settlement.scroller.mapTo(window, settlement.scroller.rect().topLeft())
    assert settlement.check.text() == "Done checks every spot with the reader: leave the chips on them."

    rig.chips("7.base", 100, 25, 100)  # the closed $100 paid; seat 2's lost $5 left on its spot
    rig.tap_on(settlement.confirm)
    _scanned(rig)
    _shown(window)
    assert rig.snapshot.phase is Phase.SETTLED, "seat 2's $5 holds the step"
    assert settlement.check.text() == "Seat 2 · Base: $5 on the spot, $0 due · $5 not collected", "seat 7 reads right"
    assert view.prompt.text() == "Spots wrong: put them right, then tap again"
    assert settlement.scroller.mapTo(window, settlement.scroller.rect().topLeft()) == rows_top, "the rows stay still"
    shoot(window, tmp_path, f"fault-late-chips-{size}.png")

    rig.chips("2.base")  # collected: the line follows the chips before any tap
    _shown(window)
    assert settlement.check.text() == "Seat 2 · Base: $0 on the spot, $0 due · right now"
    assert view.prompt.text() == "Spots put right: tap again"
    assert settlement.scroller.mapTo(window, settlement.scroller.rect().topLeft()) == rows_top
    rig.tap_on(settlement.confirm)
    _scanned(rig)
    rig.until(lambda: bool(rig.ops("RoundClosed")), "the round to close")

    late = rig.ops("LateChange")
    assert [(op["spot"], op["due"], op["held"]) for op in late] == [("7.base", 10_000, 12_500)], (
        "one late change, journaled once though the reader scanned twice more"
    )
    assert len(rig.ops_inputs("SpotsScanned")) >= 4 and not rig.ops("MispayAccepted")
    (told,) = [entry for entry in recall(rig.path) if entry["round_id"] == 1]
    assert len(told["late_changes"]) == 1

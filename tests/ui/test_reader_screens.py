"""The dealer's and the supervisor's screens at a table with a wager reader (RULES.md §8.22-8.25),
at 1280x800 and 1920x1080: the shoe and the reader on pseudo-terminals, the players' chips on the
emulated reader's spots, what each screen shows asserted and saved as a screenshot."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton

from dealer_assist.rules.inputs import Action, Decide, NoMoreBets
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.table.roster import DEALERS_FILE, ROSTER_FILE
from tests.devices.reader_rig import PIN, ReaderTable
from tests.screenshots import shoot
from tests.ui.test_layouts import _check_fit
from ui.common.bridge import TableBridge
from ui.common.confirm_overlay import open_confirmation
from ui.dealer.dealer_sign_in import DealerSignInPanel
from ui.dealer.dealer_window import DealerWindow
from ui.supervisor.supervisor_window import SupervisorWindow

SIZES = [(1280, 800), (1920, 1080)]
# sd-buster-a: seat 2 TH QH = 20, seat 3 9H 8C = 17, the dealer 6D 9C = 15 draws 8S: over; both win.
BOTH_WIN = ["TH", "9H", "6D", "QH", "8C", "9C", "8S"]


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def felt(request, qtbot, tmp_path):
    (tmp_path / ROSTER_FILE).write_text("Floor 1\n", encoding="utf-8")
    rig = ReaderTable(tmp_path / "table.db", BOTH_WIN, wait=lambda done, seconds: _waited(qtbot, done, seconds))
    bridge = TableBridge(rig.controller)  # the GUI thread owns the table from here on
    window = DealerWindow(bridge)
    qtbot.addWidget(window)
    window.resize(*request.param)
    window.show()
    rig.start()
    rig.tap_on = lambda button: qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
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


def test_the_reader_table_during_betting_shows_the_chips_as_wagers(felt, tmp_path):
    rig, window, size = felt
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    rig.chips("3.buster", 5)
    view = window.view
    rig.tap_on(view.seats[3])
    _shown(window)
    assert view.seats[2].wagers.text() == "$50" and view.seats[3].wagers.text() == "$25"
    assert view.seats[3].side.text() == "Buster $5" and view.seats[3].notes.currentWidget() is view.seats[3].side
    assert view.wagers.target.text() == "Seat 3\nBase $25 · read"
    assert not view.wagers.chip_buttons[500].isEnabled() and not view.wagers.clear.isEnabled()
    assert not view.wagers.table_as_last.isEnabled(), "the chips ride on by themselves: nothing to place again"
    assert view.wagers.no_more_bets.isEnabled()
    shoot(window, tmp_path, f"reader-betting-{size}.png")


def test_a_reading_below_the_minimum_is_shown_on_its_seat_and_no_more_bets_waits(felt, tmp_path):
    rig, window, size = felt
    rig.chips("2.base", 50)
    rig.chips("3.base", 3)
    _shown(window)
    view = window.view
    assert view.seats[3].note.text() == "Base $3 · below the $5 minimum" and not view.seats[3].note.cut
    assert view.seats[3].note.property("warn") is True
    assert view.prompt.text() == "Put right: Seat 3 · Base $3 · below the $5 minimum"
    assert not view.wagers.no_more_bets.isEnabled()
    shoot(window, tmp_path, f"reader-below-minimum-{size}.png")


def test_a_late_change_is_shown_on_its_seat(felt, tmp_path):
    rig, window, size = felt
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    rig.tap(NoMoreBets())
    rig.deal(6)
    rig.chips("3.base", 25, 10)
    _shown(window)
    view = window.view
    assert view.seats[3].note.text() == "Late +$10 on Base · closed $25 stands" and not view.seats[3].note.cut
    assert view.seats[3].notes.currentWidget() is view.seats[3].note, "in the place of the side bets"
    assert view.seats[3].wagers.text() == "$25", "the closed wager stands"
    assert rig.snapshot.need is Need.DECISION
    shoot(window, tmp_path, f"reader-late-change-{size}.png")


def _settled_with_differences(rig) -> None:
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    rig.tap(NoMoreBets())
    rig.deal(6)
    rig.tap(Decide(2, 0, Action.STAND))
    rig.tap(Decide(3, 0, Action.STAND))
    rig.deal(1)
    rig.chips("2.base", 100, 25)  # $100 due
    rig.chips("3.base", 25)  # $50 due


def test_a_payout_check_with_a_difference_keeps_the_settlement_open(felt, tmp_path):
    rig, window, size = felt
    _settled_with_differences(rig)
    view = window.view
    rig.tap_on(view.settlement.confirm)
    rig.until(lambda: rig.controller.scanning is None and bool(rig.snapshot.reader.differences), "the payout check")
    _shown(window)
    assert view.stack.currentWidget() is view.settlement and rig.snapshot.phase is Phase.SETTLED
    assert view.settlement.check.isVisible()
    assert view.settlement.check.text() == (
        "Seat 2 · Base: $125 on the spot, $100 due · $25 overpaid\n"
        "Seat 3 · Base: $25 on the spot, $50 due · $25 underpaid"
    )
    assert view.prompt.text() == "Spots wrong: put them right, then tap again" and not view.prompt.cut
    shoot(window, tmp_path, f"reader-payout-check-{size}.png")


def test_a_supervisor_accepts_the_difference_as_a_mispay(felt, tmp_path, qtbot):
    rig, window, size = felt
    _settled_with_differences(rig)
    rig.chips("2.base", 100)
    rig.tap_on(window.view.settlement.confirm)
    rig.until(lambda: rig.controller.scanning is None and len(rig.snapshot.reader.differences) == 1, "the payout check")
    rig.tap_on(window.findChild(QPushButton, "supervisor"))
    supervisor = next(w for w in window.findChildren(SupervisorWindow) if w.isVisible())
    for digit in PIN:
        rig.tap_on(supervisor.pad.keys[digit])
    rig.tap_on(supervisor.pad.enter)
    fixes = supervisor.corrections
    supervisor.tabs.setCurrentWidget(fixes)
    assert "payout check: 1 spot wrong" in fixes.status.text() and fixes.accept_payout.isEnabled()
    rig.tap_on(next(b for b in fixes.findChildren(QPushButton, "chip") if b.text() == "Floor 1"))
    fixes.reason.setText("player left with the chips")
    rig.tap_on(fixes.accept_payout)
    question = open_confirmation(window)
    assert question is not None and "Seat 3 · Base: $25 on the spot, $50 due · $25 underpaid" in question.detail.text()
    rig.tap_on(question.yes)
    assert fixes.notice.text() == "Recorded: Mispay accepted, see the round in Recall"
    assert not fixes.accept_payout.isEnabled()
    supervisor.tabs.setCurrentWidget(supervisor.recall)
    supervisor.recall.rounds.setCurrentRow(supervisor.recall.rounds.count() - 1)
    recall = supervisor.recall
    corrections = [recall.corrections.item(i).text() for i in range(recall.corrections.count())]
    assert any(
        line.endswith(
            "Mispay accepted · Seat 3 · Base: $25 on the spot, $50 due · $25 underpaid · accepted by "
            "Floor 1: player left with the chips"
        )
        for line in corrections
    ), corrections
    recall.tabs.setCurrentWidget(recall.corrections)
    _shown(supervisor)
    shoot(supervisor, tmp_path, f"reader-mispay-accepted-{size}.png")


def test_the_house_dealer_signs_in_from_the_roster_and_out_when_relieved(felt, tmp_path):
    rig, window, size = felt
    (tmp_path / DEALERS_FILE).write_text("# the day's dealers\nAna R.\nBadge 0417\n", encoding="utf-8")
    assert window.dealer.text() == "Dealer\nsign in"
    rig.tap_on(window.dealer)
    panel = next(w for w in window.findChildren(DealerSignInPanel) if w.isVisible())
    assert [b.text() for b in panel.names] == ["Ana R.", "Badge 0417"] and not panel.sign_out.isEnabled()
    rig.tap_on(panel.sign_in)  # nobody named: refused on the panel
    assert panel.isVisible() and "names the house dealer" in panel.notice.text()
    rig.tap_on(panel.names[0])
    _shown(panel)
    shoot(window, tmp_path, f"dealer-sign-in-{size}.png")
    rig.tap_on(panel.sign_in)
    assert not panel.isVisible() and rig.snapshot.house_dealer == "Ana R." and window.dealer.text() == "Dealer\nAna R."
    rig.tap_on(window.dealer)
    panel = next(w for w in window.findChildren(DealerSignInPanel) if w.isVisible())
    rig.tap_on(panel.sign_out)
    assert rig.snapshot.house_dealer is None and window.dealer.text() == "Dealer\nsign in"
    assert [op["type"] for op in rig.ops("DealerSignedIn") + rig.ops("DealerSignedOut")] == [
        "DealerSignedIn",
        "DealerSignedOut",
    ]


def test_the_bank_offered_is_read_on_pd_bank_and_taken_in_one_tap(qtbot, tmp_path):
    rig = ReaderTable(
        tmp_path / "table.db", BOTH_WIN, profile="nobust-4.0", wait=lambda done, seconds: _waited(qtbot, done, seconds)
    )
    window = DealerWindow(TableBridge(rig.controller))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    rig.start()
    try:
        offer = window.view.bank_offer
        assert offer.isVisible() and not offer.keypad.confirm.isEnabled(), "nothing on pd.bank: no bank to take"
        rig.chips("pd.bank", 500)
        assert offer.keypad.label.text() == "Seat 1 bank $500 · read" and offer.keypad.confirm.isEnabled()
        assert not any(chip.isEnabled() for chip in offer.keypad.chips.values()) and not offer.keypad.clear.isEnabled()
        qtbot.mouseClick(offer.keypad.confirm, Qt.MouseButton.LeftButton)
        assert rig.snapshot.bank is not None and (rig.snapshot.bank.seat, rig.snapshot.bank.bank) == (1, 50_000)
    finally:
        rig.stop()

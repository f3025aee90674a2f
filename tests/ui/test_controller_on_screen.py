"""The screen on the table controller: the camera round of the headless test, played by taps on the
real screens through the bridge, with the correction made on the supervisor's screen; and a journal
that stops taking records shows on the dealer's screen."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "devices"))
from camera_round import MISMATCH, ON_THE_FELT, PIN, PROFILE, FilmedShoe  # noqa: E402

from dealer_assist.history.recall import export_round, recall  # noqa: E402
from dealer_assist.journal.journal_file import RecordKind, read_records  # noqa: E402
from dealer_assist.play.round_file import settle_round  # noqa: E402
from dealer_assist.rules.cards import parse_card  # noqa: E402
from dealer_assist.rules.inputs import Action, WagerKind  # noqa: E402
from dealer_assist.rules.tracker import Need  # noqa: E402
from dealer_assist.table.journaled_table import Table  # noqa: E402
from dealer_assist.table.session import TableConfig  # noqa: E402
from dealer_assist.table.snapshot import AttentionKind  # noqa: E402
from devices.table_owner.controller import TableController  # noqa: E402
from ui.common.bridge import TableBridge  # noqa: E402
from ui.common.confirm_overlay import open_confirmation  # noqa: E402
from ui.common.tap_guard import GUARD_S  # noqa: E402
from ui.dealer.dealer_window import DealerWindow  # noqa: E402
from ui.supervisor.supervisor_window import SupervisorWindow, open_supervisor  # noqa: E402

WAIT_MS = 20_000


def _tap(qtbot, widget) -> None:
    assert widget.isVisible() and widget.isEnabled(), f"{widget.objectName() or widget.text()} is not tappable"
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)


@pytest.fixture
def screen(qtbot, tmp_path):
    table = Table.open(tmp_path / "table.db", TableConfig("CTL-1", PROFILE))
    controller = TableController(table)
    controller.set_pin(PIN)
    rig = FilmedShoe(controller)
    bridge = TableBridge(controller)
    window = DealerWindow(bridge, None)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    rig.start()
    controller.start()
    yield controller, rig, window, table
    controller.stop()
    rig.stop()
    QApplication.processEvents()  # the last device notes reach the journal before it closes
    controller.close()


def test_the_camera_round_with_its_correction_on_the_screens(screen, qtbot):
    controller, rig, window, table = screen
    view, path = window.view, controller.journal_path
    qtbot.waitUntil(lambda: controller.snapshot.need is Need.WAGERS, timeout=WAIT_MS)
    qtbot.mouseClick(view.seats[1], Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    _tap(qtbot, view.wagers.kind_buttons[WagerKind.BASE])
    _tap(qtbot, view.wagers.chip_buttons[500])
    _tap(qtbot, view.wagers.chip_buttons[500])
    qtbot.waitUntil(lambda: controller.snapshot.closes_betting, timeout=WAIT_MS)
    _tap(qtbot, view.wagers.no_more_bets)
    qtbot.waitUntil(lambda: controller.feed.locked is False, timeout=WAIT_MS)
    for _ in range(4):
        rig.shoe.sim_deal_next()
    qtbot.waitUntil(
        lambda: view.banner.isVisible() and view.banner.message.text().startswith(f"MISMATCH: {MISMATCH}. Dealer: "),
        timeout=WAIT_MS,
    )

    open_supervisor(window, controller)
    supervisor = window.findChild(SupervisorWindow)
    for digit in PIN:
        _tap(qtbot, supervisor.pad.keys[digit])
    _tap(qtbot, supervisor.pad.enter)
    fixes = supervisor.corrections
    supervisor.tabs.setCurrentWidget(fixes)
    assert fixes.cards.item(0).text() == "Card 1  ·  seat 1  ·  9♠"
    qtbot.keyClicks(fixes.supervisor, "Floor 1")
    qtbot.keyClicks(fixes.reason, "the camera shows 9C")
    fixes.cards.setCurrentRow(0)
    for button in (*fixes.ranks.buttons(), *fixes.suits.buttons()):
        if button.text() in ("9", "♣"):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    _tap(qtbot, fixes.rekey)
    _tap(qtbot, open_confirmation(fixes).yes)
    assert fixes.notice.text().startswith("Recorded: Card rekeyed"), fixes.notice.text()
    _tap(qtbot, supervisor.back)
    assert view.seats[1].hands[0].cards.cards == (ON_THE_FELT, parse_card("7D")), "the dealer's screen shows the re-key"
    qtbot.waitUntil(
        lambda: view.devices.labels["Supervisor"].toolTip() == "Supervisor: Card rekeyed in round 1 · by Floor 1",
        timeout=WAIT_MS,
    )
    qtbot.waitUntil(
        lambda: any(r.body.get("type") == "CameraAgrees" for r in read_records(path) if r.kind is RecordKind.DEVICE),
        timeout=WAIT_MS,
    )
    _tap(qtbot, view.banner.resolve)
    assert not view.banner.isVisible()

    _tap(qtbot, view.decisions.buttons[Action.STAND])
    rig.shoe.sim_deal_next()
    qtbot.waitUntil(lambda: controller.snapshot.need is Need.NOTHING, timeout=WAIT_MS)
    assert [row[5] for row in view.settlement.rows.texts()[1:]] == ["PAY $10"]
    _tap(qtbot, view.settlement.confirm)
    entry = recall(path, round_id=1)[0]
    assert [c["type"] for c in entry["corrections"]] == ["CardRekeyed"]
    assert settle_round(export_round(path, 1)) == entry["ledger"]


def test_a_journal_that_stops_shows_on_the_dealers_screen(screen, qtbot):
    controller, rig, window, table = screen
    view = window.view
    qtbot.waitUntil(lambda: controller.snapshot.need is Need.WAGERS, timeout=WAIT_MS)
    (pages,) = table.journal.db.execute("PRAGMA page_count").fetchone()
    table.journal.db.execute(f"PRAGMA max_page_count = {pages}")
    qtbot.mouseClick(view.seats[1], Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    while controller.snapshot.attention is None:
        _tap(qtbot, view.wagers.kind_buttons[WagerKind.BASE])
        _tap(qtbot, view.wagers.chip_buttons[500])
        qtbot.wait(int(GUARD_S * 1000) + 20)
    assert controller.snapshot.attention.kind is AttentionKind.JOURNAL
    assert view.banner.isVisible() and "could not be written" in view.banner.message.text()
    assert not view.banner.resolve.isVisible(), "nobody at the table can dismiss it"
    assert controller.feed.locked is True, "a stopped table takes no card"

"""The dealer's screen on a real link: an emulated shoe scanner deals, the card-stop follows the rules."""

from __future__ import annotations

import itertools

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action
from dealer_assist.rules.phases import Need
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from devices.table_owner.controller import TableController
from hw_sims.endpoints import InProcessEndpoint
from hw_sims.shoe import ShoeEmulator
from ui.common.bridge import TableBridge
from ui.dealer.dealer_window import DealerWindow

_names = itertools.count()


@pytest.fixture
def linked(qtbot, tmp_path):
    # sd-buster-a: house-banked, the dealer's first card up; seat 1 gets 9S 7D, the dealer 5H and TC, then KD
    cards = [parse_card(c) for c in ("9S", "5H", "7D", "TC", "KD")]
    endpoint = InProcessEndpoint(f"ui-shoe-{next(_names)}")
    emulator = ShoeEmulator(endpoint, cards=cards, pace=None, shoe_id="S1", decks=6)
    table = Table.open(tmp_path / "journal.db", TableConfig("T1", "sd-buster-a"))
    links = TableController(table)
    links.connect_devices(endpoint.url)
    bridge = TableBridge(links)
    window = DealerWindow(bridge, None)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    emulator.start()
    links.start()
    yield emulator, links, window
    links.stop()
    emulator.stop()
    QApplication.processEvents()  # the last device notes reach the journal before it closes
    table.close()


def test_cards_from_the_shoe_scanner_reach_the_screen(linked, qtbot):
    emulator, links, window = linked
    view, bridge = window.view, window.bridge
    qtbot.waitUntil(lambda: bridge.snapshot.need is Need.WAGERS, timeout=10_000)
    qtbot.waitUntil(lambda: "Shoe up" in view.devices.labels["Shoe"].text())
    qtbot.waitUntil(lambda: links.feed.locked is True)
    qtbot.mouseClick(view.seats[1], Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    qtbot.mouseClick(view.wagers.chip_buttons[500], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(view.wagers.chip_buttons[500], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bridge.snapshot.closes_betting)
    assert links.feed.locked is True, "betting is open: the card-stop stays on"
    qtbot.mouseClick(view.wagers.no_more_bets, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: links.feed.locked is False)
    for _ in range(4):
        emulator.sim_deal_next()
    qtbot.waitUntil(lambda: view.prompt.text() == "Seat 1 to act on hard 16", timeout=10_000)
    assert view.dealer.cards.cards == (parse_card("5H"), None), "the hole card stays down"
    # the device bar hears the shoe's last read on its own way from the reader thread, not with the card
    qtbot.waitUntil(lambda: "last TC" in view.devices.labels["Shoe"].toolTip())
    qtbot.mouseClick(view.decisions.buttons[Action.STAND], Qt.MouseButton.LeftButton)
    emulator.sim_deal_next()
    qtbot.waitUntil(lambda: bridge.snapshot.need is Need.NOTHING, timeout=10_000)
    assert [row[5] for row in view.settlement.rows.texts()[1:]] == ["PAY $10"]
    qtbot.waitUntil(lambda: links.feed.locked is True)

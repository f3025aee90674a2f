"""Betting closes when the dealer says so (RULES.md §8.21): the wire-emulated shoe holds its cards
until "No more bets", its "Deal next card" refuses visibly meanwhile, and no wager is lost."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import DiscardMisdeal
from dealer_assist.table.table_facts import table_facts
from devices.table_owner.controller import TableController
from hw_sims.bench_devices import BenchDevices
from ui.common.bridge import TableBridge
from ui.dealer.bench_panel import BenchPanel
from ui.dealer.dealer_window import DealerWindow

WAIT_MS = 5_000


@pytest.fixture
def wired(qtbot, tmp_path):
    """A house-banked table on the bench's wire-emulated shoe and peek reader, on the real screen."""
    table = Table.open(tmp_path / "table.db", TableConfig("T1", "sd-buster-a"))
    controller = TableController(table)
    wire = BenchDevices(lambda: table_facts(table.session), BenchPlayer(3, shoe_reports_cut=True))
    wire.start()
    controller.connect_devices(wire.shoe_url, wire.peek_url)
    bench = BenchPanel(None, controller.facts, controller.devices, wire=wire)
    window = DealerWindow(TableBridge(controller), bench)
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    controller.start()
    yield window, controller, wire
    controller.stop()
    wire.stop()
    table.close()


def _inputs(controller: TableController) -> list[str]:
    return [
        r.body["input"]["type"]
        for r in read_records(controller.journal_path)
        if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)
    ]


def test_a_card_before_no_more_bets_is_refused_then_three_wagers_no_more_bets_and_the_deal(wired, qtbot):
    window, controller, wire = wired
    view, bench = window.view, window.bench
    tap = lambda widget: qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)  # noqa: E731
    tap(bench.load)
    qtbot.waitUntil(lambda: controller.snapshot.need is Need.WAGERS and wire.shoe.locked, timeout=WAIT_MS)
    assert view.wagers.no_more_bets.isVisible() and not view.wagers.no_more_bets.isEnabled(), "no wager yet"

    def wager(seat: int, chip: int) -> None:
        qtbot.mouseClick(view.seats[seat], Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
        tap(view.wagers.chip_buttons[chip])
        qtbot.waitUntil(lambda: controller.snapshot.seat(seat).base == chip, timeout=WAIT_MS)

    wager(1, 10_000)
    tap(bench.deal)
    assert "card-stop is on" in bench.refused.text() and "No more bets" in bench.refused.text()
    qtbot.wait(300)
    assert controller.snapshot.table.shoe_cards == 0 and wire.pulled == 0, "the refused card was never pulled"
    wager(2, 2_500)
    wager(3, 500)
    assert wire.shoe.locked, "wagers do not lift the card-stop"
    tap(view.wagers.no_more_bets)
    qtbot.waitUntil(lambda: not wire.shoe.locked, timeout=WAIT_MS)
    assert not view.wagers.chip_buttons[500].isEnabled(), "betting is closed"
    for _ in range(8):  # two cards to each of three seats and the dealer
        qtbot.waitUntil(lambda: not bench.busy() and not wire.shoe.locked, timeout=WAIT_MS)
        tap(bench.deal)
    qtbot.waitUntil(lambda: controller.snapshot.phase not in (Phase.BETTING, Phase.DEALING), timeout=WAIT_MS)
    assert bench.refused.text() == ""
    snap = controller.snapshot
    assert [snap.seat(s).base for s in (1, 2, 3)] == [10_000, 2_500, 500]
    assert all(len(snap.seat(s).hands[0].cards) == 2 for s in (1, 2, 3)), "no wager lost, every seat dealt"
    inputs = _inputs(controller)
    first_card = inputs.index("CardDrawn")
    assert inputs[first_card - 4 : first_card] == ["PlaceWager", "PlaceWager", "PlaceWager", "NoMoreBets"]


def test_a_card_sent_straight_to_the_table_before_no_more_bets_is_a_misdeal_hold_and_no_wager_is_lost(table):
    t = table("nobust-4.0", ["9H", "TH", "KD", "QH", "9D"])
    t.wager(2, "base", 2_500)
    t.tap(t.bench.deal)  # the in-process bench sends the card even though the card-stop is on
    snap = t.snap
    assert snap.table.misdeal is not None and snap.attention is not None and snap.attention.held
    assert "No more bets" in snap.attention.message and "supervisor" in snap.attention.message
    assert t.view.banner.isVisible() and "No more bets" in t.view.banner.message.text()
    assert snap.seat(2).base == 2_500 and t.tracker.cards_seen == 0


def test_while_a_misdeal_holds_the_round_the_prompt_names_the_hold_and_the_dealers_keys_are_dimmed(table):
    t = table("nobust-4.0", ["5S", "TH", "KD", "QH", "9D"])
    t.wager(2, "base", 2_500)
    t.tap(t.bench.deal)  # 5S out of the shoe before "No more bets": held for a supervisor
    assert t.view.prompt.text() == "Hold 5♠ aside and call a floor supervisor"
    assert "betting is open" not in t.view.banner.message.text(), "nothing on the screen says to go on"
    t.tap_seat(3)
    pad = t.view.wagers
    keys = [
        *pad.chip_buttons.values(),
        pad.clear,
        pad.seat_as_last,
        pad.table_as_last,
        pad.no_more_bets,
        *pad.kind_buttons.values(),
    ]
    assert [key.objectName() for key in keys if key.isEnabled()] == [], "no wager or No more bets while the round holds"
    assert t.enabled_decisions() == set()
    assert t.supervise(DiscardMisdeal("Floor 1", "card out before no more bets"), t.pin) is None
    assert t.view.prompt.text() == "Place wagers, then tap No more bets; shoe locked"
    t.tap_seat(3)
    assert pad.chip_buttons[500].isEnabled() and pad.no_more_bets.isEnabled()
    t.wager(3, "base", 500)
    t.deal(4)
    assert t.snap.seat(2).hands[0].cards[0] == parse_card("TH"), "the round goes on from the next card"


def test_the_not_dealt_line_goes_once_the_state_it_describes_has_changed(wired, qtbot):
    window, controller, wire = wired
    view, bench = window.view, window.bench
    tap = lambda widget: qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)  # noqa: E731
    tap(bench.load)
    qtbot.waitUntil(lambda: controller.snapshot.need is Need.WAGERS and wire.shoe.locked, timeout=WAIT_MS)
    qtbot.mouseClick(view.seats[1], Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    tap(view.wagers.chip_buttons[2_500])
    qtbot.waitUntil(lambda: view.wagers.no_more_bets.isEnabled(), timeout=WAIT_MS)
    tap(bench.deal)
    assert bench.refused.text().startswith("Not dealt: the shoe's card-stop is on")
    tap(view.wagers.no_more_bets)
    qtbot.waitUntil(lambda: not wire.shoe.locked and controller.snapshot.closes_betting is False, timeout=WAIT_MS)
    qtbot.wait(100)  # the snapshot reaches the screen
    assert view.prompt.text() == "Deal to seat 1"
    assert bench.refused.text() == "", "betting closed: the card-stop the line told of is off"

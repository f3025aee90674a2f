"""The wager reader when it cannot read, on the dealer's real window at 1280x800, by taps: a spot
faulted before the round's wagers and during the round, the reader down and back, the reader down
at "No more bets" and at the settlement's "Done" (RULES.md §8.22-8.24, DEVICES.md §6). The shoe
and the reader are emulated on pseudo-terminals; each state's words, its light and its journal
records are asserted, and each is saved as a screenshot."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.history.recall import recall
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.inputs import Action
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.text.reader_words import CHECK_SKIPPED, DOWN_BETTING
from hw_sims.endpoints import PtyEndpoint
from hw_sims.wagers import WagerEmulator
from tests.devices.reader_rig import ReaderTable, spot
from tests.screenshots import shoot
from tests.ui.test_layouts import _check_fit
from tests.ui.test_reader_screens import BOTH_WIN, _waited
from ui.common.bridge import TableBridge
from ui.common.confirm_overlay import open_confirmation
from ui.common.theme import AMBER, COLLECT, PAY
from ui.dealer.dealer_window import DealerWindow


class _Unplugged:
    """Where the reader was: nothing to stop."""

    def stop(self) -> None:
        pass


@pytest.fixture
def felt(qtbot, tmp_path):
    rig = ReaderTable(tmp_path / "table.db", BOTH_WIN, wait=lambda done, seconds: _waited(qtbot, done, seconds))
    window = DealerWindow(TableBridge(rig.controller))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    rig.start()
    clock = [0.0]  # each tap is deliberate: the double-tap guard's clock moves on between taps
    window.view.tap_guard.clock = lambda: clock[0]

    def tap_on(button) -> None:
        clock[0] += 1.0
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    rig.tap_on = tap_on
    rig.tap_seat = lambda seat: qtbot.mouseClick(window.view.seats[seat], Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
    yield rig, window
    rig.stop()


def _shown(window) -> None:
    for _ in range(3):
        QApplication.processEvents()
    _check_fit(window)


def _light(window) -> str:
    return window.view.devices.labels["Wagers"].text()


def _green(window) -> bool:
    """Up with nothing faulted: "Wagers up", or "Wagers: back" until the next input."""
    return ("Wagers up" in _light(window) or "Wagers: back" in _light(window)) and PAY in _light(window)


def _devices(rig, kind: str) -> list[dict]:
    return [r.body for r in read_records(rig.path) if r.kind is RecordKind.DEVICE and r.body.get("type") == kind]


def _unplug(rig) -> str:
    """The reader's cable is pulled: the table sees its link go down. Returns where it was plugged."""
    where = os.path.dirname(rig.reader.endpoint.url)
    rig.reader.stop()
    rig.reader = _Unplugged()
    rig.until(lambda: rig.snapshot.reader is not None and rig.snapshot.reader.down, "the reader down")
    return where


def _plug_in(rig, where: str, chips: dict[str, list[int]]) -> None:
    """The reader is plugged in again where it was, with these chips (dollars) on its spots."""
    os.makedirs(where, exist_ok=True)
    rig.reader = WagerEmulator(
        PtyEndpoint(where),
        seats=7,
        contents={spot(name): [d * 100 for d in dollars] for name, dollars in chips.items()},
    )
    rig.reader.start()
    rig.until(lambda: rig.snapshot.reader is not None and not rig.snapshot.reader.down, "the reader back")


def test_a_spot_faulted_before_the_wagers_is_keyed_and_its_clear_brings_the_reading_back(felt, tmp_path):
    rig, window = felt
    view = window.view
    rig.reader.sim_antenna(spot("3.base"))
    rig.until(
        lambda: rig.snapshot.reader is not None and spot("3.base") in rig.snapshot.reader.faulted, "3.base faulted"
    )
    rig.chips("2.base", 50)
    rig.reader.sim_place(spot("3.base"), [10_000])  # the player's $100, unread under the fault
    rig.tap_seat(3)
    _shown(window)
    assert view.seats[3].note.text() == "Spot faulted · key the wager" and view.seats[3].note.property("warn") is True
    assert view.prompt.text() == "Seat 3's spot is faulted: key its wager" and not view.prompt.cut
    assert "Wagers: seat 3 base faulted" in _light(window) and AMBER in _light(window)
    assert view.wagers.chip_buttons[10_000].isEnabled(), "the faulted spot is keyed"
    assert view.wagers.target.text() == "Seat 3\nBase $0 · spot faulted: key it"
    shoot(window, tmp_path, "fault-reader-spot-before-1280x800.png")
    rig.tap_on(view.wagers.chip_buttons[10_000])
    rig.until(lambda: rig.snapshot.seat(3).base == 10_000, "the keyed wager")
    assert [r for r in _devices(rig, "WagersFault") if r["spot"] == "3.base"][0]["code"] == "ANTENNA"
    assert {"type": "ReaderSpots", "faulted": ["3.base"]}.items() <= rig.ops_inputs("ReaderSpots")[-1].items()
    assert rig.ops_inputs("PlaceWager")[-1] == {"type": "PlaceWager", "seat": 3, "kind": "base", "amount": 10_000}

    rig.reader.sim_place(spot("3.base"), [10_000, 2_500])  # the player adds $25 while it is faulted
    rig.reader.sim_clear(spot("3.base"))
    rig.until(lambda: rig.snapshot.seat(3).base == 12_500, "the reading after the CLEAR")
    _shown(window)
    assert not rig.snapshot.reader.faulted and view.seats[3].wagers.text() == "$125"
    assert view.seats[3].note.text() == "" and view.prompt.text() == rig.snapshot.prompt
    rig.until(lambda: "Wagers up" in _light(window), "the light")
    assert PAY in _light(window)
    assert _devices(rig, "SpotCleared")[-1]["spot"] == "3.base"


def test_a_spot_faulted_during_the_round_keeps_its_wager_and_is_not_checked_at_the_settlement(felt, tmp_path):
    rig, window = felt
    view = window.view
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    rig.reader.sim_collision(spot("3.base"))  # the round's wager was read; now the spot cannot be
    rig.until(lambda: spot("3.base") in rig.snapshot.reader.faulted, "3.base faulted")
    _shown(window)
    assert view.seats[3].wagers.text() == "$25", "the wager read before the fault stands until keyed"
    assert view.prompt.text() == "Seat 3's spot is faulted: key its wager"
    rig.tap_on(view.wagers.no_more_bets)
    rig.until(lambda: rig.snapshot.phase is not Phase.BETTING, "the wagers closed at the scan")
    rig.deal(6)
    _shown(window)
    assert view.seats[3].note.text() == "Spot faulted · not read"
    assert "Wagers: seat 3 base faulted" in _light(window)
    assert view.devices.labels["Wagers"].toolTip().startswith("Wagers: seat 3 base faulted")
    shoot(window, tmp_path, "fault-reader-spot-during-1280x800.png")
    rig.tap_on(view.decisions.buttons[Action.STAND])
    rig.tap_on(view.decisions.buttons[Action.STAND])
    rig.deal(1)
    rig.chips("2.base", 50, 50)  # $50 won, paid on the spot
    _shown(window)
    assert rig.snapshot.need is Need.NOTHING and view.settlement.check.isVisible()
    assert view.settlement.check.text() == "Seat 3 · Base: payout not checked, the spot is faulted"
    rig.tap_on(view.settlement.confirm)
    rig.until(lambda: bool(rig.ops("RoundClosed")), "the round closed on the check of 2.base alone")
    assert rig.ops_inputs("SpotsScanned")[-1]["purpose"] == "settled"
    assert [r["code"] for r in _devices(rig, "WagersFault")] == ["COLLISION"]
    rig.reader.sim_clear(spot("3.base"))
    rig.until(lambda: _green(window), "the light after the CLEAR")


def test_the_reader_down_then_back_scans_and_shows_what_differs(felt, tmp_path):
    rig, window = felt
    view = window.view
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    where = _unplug(rig)
    rig.until(lambda: "Wagers: link down" in _light(window), "the light")
    _shown(window)
    assert view.prompt.text() == DOWN_BETTING == "Wager reader down: check wagers, then confirm"
    assert not view.prompt.cut
    assert COLLECT in _light(window)
    assert view.seats[2].wagers.text() == "$50" and view.seats[3].wagers.text() == "$25", "the last readings shown"
    assert rig.ops_inputs("ReaderSpots")[-1] == {"type": "ReaderSpots", "spots": [], "faulted": [], "outage": True}
    assert [r["state"] for r in _devices(rig, "LinkChanged")][-1] == "down"
    shoot(window, tmp_path, "fault-reader-down-1280x800.png")

    _plug_in(rig, where, {"2.base": [50], "3.base": [25, 10]})  # a chip went on seat 3 while it was down
    rig.until(lambda: rig.snapshot.attention is not None, "the differences")
    _shown(window)
    assert view.banner.message.text() == (
        "WAGER READER BACK (rule 8.23): its scan differs from the table: Seat 3 · Base: $35 read, $25 on the "
        "table. The chips read are the wagers now"
    )
    assert not view.banner.message.cut
    assert rig.ops("ReaderBackDiffers") == [
        {"type": "ReaderBackDiffers", "spot": "3.base", "due": 2_500, "held": 3_500}
    ]
    assert rig.snapshot.seat(3).base == 3_500
    rig.until(lambda: "Wagers up" in _light(window), "the light")
    assert view.prompt.text() == rig.snapshot.prompt, "the round's own prompt again"
    shoot(window, tmp_path, "fault-reader-back-1280x800.png")
    rig.tap_on(view.banner.resolve)
    assert rig.snapshot.attention is None
    assert _devices(rig, "Acknowledged")[-1]["kind"] == "reader_back"


def test_the_reader_down_at_no_more_bets_closes_the_wagers_the_dealer_confirms(felt, tmp_path):
    rig, window = felt
    view = window.view
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    _unplug(rig)
    rig.tap_seat(3)
    rig.tap_on(view.wagers.chip_buttons[500])  # the dealer keys what the reader cannot read
    rig.until(lambda: rig.snapshot.seat(3).base == 3_000, "the keyed wager")
    rig.tap_on(view.wagers.no_more_bets)
    question = open_confirmation(window)
    assert question is not None and question.question.text() == "Wager reader down: close the wagers shown?"
    assert question.detail.text() == (
        "The chips cannot be read. Check each wager on the screen against the chips on "
        "its spots: seat 2 $50, seat 3 $30. Key any that differ before you confirm."
    )
    assert rig.snapshot.phase is Phase.BETTING, "nothing closes before the dealer confirms"
    _shown(window)
    shoot(window, tmp_path, "fault-reader-down-no-more-bets-1280x800.png")
    rig.tap_on(question.yes)
    rig.until(lambda: rig.snapshot.phase is not Phase.BETTING, "the wagers closed")
    confirmed = [
        r.body
        for r in read_records(rig.path)
        if r.kind is RecordKind.INPUT and r.body["input"]["type"] == "ConfirmWagers"
    ]
    assert len(confirmed) == 1
    assert [op["type"] for op in confirmed[0]["ops"]][:2] == ["WagersConfirmed", "BettingClosed"]
    assert confirmed[0]["ops"][0] == {"type": "WagersConfirmed", "seats": 2, "amount": 8_000}
    assert not rig.refused(), "no refusal on the way"


def test_the_reader_down_at_the_settlement_skips_the_payout_check_and_says_so(felt, tmp_path):
    rig, window = felt
    view = window.view
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    rig.tap_on(view.wagers.no_more_bets)
    rig.until(lambda: rig.snapshot.phase is not Phase.BETTING, "the wagers closed at the scan")
    rig.deal(6)
    rig.tap_on(view.decisions.buttons[Action.STAND])
    rig.tap_on(view.decisions.buttons[Action.STAND])
    rig.deal(1)
    round_id = rig.snapshot.table.round_id
    _unplug(rig)
    _shown(window)
    assert rig.snapshot.need is Need.NOTHING and view.settlement.check.isVisible()
    assert view.settlement.check.text() == CHECK_SKIPPED == "Payout not checked: the wager reader is down"
    assert "Wagers: link down" in _light(window)
    shoot(window, tmp_path, "fault-reader-down-paid-1280x800.png")
    rig.tap_on(view.settlement.confirm)
    rig.until(lambda: bool(rig.ops("RoundClosed")), "the round closed unchecked")
    assert rig.ops("PayoutCheckSkipped") == [{"type": "PayoutCheckSkipped", "step": "settled"}]
    assert not rig.ops_inputs("SpotsScanned")[-1]["purpose"] == "settled", "no scan was waited for"
    steps = [op["type"] for op in recall(rig.path, round_id=round_id)[0]["operations"]]
    assert "PayoutCheckSkipped" in steps

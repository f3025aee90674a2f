"""One rule for every device, on the dealer's real window with the emulated devices: a shoe that
faults or loses its link, a peek that fails, faults or loses its link, a camera that faults, goes
dark or disagrees, each said on the banner in words naming the device and the next step, with a
light that says it in a word, each journaled; and, when the device comes back, said back, then clear.
Each fault state is photographed at 1280×800 (docs/screens/fault-*.png)."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import WagerKind
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig, TableState
from dealer_assist.table.session_inputs import RekeyCard
from dealer_assist.table.snapshot import Attention, AttentionKind
from devices.table_owner.controller import TableController
from hw_sims.endpoints import InProcessEndpoint
from hw_sims.faults import FaultKind
from hw_sims.peek import PeekEmulator
from hw_sims.shoe import ShoeEmulator
from tests.screenshots import shoot
from tests.ui.conftest import PIN
from tests.ui.test_camera_banner import Camera
from ui.common.bridge import TableBridge
from ui.dealer.dealer_window import DealerWindow
from ui.keypads.bank_offer import BANK_CHIPS
from ui.keypads.wager_pad import CHIPS

WAIT_MS = 20_000
_names = itertools.count()

SHOE_DOWN = (
    "SHOE DOWN: the shoe's link is down. Dealer: deal no card until the light says Shoe back; "
    "a floor supervisor calls a technician if it stays down"
)
SHOE_JAM = (
    "SHOE FAULT: Shoe reports JAM: card jammed at the exit. Dealer: stop dealing and call a floor supervisor "
    "to clear the shoe; the light turns green when the shoe reads its next card"
)
SHOE_BACK = "SHOE BACK: the shoe is back: deal on"
PEEK_DOWN = (
    "PEEK DOWN: the peek device's link is down: at the peek the round waits for a floor supervisor to check "
    "the hole card by hand"
)
PEEK_SENSOR = (
    "PEEK FAULT: Peek reports SENSOR: lens covered. At the peek the round waits for a floor supervisor to "
    "check the hole card by hand, until the peek device answers again"
)
PEEK_BACK = "PEEK BACK: the peek device is back: it answers the peeks again"
CAMERA_DOWN = (
    "CAMERA DOWN: no frames come from the overhead camera. Dealer: deal on, the shoe's reads go unchecked; "
    "a floor supervisor calls a technician"
)
CAMERA_BLANK = (
    "CAMERA FAULT: Camera reports empty frames. Dealer: deal on, the shoe's reads go unchecked; a floor "
    "supervisor has the camera looked at if it lasts"
)
CAMERA_BACK = "CAMERA BACK: the overhead camera is back: it checks the shoe's cards again"


def light(window: DealerWindow, name: str) -> str:
    """The words beside the device's light, as the top bar shows them."""
    text = window.view.devices.labels[name].text().split("</span> ", 1)[1]
    return re.sub(r"<[^>]+>", "", text).replace("&nbsp;", "").strip()


def banner(window: DealerWindow) -> str:
    return window.view.banner.message.text() if window.view.banner.isVisible() else ""


def notes(path: Path, device: str) -> list[dict]:
    return [r.body for r in read_records(path) if r.kind is RecordKind.DEVICE and r.body["device"] == device]


class LinkedTable:
    """The dealer's window over a journaled table whose shoe (and peek device) are emulators on
    in-process links; `unplug` and `plug_in` take a device off its line and put a new one on it."""

    def __init__(
        self,
        qtbot,
        path: Path,
        profile: str,
        cards: list[str],
        hole: str | None = None,
        peek_faults: dict[FaultKind, float] | None = None,
    ) -> None:
        self.qtbot, self.path = qtbot, path
        self.cards = [parse_card(c) for c in cards]
        self.shoe_name = f"fault-shoe-{next(_names)}"
        self.shoe = ShoeEmulator(InProcessEndpoint(self.shoe_name), cards=self.cards, pace=None, shoe_id="S1", decks=6)
        self.hole = parse_card(hole) if hole else None
        self.peek_name = f"fault-peek-{next(_names)}"
        self.peek = (
            PeekEmulator(InProcessEndpoint(self.peek_name), hole_card=self.hole, faults=peek_faults) if hole else None
        )
        self.table = Table.open(path, TableConfig("T1", profile))
        self.controller = TableController(self.table)
        self.controller.connect_devices(self.shoe.endpoint.url, self.peek.endpoint.url if self.peek else None)
        self.bridge = TableBridge(self.controller)
        self.window = DealerWindow(self.bridge, None)
        self.clock = 0.0
        self.window.view.tap_guard.clock = lambda: self.clock
        qtbot.addWidget(self.window)
        self.window.resize(1280, 800)
        self.window.show()
        qtbot.waitExposed(self.window)
        self.shoe.start()
        if self.peek is not None:
            self.peek.start()
        self.controller.start()
        self.wait(lambda: light(self.window, "Shoe").startswith("Shoe up"))
        if self.peek is not None:
            self.wait(lambda: light(self.window, "Peek").startswith("Peek up"))

    @property
    def view(self):
        return self.window.view

    def wait(self, done) -> None:
        self.qtbot.waitUntil(done, timeout=WAIT_MS)

    def tap(self, widget) -> None:
        assert widget.isVisible() and widget.isEnabled(), f"{widget.objectName() or widget.text()} is not tappable"
        self.clock += 1.0  # a deliberate tap, never a bounce of the last one
        self.qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)

    def take_bank(self, bank: int) -> None:
        """The first seat offered the bank takes it, keyed in chips."""
        self.wait(lambda: self.bridge.snapshot.table.state is TableState.OFFERING_BANK)
        for chip in sorted(BANK_CHIPS, reverse=True):
            while bank >= chip:
                self.tap(self.view.bank_offer.keypad.chips[chip])
                bank -= chip
        self.tap(self.view.bank_offer.keypad.confirm)

    def wager(self, seat: int, amount: int) -> None:
        self.wait(lambda: self.bridge.snapshot.need is Need.WAGERS)
        self.qtbot.mouseClick(self.view.seats[seat], Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
        for chip in sorted(CHIPS, reverse=True):
            while amount >= chip:
                self.tap(self.view.wagers.chip_buttons[chip])
                amount -= chip

    def no_more_bets(self) -> None:
        self.wait(lambda: self.bridge.snapshot.closes_betting)
        self.tap(self.view.wagers.no_more_bets)
        self.wait(lambda: self.controller.feed.locked is False)

    def deal(self, count: int) -> None:
        seen = self.shoe.dealt
        for _ in range(count):
            self.shoe.sim_deal_next()
        self.wait(lambda: self.shoe.dealt == seen + count)

    def unplug(self, device: str) -> None:
        """The device goes off its line (its cable pulled, its power gone)."""
        getattr(self, device).stop()

    def plug_in(self, device: str) -> None:
        """A device on the line again, powered up anew where the last one stopped."""
        if device == "shoe":
            self.shoe = ShoeEmulator(
                InProcessEndpoint(self.shoe_name),
                cards=self.cards,
                pace=None,
                shoe_id="S1",
                decks=6,
                start_at=self.shoe.dealt,
                announce=False,
            )
            self.shoe.start()
        else:
            self.peek = PeekEmulator(InProcessEndpoint(self.peek_name), hole_card=self.hole)
            self.peek.start()

    def close(self) -> None:
        self.controller.stop()
        for device in (self.shoe, self.peek):
            if device is not None:
                device.stop()
        QApplication.processEvents()  # the last device notes reach the journal before it closes
        self.table.close()


@pytest.fixture
def linked(qtbot, tmp_path):
    tables: list[LinkedTable] = []

    def make(*args, **options) -> LinkedTable:
        tables.append(LinkedTable(qtbot, tmp_path / f"journal-{len(tables)}.db", *args, **options))
        return tables[-1]

    yield make
    for t in tables:
        t.close()


# sd-buster-a: house-banked, the dealer's first card up; seat 1 gets 9S 7D, the dealer 5H TC, then KD
HOUSE = ("sd-buster-a", ["9S", "5H", "7D", "TC", "KD", "2C", "3C"])
# c21-8.0: seat 1 banks; seat 2 gets TH 9H, the player-dealer AS (hole) and KD (up): the peek is asked
PEEKED = ("c21-8.0", ["TH", "AS", "9H", "KD", "2C"])


def test_a_jammed_shoe_is_said_until_it_reads_its_next_card(linked, tmp_path):
    t = linked(*HOUSE)
    t.wager(1, 1_000)
    t.no_more_bets()
    t.shoe.sim_jam()
    t.wait(lambda: banner(t.window) == SHOE_JAM)
    assert light(t.window, "Shoe") == "Shoe: JAM fault", "the light says it in a word"
    assert not t.view.banner.resolve.isVisible(), "it lasts while the shoe is faulted: nothing to dismiss"
    assert [n["code"] for n in notes(t.path, "shoe") if n["type"] == "DeviceFault"] == ["JAM"]
    shoot(t.window, tmp_path, "fault-shoe-jam-1280x800.png")
    t.deal(1)  # the jam cleared, the shoe reads 9S
    t.wait(lambda: banner(t.window) == SHOE_BACK)
    assert light(t.window, "Shoe") == "Shoe: back"
    t.deal(1)
    t.wait(lambda: light(t.window, "Shoe") == "Shoe up · last 5H")
    assert banner(t.window) == "", "once the dealer went on, back is no news"


def test_a_shoe_whose_link_goes_down_is_said_until_it_is_back(linked, tmp_path):
    t = linked(*HOUSE)
    t.wager(1, 1_000)
    t.unplug("shoe")
    t.wait(lambda: banner(t.window) == SHOE_DOWN)
    assert light(t.window, "Shoe") == "Shoe: link down"
    assert t.view.prompt.text() == t.bridge.snapshot.prompt, "the round's own step stays on the prompt line"
    assert [n["state"] for n in notes(t.path, "shoe") if n["type"] == "LinkChanged"] == ["up", "down"]
    shoot(t.window, tmp_path, "fault-shoe-link-down-1280x800.png")
    t.controller.report(Attention(AttentionKind.MISREAD, "the shoe could not read a card", "6.1"))
    t.wait(lambda: banner(t.window).startswith("MISREAD"))
    assert t.view.prompt.text() == f"Shoe: link down · {t.bridge.snapshot.prompt}", (
        "the banner is taken: the prompt says it"
    )
    t.tap(t.view.banner.resolve)
    assert banner(t.window) == SHOE_DOWN and t.view.prompt.text() == t.bridge.snapshot.prompt
    t.plug_in("shoe")
    t.wait(lambda: banner(t.window) == SHOE_BACK)
    assert light(t.window, "Shoe") == "Shoe: back"
    assert [n["state"] for n in notes(t.path, "shoe") if n["type"] == "LinkChanged"] == ["up", "down", "up"]
    t.no_more_bets()  # the dealer goes on
    t.wait(lambda: light(t.window, "Shoe") == "Shoe up")
    assert banner(t.window) == ""


@pytest.mark.parametrize(("how", "answer"), [("noread", "noread"), ("timeout", "timeout")])
def test_a_failed_peek_holds_the_round_and_its_light_says_check_by_hand(linked, tmp_path, how, answer):
    faults = {FaultKind.NOREAD: 1.0} if how == "noread" else None
    t = linked(*PEEKED, hole="AS", peek_faults=faults)
    if how == "timeout":
        t.peek.sim_set_delay(2.0)  # past the 1500 ms the host waits
    t.take_bank(50_000)
    t.wager(2, 2_500)
    t.no_more_bets()
    t.deal(4)
    expected = (
        f"PEEK FAILED (rule 6.2): the peek device answered {answer}; a floor supervisor checks the hole card by hand"
    )
    t.wait(lambda: banner(t.window) == expected)
    t.wait(lambda: light(t.window, "Peek") == "Peek: failed — check by hand")
    assert "Peek up" not in t.view.devices.labels["Peek"].text(), "no green light after a failed peek"
    held = [
        op
        for r in read_records(t.path)
        if r.kind is RecordKind.INPUT
        for op in r.body["ops"]
        if op["type"] == "RoundHeld"
    ]
    assert [op["reason"] for op in held] == ["peek_failed"]
    answered = [
        r.body["input"]
        for r in read_records(t.path)
        if r.kind is RecordKind.INPUT and r.body["input"]["type"] == "PeekAnswered"
    ]
    assert [event["result"] for event in answered] == [answer]
    shoot(t.window, tmp_path, f"fault-peek-{how}-1280x800.png")


def test_a_peek_device_fault_is_said_until_it_answers_again(linked, tmp_path):
    t = linked(*PEEKED, hole="AS")
    t.take_bank(50_000)
    t.peek.sim_fault("SENSOR", "lens covered")
    t.wait(lambda: banner(t.window) == PEEK_SENSOR)
    assert light(t.window, "Peek") == "Peek: SENSOR fault"
    assert [(n["code"], n["text"]) for n in notes(t.path, "peek") if n["type"] == "DeviceFault"] == [
        ("SENSOR", "lens covered")
    ]
    shoot(t.window, tmp_path, "fault-peek-sensor-1280x800.png")
    t.wager(2, 2_500)
    t.no_more_bets()
    t.deal(4)
    t.wait(lambda: t.bridge.snapshot.phase is Phase.SETTLED)  # the peek answered: the player-dealer's Natural
    t.wait(lambda: banner(t.window) == PEEK_BACK)
    assert light(t.window, "Peek") == "Peek: back"


def test_a_peek_device_whose_link_goes_down_is_said_until_it_is_back(linked, tmp_path):
    t = linked(*PEEKED, hole="AS")
    t.take_bank(50_000)
    t.unplug("peek")
    t.wait(lambda: banner(t.window) == PEEK_DOWN)
    assert light(t.window, "Peek") == "Peek: link down"
    assert [n["state"] for n in notes(t.path, "peek") if n["type"] == "LinkChanged"] == ["up", "down"]
    shoot(t.window, tmp_path, "fault-peek-link-down-1280x800.png")
    t.plug_in("peek")
    t.wait(lambda: banner(t.window) == PEEK_BACK)
    assert light(t.window, "Peek") == "Peek: back"
    assert [n["state"] for n in notes(t.path, "peek") if n["type"] == "LinkChanged"] == ["up", "down", "up"]
    t.wager(2, 2_500)  # the dealer goes on
    t.wait(lambda: light(t.window, "Peek") == "Peek up")
    assert banner(t.window) == ""


@pytest.fixture
def filmed(table):
    cameras: list[Camera] = []

    def make(*args, **options):
        t = table(*args, **options)
        cameras.append(Camera(t))
        cameras[-1].link.start()
        t.qtbot.waitUntil(lambda: t.view.devices.labels["Camera"].toolTip().startswith("Camera: up"), timeout=WAIT_MS)
        return t, cameras[-1]

    yield make
    for camera in cameras:
        camera.felt.stop()
        camera.link.stop()
    QApplication.processEvents()  # the last notes reach the journal before it closes


def test_a_camera_sending_empty_frames_is_said_faulted_until_it_reads_again(filmed, qtbot, tmp_path):
    t, camera = filmed("nobust-4.0", ["TS", "9H", "KD", "8C"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    camera.felt.sim_blank(1_000_000)
    qtbot.waitUntil(lambda: banner(t.window) == CAMERA_BLANK, timeout=WAIT_MS)
    assert light(t.window, "Camera") == "Camera: fault"
    faults = [n for n in notes(t.journaled.path, "camera") if n["type"] == "DeviceFault"]
    assert [n["text"] for n in faults] == ["empty frames"] and "empty" in faults[0]["error"]
    shoot(t.window, tmp_path, "fault-camera-empty-frames-1280x800.png")
    camera.felt.sim_blank(0)
    qtbot.waitUntil(lambda: banner(t.window) == CAMERA_BACK, timeout=WAIT_MS)
    assert light(t.window, "Camera") == "Camera: back"
    assert [n["type"] for n in notes(t.journaled.path, "camera")][-1] == "FaultCleared"
    t.deal()
    assert light(t.window, "Camera").startswith("Camera up") and banner(t.window) == ""


def test_a_camera_that_sends_no_frames_is_said_down_until_it_is_back(filmed, qtbot, tmp_path):
    t, camera = filmed("nobust-4.0", ["TS", "9H", "KD", "8C"], pd_seat=4)
    camera.link.silent_s = 0.5  # the 3 s of a table, shortened
    camera.felt.sim_pause()
    qtbot.waitUntil(lambda: banner(t.window) == CAMERA_DOWN, timeout=WAIT_MS)
    assert light(t.window, "Camera") == "Camera: link down"
    assert [n["state"] for n in notes(t.journaled.path, "camera") if n["type"] == "LinkChanged"] == ["up", "down"]
    shoot(t.window, tmp_path, "fault-camera-down-1280x800.png")
    camera.felt.sim_resume()
    qtbot.waitUntil(lambda: banner(t.window) == CAMERA_BACK, timeout=WAIT_MS)
    assert light(t.window, "Camera") == "Camera: back"
    assert [n["state"] for n in notes(t.journaled.path, "camera") if n["type"] == "LinkChanged"] == ["up", "down", "up"]


def test_a_camera_mismatch_keeps_its_word_after_the_banner_until_the_camera_agrees_again(filmed, qtbot, tmp_path):
    t, camera = filmed("nobust-4.0", ["TS", "9H", "KD", "8C"], pd_seat=4)
    camera.felt.sim_read_as(parse_card("TS"), parse_card("TC"))
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)
    qtbot.waitUntil(
        lambda: banner(t.window).startswith("MISMATCH: Seat 1: the shoe read TS, the camera sees TC."), timeout=WAIT_MS
    )
    assert light(t.window, "Camera") == "Camera: mismatch", "at 1280 the bar says the short word"
    assert t.view.devices.labels["Camera"].toolTip().startswith("Camera: mismatch — check the card · Seat 1")
    shoot(t.window, tmp_path, "fault-camera-mismatch-1280x800.png")
    t.tap(t.view.banner.resolve)
    assert banner(t.window) == "" and light(t.window, "Camera") == "Camera: mismatch", (
        "the dealer saw it; the light keeps the word until the camera agrees"
    )
    assert t.supervise(RekeyCard(0, parse_card("TC"), "Floor 1", "the camera shows TC"), PIN) is None
    qtbot.waitUntil(lambda: t.view.devices.labels["Camera"].toolTip() == "Camera: up · last agrees", timeout=WAIT_MS)
    assert light(t.window, "Camera").startswith("Camera up"), "green again"
    assert banner(t.window) == "", "the reads agree again: the light is green, and that is all"
    findings = [n["type"] for n in notes(t.journaled.path, "camera") if n["type"] != "LinkChanged"]
    assert findings == ["CameraMismatch", "CameraAgrees"]
    assert [n["type"] for n in notes(t.journaled.path, "dealer")] == ["Acknowledged"]

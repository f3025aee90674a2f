"""A journaled bench table on the real screens: a scripted shoe, taps on the real buttons."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from PySide6.QtCore import QPoint, Qt

from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.phases import Need
from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.journaled_table import Table as JournaledTable
from dealer_assist.table.session import TableConfig, TableInput, TableState
from dealer_assist.table.snapshot import TableSnapshot
from devices.table_owner.controller import TableController
from ui.common.bridge import TableBridge
from ui.common.screen_font import load_screen_font
from ui.common.tap_guard import GUARD_S, REPEATABLE
from ui.dealer.bench_panel import BenchPanel
from ui.dealer.dealer_window import DealerWindow
from ui.keypads.bank_offer import BANK_CHIPS
from ui.keypads.wager_pad import CHIPS

PIN = "2468"


@pytest.fixture(scope="session", autouse=True)
def screen_font(qapp) -> None:
    """Every screen test lays text out in the screens' own font, as a table PC does."""
    load_screen_font()


def scripted_shoe(decks: int, cards: Iterable[str], seed: int = 0) -> Shoe:
    """A shoe whose first cards are `cards`, in order, followed by a shuffled rest."""
    shoe = Shoe(decks, random.Random(seed))
    shoe.cards = [parse_card(code) for code in cards] + shoe.cards
    shoe.cut_at = len(shoe.cards)
    return shoe


class Table:
    """A new table with the supervisor PIN `pin`: the shoe is loaded and, in a player-dealer game,
    seat `pd_seat` takes the bank."""

    def __init__(
        self,
        qtbot,
        journal,
        profile: str,
        cards: Iterable[str] = (),
        *,
        pd_seat: int | None = 4,
        bank: Cents = 50_000,
        size: tuple[int, int] = (1280, 800),
        seed: int = 0,
        pin: str | None = PIN,
    ) -> None:
        self.qtbot = qtbot
        self._last_tap = None
        self.profile = load_profile(profile)
        self.journaled = JournaledTable.open(journal, TableConfig("T1", profile))
        self.pin = pin
        if pin is not None:  # None: a new table, whose supervisor screens open on choosing the PIN
            self.journaled.set_pin(pin)
        self.controller = TableController(self.journaled)
        self.devices = self.controller.devices
        self.bridge = TableBridge(self.controller)
        shoe = scripted_shoe(self.profile.decks, cards, seed)
        self.bench = BenchPanel(shoe, self.controller.facts, self.devices)
        self.window = DealerWindow(self.bridge, self.bench)
        self.view = self.window.view
        self.guard_clock = 0.0  # the double-tap guard runs on a clock that a deliberate tap moves on
        self.view.tap_guard.clock = lambda: self.guard_clock
        qtbot.addWidget(self.window)
        self.window.resize(*size)
        self.window.show()
        qtbot.waitExposed(self.window)
        self.tap(self.bench.load)
        if self.profile.player_dealer:
            self.take_bank(pd_seat or 1, bank)

    def take_bank(self, seat: int, bank: Cents) -> None:
        """Seats before `seat` refuse the bank; `seat` takes it with `bank`, keyed in chips."""
        offer = self.view.bank_offer
        while self.snap.table.offer_seat != seat:
            self.tap(offer.refuse)
        for chip in sorted(BANK_CHIPS, reverse=True):
            while bank >= chip:
                self.tap(offer.keypad.chips[chip])
                bank -= chip
        assert bank == 0, "banks are entered in whole chips"
        self.tap(offer.keypad.confirm)
        assert self.snap.table.state is TableState.ROUND

    @property
    def snap(self) -> TableSnapshot:
        return self.bridge.snapshot

    @property
    def tracker(self):
        return self.journaled.session.tracker

    def supervise(self, event: TableInput, pin: str) -> RuleError | None:
        """A floor supervisor's correction through the controller; the refusal, if any."""
        try:
            self.controller.supervise(event, pin)
        except RuleError as error:
            return error
        return None

    def tap(self, widget) -> None:
        """A deliberate tap: one on the button just tapped first waits out the double-tap guard."""
        assert widget.isVisible() and widget.isEnabled(), f"{widget.objectName() or widget.text()} is not tappable"
        if widget is self._last_tap and not widget.property(REPEATABLE):
            self.guard_clock += GUARD_S + 0.02
        self.qtbot.mouseClick(widget, Qt.MouseButton.LeftButton)
        self._last_tap = widget

    def tap_seat(self, seat: int) -> None:
        panel = self.view.seats[seat]
        self.qtbot.mouseClick(panel, Qt.MouseButton.LeftButton, pos=QPoint(10, 10))

    def wager(self, seat: int, kind: WagerKind | str, amount: Cents) -> None:
        """Tap the seat, the kind, then chips from the largest down until the amount is reached: each
        goes on the wager at once."""
        self.tap_seat(seat)
        self.tap(self.view.wagers.kind_buttons[kind])
        for chip in sorted(CHIPS, reverse=True):
            while amount >= chip:
                self.tap(self.view.wagers.chip_buttons[chip])
                amount -= chip
        assert amount == 0, "amounts are entered in whole chips"

    def deal(self, count: int = 1) -> None:
        """Cards from the bench; while betting is open the dealer first taps "No more bets", and
        while something is to be settled now, "Paid"."""
        if self.snap.closes_betting:
            self.tap(self.view.wagers.no_more_bets)
        for _ in range(count):
            if self.snap.need is Need.PAYMENTS:
                self.tap(self.view.payments.confirm)
            self.tap(self.bench.deal)

    def decide(self, action: Action) -> None:
        self.tap(self.view.decisions.buttons[action])

    def enabled_decisions(self) -> set[Action]:
        return {action for action, button in self.view.decisions.buttons.items() if button.isEnabled()}

    def settlement_cells(self) -> list[list[str]]:
        """The settlement panel's rows as the dealer reads them, header excluded."""
        return self.view.settlement.rows.texts()[1:]

    def net_cells(self) -> list[str]:
        return [text for row in self.view.settlement.nets.texts() for text in row]


@pytest.fixture
def table(qtbot, tmp_path):
    tables: list[Table] = []

    def make(profile: str = "nobust-4.0", cards: Iterable[str] = (), **options) -> Table:
        tables.append(Table(qtbot, tmp_path / f"journal-{len(tables)}.db", profile, cards, **options))
        return tables[-1]

    yield make
    for t in tables:
        t.journaled.close()

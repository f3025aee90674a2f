"""Bench controls for a table without hardware: the dealer's hand on an emulated shoe.

Without `wire` the panel is the shoe and the peek device itself, in process: it sends the cards
and the peek answers straight to the table, even when the shoe should be locked, so a misdeal can
be staged. With `wire` (emulated devices on pseudo-terminals) it only pulls cards and loads shoes,
the bench's seeded shoes, so a resumed table goes on with its shoe; the cards, the cut card and the
peek answers reach the table over the devices' links."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import CardDrawn, PeekAnswered, PeekResult
from dealer_assist.rules.phases import Need
from dealer_assist.table.session import TableState
from dealer_assist.table.session_inputs import CutCardReached, ShoeLoaded
from dealer_assist.table.snapshot import TableSnapshot
from dealer_assist.table.table_facts import TableFacts
from devices.errors import DeviceError
from devices.table_owner.device_status import DeviceStatus
from hw_sims.bench_devices import BenchDevices, honest_peek_answer
from ui.common.elided_label import ElidedLabel
from ui.common.tap_guard import repeatable

__all__ = ["BenchPanel"]

SHOE, PEEK = "Shoe", "Peek"


class BenchPanel(QFrame):
    """Stands in for the shoe scanner and the peek device; the card is sent even when the shoe
    should be locked, so a misdeal can be staged. Each shoe loaded is a fresh shuffle of `shoe`.
    With `wire` the shoes are the emulator's and `shoe` is None."""

    entered = Signal(object)

    def __init__(
        self,
        shoe: Shoe | None,
        facts: Callable[[], TableFacts],
        devices: DeviceStatus,
        parent: QWidget | None = None,
        wire: BenchDevices | None = None,
    ) -> None:
        super().__init__(parent)
        if (shoe is None) == (wire is None):
            raise ValueError("a bench panel deals from its own shoe or from emulated devices: give exactly one")
        self.wire = wire
        self.setObjectName("bench")
        self.shoe = shoe
        self.facts = facts  # the table's facts: what an honest peek device would say
        self.devices = devices
        self._loaded = self._cut_told = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        title = QLabel("Bench")
        title.setObjectName("title")
        layout.addWidget(title)
        self.load = QPushButton("Load new shoe")
        self.load.setObjectName("load_shoe")
        self.load.clicked.connect(self.load_shoe)
        layout.addWidget(self.load)
        self.deal = repeatable(QPushButton("Deal next card"))  # the shoe: cards come out as fast as pulled
        self.deal.setObjectName("deal_card")
        self.deal.setMinimumHeight(90)
        self.deal.clicked.connect(self.deal_card)
        layout.addWidget(self.deal)
        # Each line keeps its height, said or not: the buttons below never move.
        self.refused = ElidedLabel(name="bench_refused", lines=6)  # why the shoe would not deal, in full
        self._prompt = ""  # the table's prompt as last shown
        self._refused_under = ""  # the prompt the refusal was said under: it goes when the table moves on
        self.refused.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.refused)
        self.count = ElidedLabel(name="muted", lines=2)
        layout.addWidget(self.count)
        self.peek_buttons: dict[str, QPushButton] = {}
        for key, text in (
            ("answer", "Peek answers"),
            (PeekResult.NOREAD, "Peek: no read"),
            (PeekResult.TIMEOUT, "Peek: timeout"),
        ):
            button = QPushButton(text)
            button.setObjectName(f"peek_{key}")
            button.clicked.connect(lambda _=False, k=key: self._peek(k))
            layout.addWidget(button)
            self.peek_buttons[key] = button
        layout.addStretch(1)
        if wire is None:
            devices.link(SHOE, True)
            devices.link(PEEK, True)
        for button in self.peek_buttons.values():
            button.setVisible(wire is None)  # on the wire the peek device answers by itself
        self._show_count()

    def load_shoe(self) -> None:
        if self.wire is not None:
            if not self.wire.busy():
                self.wire.load(self.wire.next_shoe())
            return
        assert self.shoe is not None
        if self._loaded:
            self.shoe.shuffle()
        self._loaded, self._cut_told = True, False
        self._show_count()
        self.entered.emit(ShoeLoaded(f"BENCH-{self.shoe.number}", self.shoe.decks))

    def draw(self) -> Card:
        """The next card out of the shoe, reported to the device status as the scanner would;
        the cut card is announced once, before the card behind it."""
        assert self.shoe is not None, "on the wire the emulated shoe deals"
        if self.shoe.cut_reached and not self._cut_told:
            self._cut_told = True
            self.entered.emit(CutCardReached(self.shoe.dealt))
        card = self.shoe.draw()
        self.devices.read(SHOE, str(card))
        self._show_count()
        return card

    def deal_card(self) -> None:
        if self.wire is None:
            self.entered.emit(CardDrawn(self.draw()))
        elif not self.wire.busy():
            try:
                self.wire.pull()
            except DeviceError as error:
                self.refused.setText(f"Not dealt: {error.message}")
                self._refused_under = self._prompt
                return
        self.refused.setText("")

    def busy(self) -> bool:
        """Wire: a shoe loaded or a card pulled has not reached the table yet."""
        return self.wire is not None and self.wire.busy()

    def _peek(self, key: str) -> None:
        result = honest_peek_answer(self.facts()) if key == "answer" else PeekResult(key)
        self.devices.read(PEEK, result.value)
        self.entered.emit(PeekAnswered(result))

    def _show_count(self) -> None:
        if self.wire is None:
            assert self.shoe is not None
            name, dealt, cards = str(self.shoe.number), self.shoe.dealt, len(self.shoe.cards)
        elif self.wire.current is None:
            self.count.setText("No shoe in")
            return
        else:
            name, dealt, cards = self.wire.current.shoe_id, self.wire.pulled, len(self.wire.current.shoe.cards)
        self.count.setText(f"Shoe {name}: {dealt} of {cards} cards dealt")

    def show_table(self, snap: TableSnapshot) -> None:
        self._prompt = snap.prompt
        if snap.prompt != self._refused_under:
            self.refused.setText("")  # it told of a state the table has left
        if self.wire is not None:
            self._show_count()
        self.load.setEnabled(snap.table is not None and snap.table.state is TableState.NEEDS_SHOE)
        for button in self.peek_buttons.values():
            button.setEnabled(snap.need is Need.PEEK)

"""Bench controls for a table without hardware: the dealer's hand on an emulated shoe.

Without `wire` the panel is the shoe and the peek device itself, in process: it sends the cards
and the peek answers straight to the table, even when the shoe should be locked, so a misdeal can
be staged. With `wire` (emulated devices on pseudo-terminals) it only pulls cards and loads shoes;
the cards, the cut card and the peek answers reach the table over the devices' links."""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from dealer_assist.cards import Card
from dealer_assist.inputs import CardDrawn, PeekAnswered, PeekResult
from dealer_assist.session_inputs import CutCardReached, ShoeLoaded
from dealer_assist.shoe import Shoe
from dealer_assist.snapshot import TableSnapshot
from dealer_assist.table_session import TableState
from dealer_assist.tracker import Need
from ui.device_status import DeviceStatus
from ui.wire_devices import WireDevices

SHOE, PEEK = "Shoe", "Peek"


class BenchPanel(QFrame):
    """Stands in for the shoe scanner and the peek device; the card is sent even when the shoe
    should be locked, so a misdeal can be staged. Each shoe loaded is a fresh shuffle."""

    entered = Signal(object)

    def __init__(self, shoe: Shoe, honest_peek: Callable[[], PeekResult], devices: DeviceStatus,
                 parent: QWidget | None = None, wire: WireDevices | None = None) -> None:
        super().__init__(parent)
        self.wire = wire
        self.pulled_through = 0  # wire: cards of this shoe the table has been told of
        self.setObjectName("bench")
        self.shoe = shoe
        self.honest_peek = honest_peek
        self.devices = devices
        self._loaded = self._cut_told = self._shoe_pending = self.next_is_hole_card = False
        self._resumed = wire is not None and shoe.dealt > 0  # a resumed table's shoe, already in
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        title = QLabel("Bench")
        title.setObjectName("title")
        layout.addWidget(title)
        self.load = QPushButton("Load new shoe")
        self.load.setObjectName("load_shoe")
        self.load.clicked.connect(self.load_shoe)
        layout.addWidget(self.load)
        self.deal = QPushButton("Deal next card")
        self.deal.setObjectName("deal_card")
        self.deal.setMinimumHeight(90)
        self.deal.clicked.connect(self.deal_card)
        layout.addWidget(self.deal)
        self.count = QLabel("")
        self.count.setObjectName("muted")
        self.count.setWordWrap(True)
        layout.addWidget(self.count)
        self.peek_buttons: dict[str, QPushButton] = {}
        for key, text in (("answer", "Peek answers"), (PeekResult.NOREAD, "Peek: no read"), (PeekResult.TIMEOUT, "Peek: timeout")):
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
        if self.wire is not None and self.busy():
            return
        if self._loaded:
            self.shoe.shuffle()
        self._loaded, self._cut_told = True, False
        self._show_count()
        if self.wire is not None:
            self.wire.load(self.shoe)
        else:
            self.entered.emit(ShoeLoaded(f"BENCH-{self.shoe.number}", self.shoe.decks))

    def draw(self) -> Card:
        """The next card out of the shoe, reported to the device status as the scanner would;
        the cut card is announced once, before the card behind it."""
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
        elif not self.busy():
            card = self.shoe.draw()
            self._show_count()
            self.wire.pull(card, self.next_is_hole_card)

    def busy(self) -> bool:
        """Wire: a card pulled or a shoe loaded has not reached the table yet."""
        return self._loaded and (self.shoe.dealt > self.pulled_through or self._shoe_pending)

    def _peek(self, key: str) -> None:
        result = self.honest_peek() if key == "answer" else PeekResult(key)
        self.devices.read(PEEK, result.value)
        self.entered.emit(PeekAnswered(result))

    def _show_count(self) -> None:
        self.count.setText(f"Shoe {self.shoe.number}: {self.shoe.dealt} of {len(self.shoe.cards)} cards dealt")

    def show_table(self, snap: TableSnapshot) -> None:
        table = snap.table
        self._shoe_pending = table is not None and table.shoe_id != f"BENCH-{self.shoe.number}" and self._loaded
        if self._resumed:
            self._loaded, self._shoe_pending, self._resumed = True, False, table is None
        self.pulled_through = table.shoe_cards if table is not None and not self._shoe_pending else 0
        self.next_is_hole_card = snap.next_card_is_hole_card
        self.load.setEnabled(snap.table is not None and snap.table.state is TableState.NEEDS_SHOE)
        for button in self.peek_buttons.values():
            button.setEnabled(snap.need is Need.PEEK)

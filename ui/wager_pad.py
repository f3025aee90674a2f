"""Wager entry by touch: pick a seat on the layout, a kind of wager, add chips (or clear), then
confirm: the chips add up to one amount, and the limits are checked on the amount confirmed."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QButtonGroup, QGridLayout, QPushButton, QWidget

from dealer_assist.rules.inputs import CloseInsurance, Insure, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.table.readings import WAGER_SPOTS
from dealer_assist.table.snapshot import SeatView, TableSnapshot
from dealer_assist.table.spots import Spot, SpotKind
from dealer_assist.rules.phases import Need
from ui.elided_label import ElidedLabel
from ui.tap_guard import repeatable
from ui.theme import hold_place
from dealer_assist.text.journal_text import money

CHIPS: tuple[Cents, ...] = (100, 500, 2_500, 10_000)
INSURANCE = "insurance"
KINDS: dict[str, str] = {
    WagerKind.BASE: "Base", WagerKind.LUCKY_LUCKY: "Lucky Lucky", WagerKind.BUSTER: "Buster", INSURANCE: "Insurance",
}


def _amount(seat: SeatView, kind: str) -> Cents:
    return {WagerKind.BASE: seat.base, WagerKind.LUCKY_LUCKY: seat.lucky_lucky,
            WagerKind.BUSTER: seat.buster, INSURANCE: seat.insurance}[kind]


class WagerPad(QWidget):
    """Emits the wager the dealer confirmed; the tracker checks it and the banner shows any refusal."""

    entered = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat: SeatView | None = None
        self.usable = False
        self.pending: Cents | None = None  # the amount keyed and not yet confirmed; None: none keyed
        self.read: frozenset[Spot] = frozenset()  # spots the wager reader reads: their chips are the wagers
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        self.target = ElidedLabel("Tap a seat", "amount")  # "Seat 3 · Base $0 → $25" never widens its columns
        layout.addWidget(self.target, 0, 0, 1, 2)
        self.kinds = QButtonGroup(self)
        self.kind_buttons: dict[str, QPushButton] = {}
        for column, (kind, text) in enumerate(KINDS.items(), start=2):
            button = QPushButton(text)
            button.setObjectName(f"kind_{kind}")
            button.setCheckable(True)
            hold_place(button)  # Lucky Lucky, where it is not offered, leaves its place empty
            self.kinds.addButton(button)
            self.kind_buttons[kind] = button
            layout.addWidget(button, 0, column)
        self.kind_buttons[WagerKind.BASE].setChecked(True)
        self.kinds.buttonToggled.connect(lambda *_: self._key(None))
        self.place = QPushButton("Place")
        self.place.setObjectName("wager_place")
        self.place.clicked.connect(self._confirm)
        layout.addWidget(self.place, 0, len(KINDS) + 2)
        self.chip_buttons: dict[Cents, QPushButton] = {}
        for column, chip in enumerate(CHIPS):
            button = repeatable(QPushButton(f"+{money(chip)}"))
            button.setObjectName(f"chip_{chip}")
            button.clicked.connect(lambda _=False, c=chip: self._add(c))
            layout.addWidget(button, 1, column)
            self.chip_buttons[chip] = button
        self.clear = QPushButton("Clear")
        self.clear.setObjectName("wager_clear")
        self.clear.clicked.connect(lambda: self._key(0))
        layout.addWidget(self.clear, 1, len(CHIPS))
        self.close_insurance = hold_place(QPushButton("Close insurance"))  # the wider of the two sets the column
        self.close_insurance.setObjectName("close_insurance")
        self.close_insurance.clicked.connect(lambda: self.entered.emit(CloseInsurance()))
        layout.addWidget(self.close_insurance, 1, len(CHIPS) + 1)
        self.no_more_bets = hold_place(QPushButton("No more bets"))
        self.no_more_bets.setObjectName("no_more_bets")
        self.no_more_bets.clicked.connect(lambda: self.entered.emit(NoMoreBets()))
        layout.addWidget(self.no_more_bets, 1, len(CHIPS) + 1)  # the place of "Close insurance": one or the other

    def kind(self) -> str:
        return next(k for k, b in self.kind_buttons.items() if b.isChecked())

    def show_table(self, snap: TableSnapshot, seat: int | None) -> None:
        betting, insuring = snap.need is Need.WAGERS, snap.need is Need.INSURANCE
        self.kind_buttons[WagerKind.LUCKY_LUCKY].setVisible(snap.lucky_lucky_offered)
        for kind, button in self.kind_buttons.items():  # a hold dims them in their places
            button.setEnabled((insuring if kind == INSURANCE else betting) and not snap.held)
        if insuring and not self.kind_buttons[INSURANCE].isChecked():
            self.kind_buttons[INSURANCE].setChecked(True)
        elif betting and self.kind_buttons[INSURANCE].isChecked():
            self.kind_buttons[WagerKind.BASE].setChecked(True)
        chosen = snap.seat(seat) if seat is not None else None
        if chosen is None or self.seat is None or chosen.seat != self.seat.seat:
            self.pending = None  # another seat: what was keyed for the last one is dropped
        self.seat = chosen
        self.usable = (betting or insuring) and not snap.held and self.seat is not None and not self.seat.player_dealer
        self.read = frozenset(view.reading.spot for view in snap.reader.spots) if snap.reader is not None else frozenset()
        self.close_insurance.setVisible(insuring)
        self.no_more_bets.setVisible(betting)
        self.no_more_bets.setEnabled(snap.closes_betting)
        self._show_target()

    def _show_target(self) -> None:
        read = self.seat is not None and self._spot(self.seat.seat, self.kind()) in self.read
        for button in (*self.chip_buttons.values(), self.clear):
            button.setEnabled(self.usable and not read)
        if self.seat is None:
            self.target.setText("Tap a seat")
            self.place.setEnabled(False)
            return
        kind = self.kind()
        recorded = _amount(self.seat, kind)
        keyed = " · read" if read else "" if self.pending is None else f" → {money(self.pending)}"
        self.target.setText(f"Seat {self.seat.seat} · {KINDS[kind]} {money(recorded)}{keyed}")
        self.place.setEnabled(self.usable and not read and self.pending is not None and self.pending != recorded)

    @staticmethod
    def _spot(seat: int, kind: str) -> Spot:
        return Spot(seat, SpotKind.INSURANCE if kind == INSURANCE else WAGER_SPOTS[WagerKind(kind)])

    def _key(self, amount: Cents | None) -> None:
        self.pending = amount
        self._show_target()

    def _add(self, chip: Cents) -> None:
        if self.seat is not None:
            self._key((self.pending if self.pending is not None else _amount(self.seat, self.kind())) + chip)

    def _confirm(self) -> None:
        if self.seat is None or self.pending is None:
            return
        kind, seat, amount = self.kind(), self.seat.seat, self.pending
        self.pending = None
        self.entered.emit(Insure(seat, amount) if kind == INSURANCE else PlaceWager(seat, WagerKind(kind), amount))
        self._show_target()

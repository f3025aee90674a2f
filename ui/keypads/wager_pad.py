"""Wager entry by touch: pick a seat on the layout and a kind of wager; each chip tapped goes on that
wager at once, and Clear takes it off, each an input the table checks as any wager. A seat's wagers
of the last round go on again in one tap, and so do the whole table's ("Same as last round",
RULES.md §8.22): most players bet as they did, and the dealer's taps are the game's pace."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QButtonGroup, QGridLayout, QHBoxLayout, QPushButton, QWidget

from dealer_assist.rules.inputs import CloseInsurance, Input, Insure, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.money import CHIP_VALUES, Cents
from dealer_assist.rules.phases import Need
from dealer_assist.table.readings import WAGER_SPOTS
from dealer_assist.table.snapshot import SeatView, TableSnapshot
from dealer_assist.table.spots import Spot, SpotKind
from dealer_assist.text.journal_text import money
from ui.common.elided_label import ElidedLabel
from ui.common.text import SEAT_AS_LAST, TABLE_AS_LAST
from ui.common.theme import hold_place
from ui.keypads.chip_row import ChipRow

__all__ = ["WagerPad"]

CHIPS: tuple[Cents, ...] = CHIP_VALUES[:4]  # $1 to $100, each in its column of every keypad
INSURANCE = "insurance"
KINDS: dict[str, str] = {
    WagerKind.BASE: "Base",
    WagerKind.LUCKY_LUCKY: "Lucky Lucky",
    WagerKind.BUSTER: "Buster",
    INSURANCE: "Insurance",
}


def _two_lines(text: str) -> str:
    """A button's words in two lines, broken at the space nearest the middle: the chip row beside it keeps its width."""
    spaces = [i for i, c in enumerate(text) if c == " "]
    middle = min(spaces, key=lambda i: abs(2 * i - len(text)))
    return f"{text[:middle]}\n{text[middle + 1 :]}"


def _amount(seat: SeatView, kind: str) -> Cents:
    return {
        WagerKind.BASE: seat.base,
        WagerKind.LUCKY_LUCKY: seat.lucky_lucky,
        WagerKind.BUSTER: seat.buster,
        INSURANCE: seat.insurance,
    }[kind]


class WagerPad(QWidget):
    """Emits each wager as the dealer keys it; the tracker checks it and the banner shows any refusal.
    Row 0: the seat and its wager, the kinds, the seat's "as last round"; row 1: the chip row of
    every keypad, "No more bets" (or "Close insurance" in its place) and the table's "as last round"."""

    entered = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("wagers")  # its buttons' narrower padding (ui/common/theme.py)
        self.seat: SeatView | None = None
        self.usable = False
        self.read: frozenset[Spot] = frozenset()  # spots the wager reader reads: their chips are the wagers
        self.faulted: frozenset[Spot] = frozenset()  # spots under a reader fault: the dealer keys them
        self.seat_again: tuple[PlaceWager, ...] = ()  # what the seat's "as last round" places
        self.table_again: tuple[PlaceWager, ...] = ()  # what the table's places
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        top = QHBoxLayout()
        top.setSpacing(6)
        self.target = ElidedLabel("Tap a seat", "amount", lines=2)  # "Seat 3", "Base $25": never widens its row
        top.addWidget(self.target, 1)
        self.kinds = QButtonGroup(self)
        self.kind_buttons: dict[str, QPushButton] = {}
        for kind, text in KINDS.items():
            button = QPushButton(text)
            button.setObjectName(f"kind_{kind}")
            button.setCheckable(True)
            hold_place(button)  # Lucky Lucky, where it is not offered, leaves its place empty
            self.kinds.addButton(button)
            self.kind_buttons[kind] = button
            top.addWidget(button)
        self.kind_buttons[WagerKind.BASE].setChecked(True)
        self.kinds.buttonToggled.connect(lambda *_: self._show_target())
        layout.addLayout(top, 0, 0, 1, 2)
        self.seat_as_last = QPushButton(_two_lines(SEAT_AS_LAST))
        self.seat_as_last.setObjectName("seat_as_last")
        self.seat_as_last.clicked.connect(lambda: self._enter(*self.seat_again))
        layout.addWidget(self.seat_as_last, 0, 2)
        self.row = ChipRow(CHIPS, "chip_", "wager_clear")  # in the place it has in every keypad
        self.row.tapped.connect(self._key)
        self.chip_buttons = self.row.chips
        self.clear = self.row.clear
        self.clear.clicked.connect(lambda: self._key(None))
        layout.addWidget(self.row, 1, 0, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom)
        self.close_insurance = hold_place(QPushButton("Close insurance"))  # the wider of the two sets the column
        self.close_insurance.setObjectName("close_insurance")
        self.close_insurance.clicked.connect(lambda: self.entered.emit(CloseInsurance()))
        layout.addWidget(self.close_insurance, 1, 1)
        self.no_more_bets = hold_place(QPushButton("No more bets"))
        self.no_more_bets.setObjectName("no_more_bets")
        self.no_more_bets.clicked.connect(lambda: self.entered.emit(NoMoreBets()))
        layout.addWidget(self.no_more_bets, 1, 1)  # the place of "Close insurance": one or the other
        self.table_as_last = QPushButton(_two_lines(TABLE_AS_LAST))
        self.table_as_last.setObjectName("table_as_last")
        self.table_as_last.clicked.connect(lambda: self._enter(*self.table_again))
        layout.addWidget(self.table_as_last, 1, 2)
        layout.setColumnStretch(1, 1)  # the room the chip row leaves

    def kind(self) -> str:
        return next(k for k, b in self.kind_buttons.items() if b.isChecked())

    def show_table(self, snap: TableSnapshot, seat: int | None) -> None:
        betting, insuring = snap.need is Need.WAGERS, snap.need is Need.INSURANCE
        self.kind_buttons[WagerKind.LUCKY_LUCKY].setVisible(snap.lucky_lucky_offered)
        for kind, button in self.kind_buttons.items():  # a hold dims them in their places
            button.setEnabled((insuring if kind == INSURANCE else betting) and not snap.held)
        another = seat is not None and (self.seat is None or seat != self.seat.seat)
        self.seat = snap.seat(seat) if seat is not None else None
        if insuring and not self.kind_buttons[INSURANCE].isChecked():
            self.kind_buttons[INSURANCE].setChecked(True)
        elif betting and (another or self.kind_buttons[INSURANCE].isChecked()):
            self.kind_buttons[WagerKind.BASE].setChecked(True)  # a seat is keyed from its base wager: one tap fewer
        open_ = (betting or insuring) and not snap.held
        self.usable = open_ and self.seat is not None and not self.seat.player_dealer
        self.read = (
            frozenset(view.reading.spot for view in snap.reader.spots) if snap.reader is not None else frozenset()
        )
        self.faulted = frozenset(snap.reader.faulted) if snap.reader is not None else frozenset()
        last = snap.last_round_of(seat) if seat is not None and betting and open_ else None
        self.seat_again = last.again if last is not None else ()
        self.table_again = snap.table_again if betting and open_ else ()
        self.seat_as_last.setEnabled(bool(self.seat_again))
        self.table_as_last.setEnabled(bool(self.table_again))
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
            return
        kind = self.kind()
        spot = self._spot(self.seat.seat, kind)
        said = " · read" if read else " · spot faulted: key it" if spot in self.faulted else ""
        self.target.setText(f"Seat {self.seat.seat}\n{KINDS[kind]} {money(_amount(self.seat, kind))}{said}")

    @staticmethod
    def _spot(seat: int, kind: str) -> Spot:
        return Spot(seat, SpotKind.INSURANCE if kind == INSURANCE else WAGER_SPOTS[WagerKind(kind)])

    def _key(self, chip: Cents | None) -> None:
        """A chip goes on the chosen wager at once; None (Clear) takes the wager off."""
        if self.seat is None:
            return
        kind, seat = self.kind(), self.seat.seat
        amount = 0 if chip is None else _amount(self.seat, kind) + chip
        self._enter(Insure(seat, amount) if kind == INSURANCE else PlaceWager(seat, WagerKind(kind), amount))

    def _enter(self, *events: Input) -> None:
        for event in events:
            self.entered.emit(event)

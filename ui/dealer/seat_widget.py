"""One betting circle: its wagers and its hands as they are dealt (its net is on the settlement)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.rules.inputs import WagerKind
from dealer_assist.rules.operations import EndReason
from dealer_assist.rules.outcomes import Status
from dealer_assist.table.snapshot import HandView, SeatView
from dealer_assist.text.journal_text import money
from ui.common.elided_label import ElidedLabel
from ui.common.text import ENDED, FIRST_TO_ACT, FIRST_TO_ACT_TIP, ON_SEAT, total_text
from ui.common.theme import see_through, set_flag
from ui.dealer.card_widget import CardRow


class HandBox(QWidget):
    """One hand of a seat: cards, total and what ended it."""

    def __init__(self, card_lines: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.cards = CardRow(card_lines)
        self.total = ElidedLabel(name="total")
        self.status = ElidedLabel(name="status")
        layout.addWidget(self.cards)
        layout.addWidget(self.total)
        layout.addWidget(self.status)

    def show_hand(self, hand: HandView, split: bool) -> None:
        self.cards.show_cards(hand.cards)
        prefix = f"H{hand.index + 1} " if split else ""
        total = "Natural" if hand.status is Status.NATURAL else total_text(hand.total, hand.soft) if hand.cards else ""
        self.total.setText(prefix + total)
        notes = []
        if hand.doubled:
            notes.append(f"double +{money(hand.doubled)}")
        if hand.ended not in (None, EndReason.NATURAL, EndReason.DOUBLED):
            notes.append(ENDED[hand.ended])
        elif hand.acting:
            notes.append("▶ to act")
        self.status.setText(" · ".join(notes))


class SeatPanel(QFrame):
    """A seat as the dealer sees it; a tap selects it for wager entry. Its size is its place's in
    the grid, whatever it says or holds: every seat is as large as the others, so the decision bar
    between them never moves."""

    tapped = Signal(int)

    def __init__(self, seat: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setObjectName("seat")
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)  # "Seat 8" and its "1st action" badge fit the narrowest seat
        layout.setSpacing(4)
        head = QHBoxLayout()
        head.setSpacing(4)
        self.name = QLabel(f"Seat {seat}")
        self.name.setObjectName("seatName")
        self.marker = QLabel(FIRST_TO_ACT)
        self.marker.setObjectName("button")
        self.marker.setToolTip(FIRST_TO_ACT_TIP)
        self.marker.hide()
        head.addWidget(self.name)
        head.addWidget(self.marker)
        head.addStretch(1)
        layout.addLayout(head)
        self.wagers = ElidedLabel(name="amount")
        self.side = ElidedLabel(name="muted", lines=2)
        self.side.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # what the wager reader found, or the last round's wagers left out
        self.note = ElidedLabel(name="reader", lines=2)
        self.note.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.notes = see_through(QStackedWidget())  # one place: the side bets, or the note instead
        self.notes.addWidget(self.side)
        self.notes.addWidget(self.note)
        layout.addWidget(self.wagers)
        layout.addWidget(self.notes)
        self.hand_grid = QGridLayout()
        self.hand_grid.setSpacing(4)
        layout.addLayout(self.hand_grid)
        layout.addStretch(1)
        self.hands: list[HandBox] = []
        self._shown: tuple[SeatView, bool, tuple[str, bool]] | None = None

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.tapped.emit(self.seat)
        super().mousePressEvent(event)

    def show_seat(self, view: SeatView, selected: bool, note: tuple[str, bool] = ("", False)) -> None:
        """`note`, in the place of the side bets: what the wager reader found on the seat's spots, or
        the last round's wagers left out; and whether it asks for something to be put right."""
        if (view, selected, note) == self._shown:
            return  # most changes touch one seat: the others keep their frame
        self._shown = (view, selected, note)
        self.note.setText(note[0])
        set_flag(self.note, "warn", note[1])
        self.notes.setCurrentWidget(self.note if note[0] else self.side)
        set_flag(self, "acting", view.acting)
        set_flag(self, "selected", selected)
        set_flag(self, "bank", view.player_dealer)
        self.marker.setVisible(view.action_button)
        if view.player_dealer:
            self.wagers.setText("BANK")
            self.side.setText("player-dealer")
        else:
            self.wagers.setText(money(view.base) if view.base else "no wager")
            side = [
                f"{ON_SEAT[WagerKind.LUCKY_LUCKY]}{money(view.lucky_lucky)}" if view.lucky_lucky else "",
                f"{ON_SEAT[WagerKind.BUSTER]}{money(view.buster)}" if view.buster else "",
                f"Ins {money(view.insurance)}" if view.insurance else "",
            ]
            self.side.setText("\n".join(s for s in side if s))  # a third kind goes on the second line
        self._show_hands(view.hands)

    def _show_hands(self, hands: tuple[HandView, ...]) -> None:
        """Hand boxes are kept from round to round; split hands get smaller cards."""
        card_lines = 3.0 if len(hands) <= 1 else 2.0
        while len(self.hands) < len(hands):
            box = HandBox(card_lines)
            self.hand_grid.addWidget(box, len(self.hands) // 2, len(self.hands) % 2)
            self.hands.append(box)
        for index, box in enumerate(self.hands):
            box.setVisible(index < len(hands))
            if index < len(hands):
                box.cards.set_lines(card_lines)
                box.show_hand(hands[index], len(hands) > 1)

"""The dealer's touchscreen: layout only. It renders snapshots and emits the dealer's inputs."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QApplication, QGridLayout, QHBoxLayout, QLabel, QStackedWidget, QVBoxLayout, QWidget

from dealer_assist.rules.counts import count
from dealer_assist.rules.inputs import Input, NoMoreBets, PaymentsMade
from dealer_assist.rules.money import Cents
from dealer_assist.rules.phases import Need
from dealer_assist.table.session import TableState
from dealer_assist.table.session_inputs import BankAccepted, ConfirmWagers, SettlementConfirmed
from dealer_assist.table.snapshot import TableSnapshot
from dealer_assist.text.reader_words import CONFIRM_ACTION, CONFIRM_QUESTION, confirm_detail
from devices.table_owner.device_status import DeviceLink
from ui.common.confirm_overlay import confirm
from ui.common.elided_label import ElidedLabel
from ui.common.tap_guard import TapGuard
from ui.common.text import left_out_line
from ui.common.theme import hold_place, see_through
from ui.dealer.attention_banner import AttentionBanner
from ui.dealer.dealer_hand_widget import DealerHandPanel
from ui.dealer.decision_bar import DecisionBar
from ui.dealer.device_bar import DeviceBar
from ui.dealer.reader_lines import difference_lines, reader_prompt, seat_line
from ui.dealer.seat_widget import SeatPanel
from ui.keypads.bank_offer import BankOffer
from ui.keypads.double_for_less import DoubleForLess
from ui.keypads.wager_pad import WagerPad
from ui.settlement.payments_panel import PaymentsPanel
from ui.settlement.settlement_panel import SettlementPanel


def seat_positions(seats: int) -> dict[int, tuple[int, int]]:
    """(row, column) of each seat around the layout as the dealer faces it: seat 1 at the lower
    left, clockwise across the far row, the last seat at the lower right; the dealer between."""
    if seats < 5:
        return {seat: (0, seat - 1) for seat in range(1, seats + 1)}
    top = seats - 2
    return {1: (1, 0), **{seat: (0, seat - 2) for seat in range(2, seats)}, seats: (1, top - 1)}


class DealerView(QWidget):
    input_entered = Signal(object)
    attention_dismissed = Signal()

    def __init__(self, seats: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.selected: int | None = None
        self.bank_kept: tuple[int, Cents] | None = (
            None  # the player-dealer's seat and bank, to take its second turn when offered
        )
        self._full_title = ""  # the title of the snapshot shown, before it is fitted
        self._title_fitted: tuple[str, int, int, str] | None = None
        self.snapshot: TableSnapshot | None = None
        root = self._root = QVBoxLayout(self)
        root.setContentsMargins(10, 8, 10, 10)
        root.setSpacing(6)  # with the prompt's own line and the banner's three: the seats keep their height
        top = self._top = QHBoxLayout()
        self.title = QLabel("")
        self.title.setObjectName("title")
        self.devices = DeviceBar()
        top.addWidget(self.title)
        top.addWidget(self.devices, 1)  # the room the title leaves
        root.addLayout(top)
        self.banner = AttentionBanner()
        self.banner.dismissed.connect(self.attention_dismissed)
        hold_place(self.banner)  # its room is kept when it hides: the table never jumps under a finger
        root.addWidget(self.banner)
        self.prompt = ElidedLabel(name="prompt")  # one line, whatever it says: the seats below never move
        root.addWidget(self.prompt)
        self.stack = see_through(QStackedWidget())
        root.addWidget(self.stack, 1)
        table = see_through(QWidget())
        grid = QGridLayout(table)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(8)
        positions = seat_positions(seats)
        columns = max(column for _, column in positions.values()) + 1
        self.seats: dict[int, SeatPanel] = {}
        for seat, (row, column) in positions.items():
            panel = SeatPanel(seat)
            panel.tapped.connect(self._select)
            grid.addWidget(panel, row, column)
            self.seats[seat] = panel
        self.dealer = DealerHandPanel()
        self.decisions = DecisionBar()
        self.decisions.entered.connect(self.input_entered)
        tray = QVBoxLayout()
        tray.setSpacing(8)
        tray.addWidget(self.dealer, 1)
        tray.addWidget(self.decisions)
        if seats < 5:
            grid.addLayout(tray, 1, 0, 1, columns)
        else:
            grid.addLayout(tray, 1, 1, 1, columns - 2)
        for column in range(columns):  # equal columns and rows, whatever the seats hold
            grid.setColumnStretch(column, 1)
        for row in range(2):
            grid.setRowStretch(row, 1)
        self.table_page = table
        self.stack.addWidget(table)
        self.settlement = SettlementPanel()
        self.settlement.confirmed.connect(self._settled)
        self.settlement.bank_kept.connect(self._settled_bank_kept)
        self.stack.addWidget(self.settlement)
        self.payments = PaymentsPanel()
        self.payments.confirmed.connect(lambda: self.input_entered.emit(PaymentsMade()))
        self.stack.addWidget(self.payments)
        self.keypads = see_through(QWidget())  # one place for the wager pad, the double for less, the bank offer
        slot = QGridLayout(self.keypads)
        slot.setContentsMargins(0, 0, 0, 0)
        self.wagers = WagerPad()
        self.wagers.entered.connect(self._wager_entered)
        self.double_less = DoubleForLess()
        self.double_less.entered.connect(self.input_entered)
        self.bank_offer = BankOffer()
        self.bank_offer.entered.connect(self.input_entered)
        for pad in (self.wagers, self.double_less, self.bank_offer):
            slot.addWidget(pad, 0, 0)
        root.addWidget(self.keypads)
        self.tap_guard = TapGuard(self)
        self.tap_guard.guard(self)

    @staticmethod
    def _title(snap: TableSnapshot) -> str:
        """The profile, the round and the shoe, in one line above the prompt."""
        table = snap.table
        if table is None:
            return snap.profile_title
        coming = table.round_id + (1 if snap.phase is None else 0)  # between rounds: the round about to open
        parts = [snap.profile_id, f"Round {coming}"]
        if table.shoe_id:
            parts.append(
                f"shoe {table.shoe_id}, {count(table.shoe_cards, 'card')}"
                + (" (cut card out)" if table.new_shoe_due else "")
            )
        return " · ".join(parts)

    def _fit_title(self) -> None:
        """The title in full, or without the shoe where the status items would not fit beside it
        even saying the least (the shoe is on the title's tooltip and the bench panel)."""
        full, least = self._full_title, self.devices.least_width()
        key = (full, least, self.width(), self.title.font().key())
        if key == self._title_fitted:  # most snapshots change none of it
            return
        self._title_fitted = key
        short = " · ".join(full.split(" · ")[:2])
        self.title.ensurePolished()
        margins = self._root.contentsMargins()
        room = self.width() - margins.left() - margins.right() - self._top.spacing()
        fits = self.title.fontMetrics().horizontalAdvance(full) + least <= room
        text = full if fits else short
        if self.title.text() != text:
            self.title.setText(text)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_title()

    def _settled(self) -> None:
        self.bank_kept = None
        self.input_entered.emit(SettlementConfirmed())

    def _settled_bank_kept(self) -> None:
        """ "Done · seat N keeps the bank": the round closes, and the offer of the bank's second turn
        that follows is taken as soon as it comes (after the reader's payout check, after a new shoe),
        with the chips read on pd.bank, or else the bank of the round just played."""
        bank = self.snapshot.bank if self.snapshot is not None else None
        if bank is None:
            return
        self.bank_kept = (bank.seat, bank.bank)
        self.input_entered.emit(SettlementConfirmed())
        self._take_kept_bank()

    def _take_kept_bank(self) -> None:
        snap = self.snapshot
        if self.bank_kept is None or snap is None or snap.table is None:
            return
        seat, bank = self.bank_kept
        table = snap.table
        if table.state is TableState.OFFERING_BANK and (table.offer_seat, table.offer_turn) == (seat, 2):
            self.bank_kept = None
            self.input_entered.emit(
                BankAccepted(seat, self.bank_offer.read if self.bank_offer.read is not None else bank)
            )
        elif snap.need is not Need.NOTHING and table.state is not TableState.NEEDS_SHOE:
            self.bank_kept = None  # the table went on another way (a round voided, the bank offered elsewhere)

    def _wager_entered(self, event: Input) -> None:
        """The wager pad's input; "No more bets" with the wager reader down first asks the dealer to
        confirm the wagers shown, and closes them as confirmed (RULES.md §8.23)."""
        snap = self.snapshot
        if not isinstance(event, NoMoreBets) or snap is None or snap.reader is None or not snap.reader.down:
            self.input_entered.emit(event)
            return
        shown = [
            (seat.seat, seat.base + seat.lucky_lucky + seat.buster)
            for seat in snap.seats
            if seat.base or seat.lucky_lucky or seat.buster
        ]
        confirm(
            self,
            CONFIRM_QUESTION,
            confirm_detail(shown),
            CONFIRM_ACTION,
            lambda: self.input_entered.emit(ConfirmWagers()),
        )

    def _select(self, seat: int) -> None:
        self.selected = seat
        if self.snapshot is not None:
            self.show_table(self.snapshot)

    def show_table(self, snap: TableSnapshot) -> None:
        if snap.need not in (Need.WAGERS, Need.INSURANCE):
            self.selected = None  # a seat is picked for wager entry only
        self.snapshot = snap
        self._full_title = self._title(snap)
        self._fit_title()
        self.title.setToolTip(f"{snap.profile_title}\n{self._full_title}")
        self.banner.show_table(snap)
        self.prompt.setText(reader_prompt(snap) or snap.prompt_line)
        self.wagers.setVisible(snap.need in (Need.WAGERS, Need.INSURANCE))
        self.bank_offer.show_table(snap)
        if (
            self.bank_kept is not None
        ):  # the offer comes later (the reader's payout check, a new shoe): taken once every view has it
            QTimer.singleShot(0, self._take_kept_bank)
        self.double_less.show_table(snap)
        tallest = max(pad.sizeHint().height() for pad in (self.wagers, self.double_less, self.bank_offer))
        if tallest > self.keypads.minimumHeight():  # the tallest of the three, styled and filled in, once
            self.keypads.setMinimumHeight(tallest)
        if snap.need is Need.NOTHING:  # the settlement covers the seats until the next round
            self.settlement.show_table(snap)
            self.settlement.show_check(difference_lines(snap), snap.reader is not None and snap.reader.checks_payouts)
            page: QWidget = self.settlement
        elif snap.need is Need.PAYMENTS:  # so does what is settled now, until the dealer has paid
            self.payments.show_table(snap)
            self.payments.show_check(difference_lines(snap), snap.reader is not None and snap.reader.checks_payouts)
            page = self.payments
        else:
            reader = snap.reader
            for view in snap.seats:
                note = (
                    seat_line(reader.on_seat(view.seat), reader, view.seat, snap.need)
                    if reader is not None
                    else ("", False)
                )
                last = snap.last_round_of(view.seat)
                if not note[0] and last is not None and last.left_out:
                    note = (left_out_line(last.left_out), False)
                self.seats[view.seat].show_seat(view, view.seat == self.selected, note)
            self.dealer.show_table(snap)
            page = self.table_page
        if self.stack.currentWidget() is not page:
            self._let_go_of_focus()
            self.stack.setCurrentWidget(page)
        self.wagers.show_table(snap, self.selected)
        self.decisions.show_decisions(snap.decisions)

    def _let_go_of_focus(self) -> None:
        """What has the keyboard focus on the page about to be covered (the button last tapped) lets
        go of it: hidden, it would hand it to the window's next button (Supervisor), and the switch
        on to the new page; two focus moves and a button repainted on the frame that opens the page."""
        held, covered = QApplication.focusWidget(), self.stack.currentWidget()
        if held is not None and covered is not None and covered.isAncestorOf(held):
            held.clearFocus()

    def show_devices(self, links: tuple[DeviceLink, ...]) -> None:
        self.devices.show_links(links)
        self._fit_title()

"""What to pay and collect, wager by wager in settlement order (RULES.md §5.2), each base wager
beside the hand behind its result, then each seat's net and the player-dealer's (coloured by its
own sign: red only when the bank lost). Rows the dealer settled before the round ended (§5.4) are
left out of the rows to settle, named in one line above them, never to be paid again."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from dealer_assist.rules.cards import card_text
from dealer_assist.rules.outcomes import Status
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.settlement import Row, Wager
from dealer_assist.table.readings import row_spot
from dealer_assist.table.snapshot import TableSnapshot
from dealer_assist.text.journal_text import money
from dealer_assist.text.reader_words import SPOT_NAMES, late_chips_back
from dealer_assist.text.record_words import RESULT_WORDS, WAGER_NAMES
from ui.common.elided_label import ElidedLabel
from ui.common.text import settlement_action, signed, total_text
from ui.common.theme import hold_place, set_flag
from ui.settlement.settlement_table import NO_BREAK, SettlementTable

__all__ = ["SettlementPanel"]

COLUMNS = ("#", "Seat", "Wager", "Stake", "Result", "Pay / collect", "Hand")
WRAPPING = (6, 2, 4, 5)  # on a narrow screen the hand breaks first, then the wager, the result, the action


def _cell(text: str, role: str = "amount") -> QLabel:
    label = QLabel(text)
    label.setObjectName(role)
    return label


def _role(amount: int) -> str:
    return "pay" if amount > 0 else "collect" if amount < 0 else "return"


class RowsPanel(QFrame):
    """A page over the seats: a title, a note and the rows to settle on the left (scrolling down,
    never sideways); on the right what the page adds (`side_top`, `side_bottom`) above one large
    button that confirms the page. Built once; each showing changes only its texts."""

    confirmed = Signal()

    def __init__(self, button: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 10, 12, 10)
        layout.setSpacing(16)
        rows_box = self.rows_box = QVBoxLayout()
        # The title is one line, cut short with its words on the tooltip; the note breaks its own
        # lines: a word-wrapped label would make the whole screen's layout work out heights for
        # widths at every switch to this page.
        self.title = ElidedLabel(name="title")
        rows_box.addWidget(self.title)
        self.note = _cell("", "muted")
        rows_box.addWidget(self.note)
        self.check = ElidedLabel(name="reader", lines=3)  # the spots the payout check found wrong (RULES.md §8.24)
        self.check.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.check.hide()
        rows_box.addWidget(self.check)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.rows = SettlementTable(wrapping=WRAPPING)
        self.scroller.setWidget(self.rows)
        self.scroller.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        rows_box.addWidget(self.scroller, 1)
        layout.addLayout(rows_box, 3)
        side = QVBoxLayout()
        self.side_top, self.side_bottom = QVBoxLayout(), QVBoxLayout()
        side.addLayout(self.side_top)
        side.addStretch(1)
        side.addLayout(self.side_bottom)
        self.confirm = QPushButton(button)
        self.confirm.setObjectName("primary")
        self.confirm.setMinimumHeight(80)
        self.confirm.clicked.connect(self.confirmed)
        side.addWidget(self.confirm)
        layout.addLayout(side, 1)

    def show_note(self, text: str) -> None:
        self.note.setText(text)
        self.note.setVisible(bool(text))

    def show_check(self, differences: str, checked: bool = False) -> None:
        """The payout check's differences, a line a spot; the step stays open while there are any.
        Where the reader checks the payouts (`checked`) their place is kept from the start, saying
        so, and the rows never move under the dealer's finger when the check finds something."""
        hint = f"{self.confirm.text().split(' · ')[0]} checks every spot with the reader: leave the chips on them."
        self.check.setText(differences or (hint if checked else ""))
        set_flag(self.check, "warn", bool(differences))
        self.check.setVisible(bool(differences) or checked)


class SettlementPanel(RowsPanel):
    """The round's end: every row still to settle, each seat's net and the fees. The dealer
    confirms when every row is done; after a player-dealer's first round, with the same tap, that
    it keeps the bank for its second (RULES.md §5.6), which it says while it is paid.

    The largest settlement (seven seats of four split hands and a Buster each: 35 rows) cannot fit
    a 1280x800 screen at a size the dealer reads, so Done waits until every row has been on screen:
    it says which row to scroll to meanwhile."""

    bank_kept = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(DONE, parent)
        self.unseen: set[int] = set()  # the rows (1 for the first under the heading) not yet wholly on screen
        bar = self.scroller.verticalScrollBar()
        bar.valueChanged.connect(self._look)
        bar.rangeChanged.connect(self._look)
        self.scroller.viewport().installEventFilter(self)
        self.rows.installEventFilter(self)
        self.side_top.addWidget(_cell("Nets", "title"))
        self.nets = SettlementTable(margin=0, row_gap=4)
        self.side_top.addWidget(self.nets)
        # Its own short lines rather than word wrap, which would make the whole screen's layout
        # work out heights for widths at every page switch.
        self.fees = _cell("", "muted")
        self.side_bottom.addWidget(self.fees)
        # Under the rows, beside "Done": the side column is as tall as eight seats' nets allow.
        self.keep_bank = QPushButton()
        self.keep_bank.setObjectName("keep_bank")
        self.keep_bank.setMinimumHeight(80)
        self.keep_bank.clicked.connect(self.bank_kept)
        self.keep_bank.hide()
        self.rows_box.addWidget(self.keep_bank, 0, Qt.AlignmentFlag.AlignRight)

    def show_table(self, snap: TableSnapshot) -> None:
        """Only what differs from the round shown before is laid out and painted again."""
        dealer = snap.dealer
        cards = " ".join(card_text(c) for c in dealer.cards if c is not None)
        status = dealer.status.value.upper() if dealer.status is not None and dealer.status is not Status.UNDER else ""
        self.title.setText(f"Dealer's hand {cards}  =  {dealer.total} {status}".rstrip())  # the prompt: in order
        rows = settlement_rows(snap.settlement, snap)
        if rows != self.rows.rows:  # a new settlement is read from its first row
            self.rows.show_rows(rows)
            # At the same width the rows' widget is not resized, and the scroll area would keep
            # the range of the rows before: it is asked to measure them again.
            QCoreApplication.postEvent(self.scroller, QEvent(QEvent.Type.LayoutRequest))
            self.unseen = set(range(1, len(rows)))
            self.scroller.verticalScrollBar().setValue(0)
        self.show_note(settled_before(snap))
        nets = [[(f"Seat {s.seat}", "amount"), (signed(s.net), _role(s.net))] for s in snap.seats if s.net is not None]
        if snap.bank is not None and snap.bank.net is not None:
            nets.append([(f"PD seat {snap.bank.seat}", "amount"), (signed(snap.bank.net), _role(snap.bank.net))])
        self.nets.show_rows(nets)
        players, pd = snap.fees
        # taken before the deal
        self.fees.setText(f"Fees: players {money(players)} · PD {money(pd)}" if players or pd else "")
        second = snap.table.second_turn if snap.table is not None else None
        if snap.player_dealer_game:  # where it comes and goes, its place is kept
            hold_place(self.keep_bank)
        if second is not None:
            self.keep_bank.setText(f"Done · seat {second} keeps the bank")
        self.keep_bank.setVisible(second is not None)
        self._look()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:  # the rows laid out anew, or the room they have
            self._look()
        return super().eventFilter(watched, event)

    def read_through(self) -> None:
        """Scrolls on, each row not yet seen brought to the top in turn, until every row has been on
        screen: as the dealer reads a long settlement (autoplay and the pace benchmark do so). The
        layout asked for by the rows just shown is done first, so the scroll range is theirs."""
        QCoreApplication.sendPostedEvents(self.scroller, QEvent.Type.LayoutRequest)
        self._look()
        bar = self.scroller.verticalScrollBar()
        while self.unseen:
            target = min(self.rows.row_spans()[min(self.unseen)][0], bar.maximum())
            if target == bar.value():  # a row taller than the screen: no scroll shows it whole
                return
            bar.setValue(target)

    def _look(self) -> None:
        """The rows wholly on screen now are seen; Done is lit once every row has been."""
        if self.unseen:
            top = self.scroller.verticalScrollBar().value()
            bottom = top + self.scroller.viewport().height()
            spans = self.rows.row_spans()
            self.unseen -= {
                row for row in self.unseen if row < len(spans) and top <= spans[row][0] and spans[row][1] <= bottom
            }
        held = bool(self.unseen)
        text = f"↓ Scroll to row {self.rows.rows[max(self.unseen)][0][0]}" if held else DONE
        if self.confirm.text() != text:
            self.confirm.setText(text)
        self.confirm.setEnabled(not held)
        self.keep_bank.setEnabled(not held)


DONE = "Done · next round"


HEAD = [(text, "muted") for text in COLUMNS]


def settlement_rows(lines: tuple[Row, ...], snap: TableSnapshot) -> list[list[tuple[str, str]]]:
    """The heading and one row per wager still to settle, numbered in the order the dealer settles
    them (a row settled before the round ended keeps its number, and is not shown again)."""
    settled = snap.phase is Phase.SETTLED
    return [
        HEAD,
        *with_late_chips(
            [
                (line, _row(order, line, snap))
                for order, line in enumerate(lines, start=1)
                if not (settled and snap.was_settled_early(line))
            ],
            snap,
        ),
    ]


def with_late_chips(rows: list[tuple[Row, list[tuple[str, str]]]], snap: TableSnapshot) -> list[list[tuple[str, str]]]:
    """The rows, each spot's late chips in a row of their own under the spot's last (RULES.md §8.23):
    chips added after "No more bets" are not in play and go back to the player; chips taken off
    leave the closed wager standing. The payout check counts them either way."""
    late = {view.reading.spot: view.late_chips for view in snap.reader.spots if view.late_chips} if snap.reader else {}
    last = {row_spot(line): index for index, (line, _) in enumerate(rows)}
    shown = []
    for index, (line, cells) in enumerate(rows):
        shown.append(cells)
        spot = row_spot(line)
        if last[spot] == index and spot in late:
            why = "added late · not in play" if late[spot] > 0 else "the closed wager stands"
            shown.append(
                [
                    ("", "muted"),
                    (str(line.seat), "row"),
                    (SPOT_NAMES[spot.kind], "row"),
                    ("", "row"),
                    ("late", "row"),
                    (late_chips_back(late[spot]), "return"),
                    (why, "hand"),
                ]
            )
    return shown


def settled_before(snap: TableSnapshot) -> str:
    """'✓ Settled before: Lucky Lucky of seats 5, 6, 1;' and 'Natural of seat 2' below (RULES.md §5.4)."""
    seats: dict[Wager, list[str]] = {}
    for line in snap.settlement:
        if snap.was_settled_early(line):
            seats.setdefault(line.wager, []).append(str(line.seat))
    parts = [
        f"{EARLY_NAMES[wager]} of seat{'s' if len(each) > 1 else ''} {', '.join(each)}" for wager, each in seats.items()
    ]
    return "✓ Settled before: " + ";\n".join(parts) if parts else ""


EARLY_NAMES = {Wager.LUCKY_LUCKY: "Lucky Lucky", Wager.INSURANCE: "insurance", Wager.BASE: "Natural"}  # pass order


def _hand(line: Row, snap: TableSnapshot) -> str:
    """The cards behind a row's result: a base wager's hand and its total, a Lucky Lucky's two cards
    and the up card (RULES.md §2.17); other wagers say nothing here."""
    seat = snap.seat(line.seat)
    if line.wager is Wager.LUCKY_LUCKY and seat.lucky_cards:
        *two, up = seat.lucky_cards
        return f"{' '.join(card_text(c) for c in two)} + {card_text(up)}{NO_BREAK}up"
    hands = seat.hands
    if line.wager is not Wager.BASE or line.hand >= len(hands):
        return ""
    hand = hands[line.hand]
    total = "Natural" if hand.status is Status.NATURAL else total_text(hand.total, hand.soft)
    shown = f"= {total}".replace(" ", NO_BREAK)  # broken, the total keeps its line
    return f"{' '.join(card_text(c) for c in hand.cards)} {shown}"


def _row(order: int, line: Row, snap: TableSnapshot) -> list[tuple[str, str]]:
    wager = WAGER_NAMES[line.wager] + (f"{NO_BREAK}H{line.hand + 1}" if line.hand else "")
    action = settlement_action(line.amount, line.result, line.stake, line.in_action)
    return [
        (str(order), "muted"),
        (str(line.seat), "row"),
        (wager, "row"),
        (money(line.stake), "row"),
        (RESULT_WORDS[line.result], "row"),
        (action, _role(line.amount)),
        (_hand(line, snap), "hand"),
    ]

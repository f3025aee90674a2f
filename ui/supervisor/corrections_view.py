"""Corrections on the open round: void it, re-key a misread card, name a card out unread, discard a
misdealt card, confirm a peek checked by hand, accept what the payout check found as a mispay. Each names the
supervisor (from the table's roster
or typed) and a reason (from a short list or typed), on the screen's own keyboard; a void, a
discard and a re-key are asked once more before they are sent, once the name and the reason are
given (what is missing is said instead of asking). A correction the table is not in a state to
take is dimmed. The view only builds the input, the table checks the PIN and the rules, and any
refusal comes back to be shown here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.history.supervisor_snapshot import SupervisorSnapshot
from dealer_assist.rules.cards import RANKS, SUIT_SYMBOLS, SUITS, Card
from dealer_assist.rules.phases import Phase
from dealer_assist.table.session import TableInput
from dealer_assist.table.session_inputs import AcceptPayout, ConfirmPeek, DiscardMisdeal, KeyCard, RekeyCard, VoidRound
from dealer_assist.text.journal_text import card_code
from dealer_assist.text.reader_words import payout_difference
from ui.common.confirm_overlay import confirm
from ui.common.elided_label import ElidedLabel
from ui.common.notice_label import NoticeLabel
from ui.common.text import TABLE_STATES
from ui.common.touch_keyboard import TouchKeyboard

PICKS_PER_ROW = 7
REASONS = ("Card misread", "Card exposed", "Misdeal", "Device fault", "Dealer error")


@dataclass(frozen=True, slots=True)
class OpenRound:
    """What the corrections screen shows of the table now: the round and its cards, hole card masked."""

    status: str
    cards: tuple[str, ...]
    round_id: int | None = None
    misdeal: str = ""  # the held card, as the screen writes it
    peek_held: bool = False  # the round waits for the hole card checked by hand
    unread: bool = False  # a card left the shoe unread and waits to be named
    differences: tuple[str, ...] = ()  # what the payout check found, a supervisor may accept as mispays

    @classmethod
    def of(cls, snap: SupervisorSnapshot) -> OpenRound:
        misdeal = card_code(str(snap.misdeal)) if snap.misdeal is not None else ""
        held = f"   ·   misdeal held: {misdeal}" if misdeal else ""
        if snap.unread:
            held += f"   ·   out unread: shoe card {', '.join(str(n) for n in snap.unread)}"
        unread = bool(snap.unread)
        if snap.phase is None:
            return cls(
                f"No round is open: the table is {TABLE_STATES[snap.state]}{held}", (), None, misdeal, unread=unread
            )
        cards = tuple(
            f"Card {card['index'] + 1}  ·  {_place(card)}  ·  {card_code(card['card'])}" for card in snap.round_cards
        )
        differences = tuple(payout_difference(d.spot, d.held, d.due) for d in snap.payout_differences)
        if differences:
            held += f"   ·   payout check: {len(differences)} spot{'s' if len(differences) > 1 else ''} wrong"
        return cls(
            f"Round {snap.round_id} · {snap.phase.value.replace('_', ' ')}{held}",
            cards,
            snap.round_id,
            misdeal,
            snap.phase is Phase.HELD,
            unread,
            differences,
        )


def _place(card: dict[str, Any]) -> str:
    if card["seat"] is None:
        return "dealer"
    return f"seat {card['seat']}" + (f" hand {card['hand'] + 1}" if card["hand"] else "")


def _chips(texts: tuple[str, ...], field: QLineEdit, row: QHBoxLayout) -> None:
    """A button per text that puts it in `field`."""
    for text in texts:
        button = QPushButton(text)
        button.setObjectName("chip")
        button.clicked.connect(lambda _=False, t=text: field.setText(t))
        row.addWidget(button)


def _muted(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("muted")
    return label


def _picker(labels: dict[str, str], layout: QGridLayout, row: int, parent: QWidget) -> QButtonGroup:
    """Checkable keys, seven to a row from `row` on; the checked one carries its code."""
    group = QButtonGroup(parent)
    for number, (code, text) in enumerate(labels.items()):
        button = QPushButton(text)
        button.setObjectName("pick")
        button.setCheckable(True)
        button.setProperty("code", code)
        group.addButton(button)
        layout.addWidget(button, row + number // PICKS_PER_ROW, number % PICKS_PER_ROW)
    return group


class CorrectionsView(QWidget):
    """Emits `correction` with the supervisor's input; the outcome comes back to `notice` or `accepted`."""

    correction = Signal(object)

    def __init__(self, roster: tuple[str, ...] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.round_id: int | None = None
        root = QVBoxLayout(self)
        root.setContentsMargins(0, 10, 0, 0)
        self.status = ElidedLabel(name="title")
        root.addWidget(self.status)
        self.supervisor = QLineEdit()
        self.supervisor.setPlaceholderText("name or badge: tap a name or type one")
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("why: kept forever in the journal")
        self.typing = QPushButton("Done typing")
        self.typing.setObjectName("primary")
        self.typing.clicked.connect(self._stop_typing)
        self.typing.hide()
        for title, field, texts, stretch in (
            ("Supervisor", self.supervisor, roster, 2),
            ("Reason", self.reason, REASONS, 3),
        ):
            row = QHBoxLayout()
            label = QLabel(title)
            label.setMinimumWidth(130)
            row.addWidget(label)
            _chips(texts, field, row)
            row.addWidget(field, stretch)
            field.installEventFilter(self)
            root.addLayout(row)
        self.body = QStackedWidget()
        self.keyboard = TouchKeyboard()
        root.addWidget(self.body, 1)
        page = QWidget()
        body = QHBoxLayout(page)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(16)
        actions = QVBoxLayout()
        self.void = QPushButton("Void round")
        self.void.clicked.connect(self._void)
        self.discard = QPushButton("Discard misdealt card")
        self.discard.clicked.connect(self._discard)
        self.natural = QPushButton("Peek checked: Natural")
        self.natural.clicked.connect(lambda: self._send(ConfirmPeek(True, *self._who())))
        self.no_natural = QPushButton("Peek checked: no Natural")
        self.no_natural.clicked.connect(lambda: self._send(ConfirmPeek(False, *self._who())))
        self.accept_payout = QPushButton("Accept payout difference")
        self.accept_payout.clicked.connect(self._accept_payout)
        for button in (self.void, self.discard, self.natural, self.no_natural, self.accept_payout):
            actions.addWidget(button)
        actions.addStretch(1)
        body.addLayout(actions)
        cards = QVBoxLayout()
        cards.addWidget(_muted("Misread card"))
        self.cards = QListWidget()
        cards.addWidget(self.cards, 1)
        body.addLayout(cards, 1)
        right = QVBoxLayout()
        right.addWidget(_muted("The right card"))
        grid = QGridLayout()
        grid.setSpacing(6)
        self.ranks = _picker({rank: "10" if rank == "T" else rank for rank in RANKS}, grid, 0, self)
        self.suits = _picker({suit: SUIT_SYMBOLS[suit] for suit in SUITS}, grid, 2, self)
        right.addLayout(grid)
        self.rekey = QPushButton("Re-key the chosen card")
        self.rekey.setObjectName("primary")
        self.rekey.clicked.connect(self._rekey)
        right.addWidget(self.rekey)
        self.name_card = QPushButton("Name the card out unread")
        self.name_card.clicked.connect(self._name_card)
        right.addWidget(self.name_card)
        right.addStretch(1)
        body.addLayout(right)
        self.body.addWidget(page)
        typing = QWidget()
        keys = QVBoxLayout(typing)
        keys.setContentsMargins(0, 6, 0, 0)
        keys.addWidget(self.keyboard, 1)
        keys.addWidget(self.typing)
        self.body.addWidget(typing)
        self.notice = NoticeLabel()
        root.addWidget(self.notice)
        self.misdeal = ""
        self.differences: tuple[str, ...] = ()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """A tap on a text field opens the keyboard on it."""
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(watched, QLineEdit):
            self.type_into(watched)
        return False

    def type_into(self, field: QLineEdit) -> None:
        self.keyboard.type_into(field)
        field.setFocus()
        self.body.setCurrentIndex(1)
        self.typing.show()

    def _stop_typing(self) -> None:
        self.body.setCurrentIndex(0)
        self.typing.hide()

    def show_round(self, round_now: OpenRound) -> None:
        self.round_id = round_now.round_id
        self.misdeal = round_now.misdeal
        self.differences = round_now.differences
        self.status.setText(round_now.status)
        chosen = self.cards.currentRow()
        self.cards.clear()
        self.cards.addItems(round_now.cards or ("No cards dealt",))
        if 0 <= chosen < len(round_now.cards):
            self.cards.setCurrentRow(chosen)
        self.void.setEnabled(round_now.round_id is not None)
        self.discard.setEnabled(bool(round_now.misdeal))
        self.natural.setEnabled(round_now.peek_held)
        self.no_natural.setEnabled(round_now.peek_held)
        self.rekey.setEnabled(bool(round_now.cards))
        self.name_card.setEnabled(round_now.unread)
        self.accept_payout.setEnabled(bool(round_now.differences))

    def accepted(self, message: str) -> None:
        """After a correction the table took: the reason is spent, the picks are cleared."""
        self.reason.clear()
        self.notice.done(message)

    def _who(self) -> tuple[str, str]:
        return self.supervisor.text().strip(), self.reason.text()

    def _missing(self) -> str:
        """What a correction lacks before it is asked: the supervisor's name, a reason, or both."""
        name, reason = self._who()
        if not name and not reason.strip():
            return "Name the supervisor and give a reason first"
        if not name:
            return "Name the supervisor first: tap a name or type one"
        if not reason.strip():
            return "Give a reason first: tap one or type it"
        return ""

    def _lacks(self) -> bool:
        """Says what a correction lacks, if anything, so that nothing incomplete is asked or sent."""
        missing = self._missing()
        if missing:
            self.notice.refuse(missing)
        return bool(missing)

    def _send(self, event: TableInput) -> None:
        """A correction that needs no second question (its facts are on the device), checked first."""
        if not self._lacks():
            self.correction.emit(event)

    def _ask(self, question: str, detail: str, action: str, event: TableInput) -> None:
        """Ask once more before `event` is sent, or say what it lacks instead of asking."""
        if self._lacks():
            return
        name, reason = self._who()
        confirm(
            self,
            question,
            f"{detail} Kept for good in the journal: supervisor {name}, reason {reason.strip()}.",
            action,
            lambda: self.correction.emit(event),
        )

    def _void(self) -> None:
        self._ask(
            f"Void round {self.round_id}?",
            "Every wager of the round goes back and the round ends without a ledger.",
            "Void the round",
            VoidRound(*self._who()),
        )

    def _discard(self) -> None:
        self._ask(
            f"Discard the misdealt card {self.misdeal}?",
            "The card leaves the round and is not dealt to anyone.",
            "Discard the card",
            DiscardMisdeal(*self._who()),
        )

    def _accept_payout(self) -> None:
        self._ask(
            "Accept the payout difference?",
            "\n".join(self.differences) + "\nThe step ends and each difference is kept with the round as a mispay.",
            "Accept as a mispay",
            AcceptPayout(*self._who()),
        )

    def _picked(self) -> Card | None:
        rank, suit = self.ranks.checkedButton(), self.suits.checkedButton()
        if rank is None or suit is None:
            return None
        return Card(str(rank.property("code")), str(suit.property("code")))

    def _rekey(self) -> None:
        card, index = self._picked(), self.cards.currentRow()
        if card is None or index < 0:
            self.notice.refuse("Pick the card of the round, then the right rank and suit")
            return
        was = self.cards.item(index).text()
        self._ask(
            f"Re-key card {index + 1} as {card_code(str(card))}?",
            f"{was} becomes {card_code(str(card))}; the round is worked out again from that card.",
            "Re-key the card",
            RekeyCard(index, card, *self._who()),
        )

    def _name_card(self) -> None:
        card = self._picked()
        if card is None:
            self.notice.refuse("Pick the rank and suit of the card out unread")
            return
        self._send(KeyCard(card, *self._who()))

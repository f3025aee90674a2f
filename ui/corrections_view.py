"""Corrections on the open round: void it, re-key a misread card, name a card out unread, discard a
misdealt card, confirm a peek checked by hand. Each names the supervisor and a typed reason; the
view only builds the input, the table checks the PIN and the rules, and any refusal comes back
to be shown here."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPushButton, QVBoxLayout, QWidget,
)

from dealer_assist.cards import RANKS, SUITS, Card
from dealer_assist.session_inputs import ConfirmPeek, DiscardMisdeal, KeyCard, RekeyCard, VoidRound
from dealer_assist.journal_text import card_code
from dealer_assist.supervisor_snapshot import SupervisorSnapshot
from ui.notice_label import NoticeLabel
from ui.text import SUIT_SYMBOLS, TABLE_STATES


PICKS_PER_ROW = 7


@dataclass(frozen=True, slots=True)
class OpenRound:
    """What the corrections screen shows of the table now: the round and its cards, hole card masked."""

    status: str
    cards: tuple[str, ...]

    @classmethod
    def of(cls, snap: SupervisorSnapshot) -> OpenRound:
        held = f"   ·   misdeal held: {card_code(str(snap.misdeal))}" if snap.misdeal is not None else ""
        if snap.unread:
            held += f"   ·   out unread: shoe card {', '.join(str(n) for n in snap.unread)}"
        if snap.phase is None:
            return cls(f"No round is open: the table is {TABLE_STATES[snap.state]}{held}", ())
        cards = tuple(f"Card {card['index'] + 1}  ·  {_place(card)}  ·  {card_code(card['card'])}" for card in snap.round_cards)
        return cls(f"Round {snap.round_id} · {snap.phase.value.replace('_', ' ')}{held}", cards)


def _place(card: dict[str, Any]) -> str:
    if card["seat"] is None:
        return "dealer"
    return f"seat {card['seat']}" + (f" hand {card['hand'] + 1}" if card["hand"] else "")


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

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        root = QVBoxLayout(self)
        root.setContentsMargins(0, 10, 0, 0)
        self.status = QLabel("")
        self.status.setObjectName("title")
        root.addWidget(self.status)
        who = QHBoxLayout()
        who.addWidget(QLabel("Supervisor"))
        self.supervisor = QLineEdit()
        self.supervisor.setPlaceholderText("name or badge")
        who.addWidget(self.supervisor, 1)
        who.addWidget(QLabel("Reason"))
        self.reason = QLineEdit()
        self.reason.setPlaceholderText("why: kept forever in the journal")
        who.addWidget(self.reason, 3)
        root.addLayout(who)
        body = QHBoxLayout()
        body.setSpacing(16)
        actions = QVBoxLayout()
        self.void = QPushButton("Void round")
        self.void.clicked.connect(lambda: self.correction.emit(VoidRound(*self._who())))
        self.discard = QPushButton("Discard misdealt card")
        self.discard.clicked.connect(lambda: self.correction.emit(DiscardMisdeal(*self._who())))
        self.natural = QPushButton("Peek checked: Natural")
        self.natural.clicked.connect(lambda: self.correction.emit(ConfirmPeek(True, *self._who())))
        self.no_natural = QPushButton("Peek checked: no Natural")
        self.no_natural.clicked.connect(lambda: self.correction.emit(ConfirmPeek(False, *self._who())))
        for button in (self.void, self.discard, self.natural, self.no_natural):
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
        root.addLayout(body, 1)
        self.notice = NoticeLabel()
        root.addWidget(self.notice)

    def show_round(self, round_now: OpenRound) -> None:
        self.status.setText(round_now.status)
        chosen = self.cards.currentRow()
        self.cards.clear()
        self.cards.addItems(round_now.cards or ("No cards dealt",))
        if 0 <= chosen < len(round_now.cards):
            self.cards.setCurrentRow(chosen)

    def accepted(self, message: str) -> None:
        """After a correction the table took: the reason is spent, the picks are cleared."""
        self.reason.clear()
        self.notice.done(message)

    def _who(self) -> tuple[str, str]:
        return self.supervisor.text().strip(), self.reason.text()

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
        self.correction.emit(RekeyCard(index, card, *self._who()))

    def _name_card(self) -> None:
        card = self._picked()
        if card is None:
            self.notice.refuse("Pick the rank and suit of the card out unread")
            return
        self.correction.emit(KeyCard(card, *self._who()))

"""The dealer's hand in front of the tray, with the player-dealer's bank (the net is on the settlement)."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from dealer_assist.table.snapshot import TableSnapshot
from dealer_assist.text.journal_text import money
from ui.common.text import total_text
from ui.dealer.card_widget import CardRow


class DealerHandPanel(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dealer")
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)  # the seats' columns set its width
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 8)
        layout.setSpacing(4)
        head = QHBoxLayout()
        self.title = QLabel("Dealer")
        self.title.setObjectName("seatName")
        self.turn = QLabel("")
        self.turn.setObjectName("button")
        self.turn.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.bank = QLabel("")
        self.bank.setObjectName("amount")
        head.addWidget(self.title)
        head.addWidget(self.turn)
        head.addStretch(1)
        head.addWidget(self.bank)
        layout.addLayout(head)
        body = QHBoxLayout()
        self.cards = CardRow(4.0)
        self.total = QLabel("")
        self.total.setObjectName("big")
        body.addWidget(self.cards, 1)
        body.addWidget(self.total)
        layout.addLayout(body)

    def show_table(self, snap: TableSnapshot) -> None:
        dealer = snap.dealer
        self.cards.show_cards(dealer.cards)
        total = total_text(dealer.total, dealer.soft)
        if dealer.hole_hidden and total:
            total += " + ?"
        elif dealer.status is not None and dealer.status.value != "under":
            total += f"  {dealer.status.value.upper()}"
        self.total.setText(total)
        bank = snap.bank
        turn = snap.table.pd_turn if snap.table is not None else None
        self.turn.setVisible(turn is not None)
        self.turn.setText({1: "1st turn", 2: "2nd turn"}.get(turn or 0, ""))
        if bank is None:
            self.title.setText("Player-dealer" if snap.player_dealer_game else "Dealer")
            self.bank.setText("bank not taken yet" if snap.player_dealer_game else "house-banked")
            return
        self.title.setText(f"Player-dealer · seat {bank.seat}")
        self.bank.setText(f"Bank {money(bank.bank)}")

"""One player hand in play: its cards, their total, its stake and how it ended."""

from __future__ import annotations

from dealer_assist.rules.cards import Card
from dealer_assist.rules.money import Cents
from dealer_assist.rules.operations import CardUse, EndReason
from dealer_assist.rules.totals import hand_total, is_natural_pair


class PlayerHand:
    """Mutable inside the round tracker only; the screens and the settlement read it."""

    __slots__ = (
        "cards",
        "total",
        "stake",
        "double",
        "from_split",
        "split_aces",
        "surrendered",
        "ended",
        "forced",
        "confirmed",
    )

    def __init__(self, cards: list[Card], stake: Cents, from_split: bool = False, split_aces: bool = False):
        self.cards = cards
        self.total = hand_total(cards)  # counted when the cards change, read by every rule check
        self.stake = stake
        self.double: Cents = 0
        self.from_split = from_split
        self.split_aces = split_aces
        self.surrendered = False
        self.ended: EndReason | None = None
        self.forced = False
        self.confirmed = False

    @property
    def natural(self) -> bool:
        return not self.from_split and is_natural_pair(self.cards)

    def card_due(self) -> CardUse | None:
        """The card the hand takes before any decision: a split hand's second, a double's one."""
        if len(self.cards) < 2:
            return CardUse.SPLIT_HAND
        if self.double and len(self.cards) == 2:
            return CardUse.DOUBLE
        return None

    def add(self, card: Card) -> None:
        self.cards.append(card)
        self.total = hand_total(self.cards)

    def split_off(self) -> Card:
        """The second card leaves for the new hand of a split."""
        card = self.cards.pop()
        self.total = hand_total(self.cards)
        return card

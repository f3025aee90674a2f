"""Cards as the shoe reports them: rank `A23456789TJQK` (also `10`) then suit `SHDC`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from dealer_assist.rules.refusals import InputError, Refusal

__all__ = ["Card", "RANKS", "SUITS", "SUIT_SYMBOLS", "TEN_VALUES", "card_text", "check_copies", "parse_card"]

RANKS = "A23456789TJQK"
SUITS = "SHDC"
TEN_VALUES = frozenset("TJQK")
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str

    @property
    def value(self) -> int:
        """Blackjack point value; an Ace is 1 here and promoted to 11 by hand totals."""
        if self.rank == "A":
            return 1
        if self.rank in TEN_VALUES:
            return 10
        return int(self.rank)

    @property
    def is_ace(self) -> bool:
        return self.rank == "A"

    @property
    def is_ten_value(self) -> bool:
        return self.rank in TEN_VALUES

    @property
    def button_value(self) -> int:
        """Action-button count (RULES.md §2.16): A 1, 2-9 face, T 10, J 11, Q 12, K 13."""
        return RANKS.index(self.rank) + 1

    def __str__(self) -> str:
        return self.rank + self.suit


def card_text(card: Card) -> str:
    """A card as people read it ("10♠"); its code ("TS") is for the journal and the devices."""
    rank = "10" if card.rank == "T" else card.rank
    return rank + SUIT_SYMBOLS[card.suit]


_BY_CODE: dict[str, Card] = {rank + suit: Card(rank, suit) for rank in RANKS for suit in SUITS}


def parse_card(text: object) -> Card:
    """'TS', '10S', 'ah' -> Card; anything else is an error that names the text."""
    known = _BY_CODE.get(text) if isinstance(text, str) else None
    if known is not None:
        return known
    if not isinstance(text, str):
        raise InputError(Refusal.BAD_CARD, f"card {text!r} is not a string like 'TS'", None)
    code = text.strip().upper()
    if code.startswith("10"):
        code = "T" + code[2:]
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise InputError(
            Refusal.BAD_CARD, f"card {text!r} is not a rank of {RANKS} (or 10) and a suit of {SUITS}", None
        )
    return Card(code[0], code[1])


def check_copies(cards: Iterable[Card], decks: int) -> None:
    """No card may appear more often than the shoe's decks hold (RULES.md §8.12)."""
    for card, count in Counter(cards).items():
        if count > decks:
            raise InputError(
                Refusal.IMPOSSIBLE_CARD,
                f"card {card} appears {count} times but a {decks}-deck shoe holds {decks}",
                "8.12",
            )

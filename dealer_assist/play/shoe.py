"""A shuffled shoe of N decks with a cut card, for random play, benches and analysis."""

from __future__ import annotations

import random

from dealer_assist.rules.cards import RANKS, SUITS, Card

__all__ = ["FULL_DECK", "Shoe"]

FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


class Shoe:
    """Deals cards in order; `cut_reached` says the round in progress is the shoe's last."""

    def __init__(self, decks: int, rng: random.Random, penetration: float = 0.75) -> None:
        self.decks = decks
        self.rng = rng
        self.penetration = penetration
        self.number = 0
        self.shuffle()

    def shuffle(self) -> None:
        self.cards = list(FULL_DECK) * self.decks
        self.rng.shuffle(self.cards)
        self.dealt = 0
        self.cut_at = int(len(self.cards) * self.penetration)
        self.number += 1

    @property
    def cut_reached(self) -> bool:
        return self.dealt >= self.cut_at

    def draw(self) -> Card:
        if self.dealt >= len(self.cards):
            raise RuntimeError(f"shoe {self.number} is empty after {self.dealt} cards")
        card = self.cards[self.dealt]
        self.dealt += 1
        return card

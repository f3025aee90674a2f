"""Emulated devices on pseudo-terminals for a table without hardware (`dealer-assist run`).

The shoe and the peek reader are the wire emulators of `hw_sims`, served on pseudo-terminals;
the screen reaches them through the same device adapters as a real table. The bench panel only
plays the dealer's hand on the shoe: it pulls the next card, or puts a new shoe in.
"""
from __future__ import annotations

import time

from dealer_assist.cards import Card
from dealer_assist.shoe import Shoe
from hw_sims.endpoints import PtyEndpoint
from hw_sims.peek import PeekEmulator
from hw_sims.shoe import ShoeEmulator


SEEN_WITHIN_S = 1.0


class WireDevices:
    def __init__(self, decks: int, hole_card: bool, seed: int | None) -> None:
        self.shoe = ShoeEmulator(PtyEndpoint(), cards=[], decks=decks, announce=False, pace=None, seed=seed or 0)
        self.peek = PeekEmulator(PtyEndpoint(), seed=seed or 0) if hole_card else None

    @property
    def shoe_url(self) -> str:
        return self.shoe.endpoint.url

    @property
    def peek_url(self) -> str | None:
        return self.peek.endpoint.url if self.peek else None

    def start(self) -> None:
        self.shoe.start()
        if self.peek:
            self.peek.start()

    def stop(self) -> None:
        self.shoe.stop()
        if self.peek:
            self.peek.stop()

    def resume(self, shoe: Shoe, shoe_id: str) -> None:
        """Before `start`: the shoe in the journal stays in, its next card numbered on."""
        decks = self.shoe.decks
        self.shoe = ShoeEmulator(PtyEndpoint(), cards=shoe.cards, decks=decks, shoe_id=shoe_id, start_at=shoe.dealt,
                                 cut=shoe.cut_at, announce=False, pace=None)

    def load(self, shoe: Shoe) -> None:
        self.shoe.sim_load_shoe(shoe.cards, f"BENCH-{shoe.number}", shoe.cut_at)

    def pull(self, card: Card, hole_card: bool) -> None:
        """The dealer pulls `card`; the peek reader sees it first when it is the hole card."""
        if hole_card and self.peek:
            self.peek.sim_set_hole_card(card)
            deadline = time.monotonic() + SEEN_WITHIN_S
            while self.peek.hole_card != card and time.monotonic() < deadline:
                time.sleep(0.001)  # the reader sees the card before the card leaves the shoe
        self.shoe.sim_deal_next()

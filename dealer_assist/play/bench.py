"""A headless table that plays whole rounds by itself: emulated shoe, random wagers and decisions.

Every choice is a function of the seed and of where the table stands (shoe, round, input count),
never of how often the program was started; so a bench killed at any moment and resumed from
its journal produces exactly the inputs an uninterrupted run would have.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dealer_assist.play.random_play import RandomPolicy, random_wagers
from dealer_assist.play.round_driver import at_the_table, next_input
from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import PlaceWager
from dealer_assist.rules.phases import Phase
from dealer_assist.table.session import TableInput, TableState
from dealer_assist.table.session_inputs import (
    BankAccepted,
    BankRefused,
    CutCardReached,
    SettlementConfirmed,
    ShoeLoaded,
)
from dealer_assist.table.table_facts import TableFacts

__all__ = ["BenchPlayer", "EmulatedShoe"]

BANKS = (20_000, 50_000, 100_000, 200_000)
SUPERVISOR = "bench"  # who checks a hole card by hand at the bench


@dataclass
class EmulatedShoe:
    """The seeded shoe `shoe_id` of this bench, positioned after `dealt` cards."""

    seed: int
    shoe_id: str
    decks: int

    def __post_init__(self) -> None:
        self.shoe = Shoe(self.decks, random.Random(f"{self.seed}:{self.shoe_id}"))

    def card(self, dealt: int) -> Card:
        return self.shoe.cards[dealt]

    def cut_reached(self, dealt: int) -> bool:
        return dealt >= self.shoe.cut_at


class BenchPlayer:
    """Chooses the next input for a table from its facts: the dealer, the players and the shoe at
    once; a check by hand comes as the bench supervisor's confirmation (`round_driver.at_the_table`)."""

    def __init__(self, seed: int, shoe_reports_cut: bool = False) -> None:
        self.seed = seed
        self.shoe_reports_cut = shoe_reports_cut  # a real or wire-emulated shoe sends its own CUT
        self._shoe: EmulatedShoe | None = None

    def shoe(self, facts: TableFacts) -> EmulatedShoe:
        if self._shoe is None or self._shoe.shoe_id != facts.shoe_id:
            assert facts.shoe_id is not None
            self._shoe = EmulatedShoe(self.seed, facts.shoe_id, facts.shoe_decks)
        return self._shoe

    def wagers(self, facts: TableFacts) -> list[PlaceWager]:
        """The open round's wagers, as its players put them down."""
        assert facts.round is not None
        return random_wagers(facts.round, random.Random(f"{self.seed}:wagers:{facts.round_id}"))

    def next_input(self, facts: TableFacts) -> TableInput:
        state = facts.state
        if state is TableState.NEEDS_SHOE:
            number = int(facts.shoe_id.rsplit("-", 1)[1]) + 1 if facts.shoe_id else 1
            return ShoeLoaded(f"S{self.seed}-{number}", facts.profile.decks)
        shoe = self.shoe(facts)
        if not self.shoe_reports_cut and shoe.cut_reached(facts.shoe_cards) and not facts.new_shoe_due:
            return CutCardReached(facts.shoe_cards)  # the shoe reports its cut card as it comes out
        round_ = facts.round
        if state is TableState.ROUND and round_ is not None and round_.phase is Phase.SETTLED:
            return SettlementConfirmed()
        if state is TableState.OFFERING_BANK:
            assert facts.offer_seat is not None
            rng = random.Random(f"{self.seed}:bank:{facts.round_id}:{len(facts.declined)}")
            if rng.random() < 0.6 or len(facts.declined) >= facts.seats - 2:
                return BankAccepted(facts.offer_seat, rng.choice(BANKS))
            return BankRefused(facts.offer_seat)
        assert round_ is not None
        wagers = self.wagers(facts)
        placed = sum(isinstance(e, PlaceWager) for e in facts.round_inputs)
        rng = random.Random(f"{self.seed}:{facts.round_id}:{len(facts.round_inputs)}")
        policy = RandomPolicy(rng, lambda: shoe.card(facts.shoe_cards), wagers[placed:])
        event = at_the_table(next_input(round_, policy), SUPERVISOR)
        assert event is not None, "a settled round is confirmed above"
        return event

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
from dealer_assist.table.session import TableInput, TableSession, TableState
from dealer_assist.table.session_inputs import BankAccepted, BankRefused, CutCardReached, SettlementConfirmed, ShoeLoaded

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
    """Chooses the next input for a table session: the dealer, the players and the shoe at once;
    a check by hand comes as the bench supervisor's confirmation (`round_driver.at_the_table`)."""

    def __init__(self, seed: int, shoe_reports_cut: bool = False) -> None:
        self.seed = seed
        self.shoe_reports_cut = shoe_reports_cut  # a real or wire-emulated shoe sends its own CUT
        self._shoe: EmulatedShoe | None = None

    def shoe(self, session: TableSession) -> EmulatedShoe:
        s = session.s
        if self._shoe is None or self._shoe.shoe_id != s.shoe_id:
            assert s.shoe_id is not None
            self._shoe = EmulatedShoe(self.seed, s.shoe_id, s.shoe_decks)
        return self._shoe

    def wagers(self, session: TableSession) -> list[PlaceWager]:
        """The open round's wagers, as its players put them down."""
        assert session.tracker is not None
        return random_wagers(session.tracker, random.Random(f"{self.seed}:wagers:{session.s.round_id}"))

    def next_input(self, session: TableSession) -> TableInput:
        state = session.state
        s = session.s
        if state is TableState.NEEDS_SHOE:
            number = int(s.shoe_id.rsplit("-", 1)[1]) + 1 if s.shoe_id else 1
            return ShoeLoaded(f"S{self.seed}-{number}", session.profile.decks)
        shoe = self.shoe(session)
        if not self.shoe_reports_cut and shoe.cut_reached(s.shoe_cards) and not s.new_shoe_due:
            return CutCardReached(s.shoe_cards)  # the shoe reports its cut card as it comes out
        if state is TableState.ROUND and session.tracker is not None and session.tracker.phase is Phase.SETTLED:
            return SettlementConfirmed()
        if state is TableState.OFFERING_BANK:
            assert s.offer_seat is not None
            rng = random.Random(f"{self.seed}:bank:{s.round_id}:{len(s.declined)}")
            if rng.random() < 0.6 or len(s.declined) >= session.seats - 2:
                return BankAccepted(s.offer_seat, rng.choice(BANKS))
            return BankRefused(s.offer_seat)
        tracker = session.tracker
        assert tracker is not None
        wagers = self.wagers(session)
        placed = sum(isinstance(e, PlaceWager) for e in session.round_inputs)
        rng = random.Random(f"{self.seed}:{s.round_id}:{len(session.round_inputs)}")
        event = at_the_table(next_input(tracker, RandomPolicy(rng, lambda: shoe.card(s.shoe_cards), wagers[placed:])), SUPERVISOR)
        assert event is not None, "a settled round is confirmed above"
        return event

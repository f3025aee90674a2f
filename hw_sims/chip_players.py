"""The bench's players at a table with a wager reader (RULES.md §8.22-8.24): chips, not keyed wagers.

The bench player chooses as at any table; here its wagers, the bank offered, insurance, the stake
of a double or a split are chips put on the emulated reader's spots, and before the dealer taps
Paid each spot settled in the step is given what the settlement leaves on it. The table takes it
all from the reader over its link, as it would from players at the felt.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dealer_assist.rules.inputs import Action, Decide, Insure, NoMoreBets, PaymentsMade, PlaceWager
from dealer_assist.rules.money import Cents
from dealer_assist.rules.phases import Phase
from dealer_assist.table.readings import CHIP_DECISIONS, WAGER_SPOTS
from dealer_assist.table.session import TableInput
from dealer_assist.table.session_inputs import BankAccepted, SettlementConfirmed
from dealer_assist.table.spots import BANK, Spot, SpotKind
from dealer_assist.table.table_facts import TableFacts
from devices.table_owner.controller import TableController
from hw_sims.wagers import WagerEmulator, chips_for

Wait = Callable[[Callable[[], bool], str], None]
CHIP_INPUTS = (PlaceWager, NoMoreBets, BankAccepted, Decide, Insure, PaymentsMade, SettlementConfirmed)


class ChipPlayers:
    """`play` makes one move of the bench player's as chips; `wait` pumps the table until a condition
    holds; `dealer` gives the dealer's own part of the move ("No more bets", the bank taken, a double's
    or a split's tap, "Paid"): straight to the table controller by default, or as a tap on the screen."""

    def __init__(
        self,
        controller: TableController,
        reader: WagerEmulator,
        wagers: Callable[[TableFacts], list[PlaceWager]],
        wait: Wait,
        dealer: Callable[[TableInput], None] | None = None,
    ) -> None:
        self.controller = controller
        self.reader = reader
        self.wagers = wagers
        self.wait = wait
        self.facts = controller.facts
        self.dealer = dealer if dealer is not None else self._submit

    def plays(self, event: TableInput) -> bool:
        """Whether this move is made with chips at this table."""
        if not isinstance(event, CHIP_INPUTS):
            return False
        if isinstance(event, Decide):
            return event.action in CHIP_DECISIONS
        return True

    def play(self, event: TableInput) -> None:
        self.wait(lambda: bool(self.facts().reader_spots), "the wager reader's scan")
        match event:
            case PlaceWager() | NoMoreBets():
                self._bet()
            case BankAccepted(bank=bank):
                self._place({BANK: bank})
                self.dealer(event)
            case Decide(seat=seat, hand=hand, action=action, amount=amount):
                round_ = self.facts().round
                stake = round_.hands[seat][hand].stake if round_ is not None else 0
                self.dealer(Decide(seat, hand, action))
                spot = Spot(seat, SpotKind.BASE)
                self.reader.sim_add(spot, chips_for(amount if action is Action.DOUBLE and amount else stake))
                self.wait(lambda: not self.facts().chips_awaited, f"the {action}'s chips")
            case Insure(seat=seat, amount=amount):
                self._place({Spot(seat, SpotKind.INSURANCE): amount})
                self.wait(lambda: self._insured(seat) == amount, "the insurance's chips")
            case PaymentsMade() | SettlementConfirmed():
                self._paid(event)

    def _bet(self) -> None:
        """Every read spot of the round's seats given its wager, the others cleared (insurance
        paid last round included); then "No more bets"."""
        facts = self.facts()
        wanted = {Spot(w.seat, WAGER_SPOTS[w.kind]): w.amount for w in self.wagers(facts)}
        self._place({spot: wanted.get(spot, 0) for spot in facts.reader_spots if spot.seat is not None})
        self.dealer(NoMoreBets())
        self.wait(lambda: self._betting_closed(facts.round_id), "the wagers to close at the scan")

    def _betting_closed(self, round_id: int) -> bool:
        facts = self.facts()
        return facts.round_id != round_id or facts.round is None or facts.round.phase is not Phase.BETTING

    def _insured(self, seat: int) -> Cents | None:
        round_ = self.facts().round
        return round_.insurance.get(seat, 0) if round_ is not None else None

    def _paid(self, event: TableInput) -> None:
        """Each spot settled in the step given what it must hold, then Paid, checked at the reader's scan."""
        self._place(self.facts().settling)
        records = self.controller.records_written
        self.dealer(event)
        self.wait(
            lambda: self.controller.scanning is None and self.controller.records_written > records, "the payout check"
        )
        found = self.facts().differences
        if found:
            raise AssertionError(f"the payout check found differences the bench did not make: {found}")

    def _place(self, chips: Mapping[Spot, Cents]) -> None:
        """Each spot now holds its chips, put down at once as the players at a table do; once the
        table has read them all."""

        def read() -> dict[Spot, Cents]:
            readings = self.facts().readings
            return {spot: readings[spot].amount if spot in readings else 0 for spot in chips}

        held = read()
        moved = {
            spot: cents for spot, cents in sorted(chips.items(), key=lambda item: str(item[0])) if held[spot] != cents
        }
        for spot, cents in moved.items():
            self.reader.sim_place(spot, chips_for(cents))
        self.wait(lambda: read() == dict(chips), ", ".join(f"{spot} to read {cents}" for spot, cents in moved.items()))

    def _submit(self, event: TableInput) -> None:
        refused = self.controller.submit(event)
        if refused is not None:
            raise refused

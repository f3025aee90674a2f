"""The bench table over real links: the emulated shoe and peek device on pseudo-terminals.

The bench decides what the dealer and the players do, exactly as in-process; but every card
leaves the emulated shoe as a wire frame when the bench pulls it, crosses a pseudo-terminal,
and reaches the table through the shoe adapter, the card-stop and the journal; the peek device
answers over its own link. A restarted bench powers the shoe up mid-shoe where the journal says.
"""
from __future__ import annotations

from dealer_assist.bench import BenchPlayer, EmulatedShoe
from dealer_assist.inputs import CardDrawn
from dealer_assist.session_inputs import ConfirmPeek, ShoeLoaded
from dealer_assist.table import Table
from dealer_assist.tracker import Need
from devices.linked_table import LinkedTable
from hw_sims.endpoints import PtyEndpoint
from hw_sims.peek import PeekEmulator
from hw_sims.shoe import ShoeEmulator

WAIT = 10.0
BENCH_PIN = "0000"
SUPERVISOR = "bench"


class LinkedBench:
    def __init__(self, table: Table, seed: int) -> None:
        self.table = table
        self.player = BenchPlayer(seed, shoe_reports_cut=True)
        session = table.session
        decks = session.profile.decks
        if session.s.shoe_id is not None:
            current = self.player.shoe(session)
            self.shoe = ShoeEmulator(PtyEndpoint(), cards=current.shoe.cards, shoe_id=current.shoe_id, decks=decks,
                                     start_at=session.s.shoe_cards, cut=current.shoe.cut_at, pace=None, seed=seed,
                                     announce=False)  # the journal already has this shoe
        else:
            self.shoe = ShoeEmulator(PtyEndpoint(), cards=[], decks=decks, announce=False, pace=None, seed=seed)
        self.peek = PeekEmulator(PtyEndpoint(), seed=seed) if session.profile.dealer_hole_card else None
        tracker = session.tracker
        hole = 2 - session.profile.dealer_up_card  # the index of the hole card in the dealer's hand
        if self.peek is not None and tracker is not None and len(tracker.dealer) > hole:
            self.peek.sim_set_hole_card(tracker.dealer[hole])  # still under the reader after a restart
        self.linked = LinkedTable(table, self.shoe.endpoint.url, self.peek.endpoint.url if self.peek else None)
        if table.pins.digest is None:
            table.set_pin(BENCH_PIN)

    def start(self) -> None:
        self.shoe.start()
        if self.peek is not None:
            self.peek.start()
        self.linked.start()

    def stop(self) -> None:
        self.linked.stop()
        self.shoe.stop()
        if self.peek is not None:
            self.peek.stop()

    def step(self) -> None:
        """One move of the table: a device answer awaited, or one input made."""
        session = self.table.session
        tracker = session.tracker
        need = tracker.awaiting().need if tracker is not None else None
        if need is Need.PEEK:
            self._wait(lambda: tracker.awaiting().need is not Need.PEEK, "the peek device's answer")
            return
        if need is Need.CHECK_BY_HAND:
            natural = tracker.expected_peek_answer().value == "natural"
            self.table.supervise(ConfirmPeek(natural, SUPERVISOR, "checked by hand on the bench"), BENCH_PIN)
            self.linked.feed.sync(session)
            return
        event = self.player.next_input(session)
        if isinstance(event, ShoeLoaded):
            shoe = EmulatedShoe(self.player.seed, event.shoe_id, event.decks)
            self.shoe.sim_load_shoe(shoe.shoe.cards, event.shoe_id, shoe.shoe.cut_at)
            self._wait(lambda: session.s.shoe_id == event.shoe_id, "the new shoe")
        elif isinstance(event, CardDrawn):
            if tracker is not None and tracker.next_card_is_hole_card() and self.peek is not None:
                peek = self.peek
                peek.sim_set_hole_card(event.card)  # the reader sits under the hole card
                self._wait(lambda: peek.hole_card == event.card, "the peek reader to see the hole card")
            before = session.s.shoe_cards
            self.shoe.sim_deal_next()
            self._wait(lambda: session.s.shoe_cards > before, f"card {before + 1} from the shoe")
            if session.s.shoe_cards == self.player.shoe(session).shoe.cut_at:
                self._wait(lambda: session.s.new_shoe_due, "the cut card")
        else:
            self.linked.submit(event)

    def _wait(self, done, what: str) -> None:
        if not self.linked.pump_until(done, WAIT):
            raise TimeoutError(f"the bench waited {WAIT:.0f} s for {what}")

"""The bench's emulated shoe, peek reader and wager reader on pseudo-terminals, powered up where the table stands.

Shared by the headless bench (`dealer-assist bench`) and the screen's bench (`dealer-assist run`).
The shoes are the bench's seeded shoes (`dealer_assist.play.bench`): shoe `S{seed}-{n}` holds the same
cards at every start, so a table resumed from its journal goes on with the shoe it was dealing:
the same id, the next card numbered on, the hole card back under the reader. The cards left in any
other shoe are unknown here, so that shoe is not continued: the emulated shoe reports its cut card
as it powers up, the round in progress (if any) ends on it, and the table calls for a new shoe as
after any cut. The wager reader, where the bench has one, powers up with the chips the journal
last read on each spot (they stay on the felt while the table is down), or the `felt` given.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence

from dealer_assist.play.bench import BenchPlayer, EmulatedShoe
from dealer_assist.rules.inputs import PeekResult
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.session_inputs import ShoeLoaded
from dealer_assist.table.spots import Spot
from dealer_assist.table.table_facts import TableFacts
from devices.errors import DeviceCode, DeviceError
from hw_sims.endpoints import PtyEndpoint
from hw_sims.peek import PeekEmulator
from hw_sims.shoe import ShoeEmulator
from hw_sims.wagers import WagerEmulator, chips_for

__all__ = ["BenchDevices", "honest_peek_answer"]

SEEN_WITHIN_S = 1.0
_BENCH_SHOE = re.compile(r"S(\d+)-\d+")  # the ids BenchPlayer gives its shoes: S{seed}-{number}
_NUMBERED_SHOE = re.compile(r".*-\d+")  # what BenchPlayer can number the next shoe after


def honest_peek_answer(facts: TableFacts) -> PeekResult:
    """What an honest peek device answers for the open round's hole card (the bench's peek button)."""
    if facts.round is None:
        raise RuleError(Refusal.NO_ROUND, "no round is open: there is no hole card to peek at")
    return facts.round.expected_peek_answer()


def bench_seed(shoe_id: str | None) -> int | None:
    """The seed a bench shoe was shuffled with, read from its id; None for any other shoe."""
    match = _BENCH_SHOE.fullmatch(shoe_id or "")
    return int(match.group(1)) if match else None


class BenchDevices:
    """The shoe and the peek reader of the table whose `facts` it asks; `player` names and shuffles the shoes.

    Used on the thread that owns the table: it asks the table's facts to know what has arrived."""

    def __init__(
        self,
        facts: Callable[[], TableFacts],
        player: BenchPlayer,
        wagers: bool = False,
        felt: Mapping[Spot, Sequence[int]] | None = None,
    ) -> None:
        self.facts = facts
        self.player = player
        now = facts()
        decks = now.profile.decks
        self.current: EmulatedShoe | None = None  # the shoe in the emulator
        self.pulled = 0  # cards of the current shoe pulled so far
        self.cut_reported = False  # the shoe has reported (or will report) its cut card
        if now.shoe_id is None:
            self.shoe = ShoeEmulator(PtyEndpoint(), cards=[], decks=decks, announce=False, pace=None, seed=player.seed)
        else:
            if not _NUMBERED_SHOE.fullmatch(now.shoe_id):
                raise DeviceError(
                    DeviceCode.FOREIGN_SHOE,
                    f"the journal's shoe {now.shoe_id!r} is not an emulated "
                    "one and the bench cannot name a shoe after it: "
                    "connect that table's shoe (--shoe URL)",
                )
            self.current, self.pulled = player.shoe(now), now.shoe_cards
            shoe = self.current.shoe
            self.shoe = ShoeEmulator(
                PtyEndpoint(),
                cards=shoe.cards,
                shoe_id=now.shoe_id,
                decks=decks,
                start_at=now.shoe_cards,
                cut=shoe.cut_at,
                pace=None,
                seed=player.seed,
                announce=False,
            )
            continued = bench_seed(now.shoe_id) == player.seed
            if not now.new_shoe_due and (not continued or self.current.cut_reached(now.shoe_cards)):
                self.shoe.sim_report_cut()  # past the cut, or a shoe the bench cannot go on with
                self.cut_reported = True
        self.peek = PeekEmulator(PtyEndpoint(), seed=player.seed) if now.profile.dealer_hole_card else None
        if self.peek is not None and now.hole_card is not None:
            self.peek.sim_set_hole_card(now.hole_card)  # still under the reader after a restart
        self.reader = None
        if wagers:
            last = {spot: chips_for(reading.amount, reading.chips) for spot, reading in now.readings.items()}
            self.reader = WagerEmulator(
                PtyEndpoint(),
                seats=now.seats,
                bank=now.profile.player_dealer,
                contents={**last, **(felt or {})},
                seed=player.seed,
            )

    @property
    def shoe_url(self) -> str:
        return self.shoe.endpoint.url

    @property
    def peek_url(self) -> str | None:
        return self.peek.endpoint.url if self.peek is not None else None

    @property
    def reader_url(self) -> str | None:
        return self.reader.endpoint.url if self.reader is not None else None

    def start(self) -> None:
        for device in (self.shoe, self.peek, self.reader):
            if device is not None:
                device.start()

    def stop(self) -> None:
        for device in (self.shoe, self.peek, self.reader):
            if device is not None:
                device.stop()

    def prompt(self) -> str:
        """What the table waits for instead of a card, for the dealer to read on the bench."""
        return self.facts().prompt

    def busy(self) -> bool:
        """A shoe loaded, a card pulled or the cut card reported has not reached the table yet."""
        now = self.facts()
        shoe_id = self.current.shoe_id if self.current is not None else None
        return now.shoe_id != shoe_id or now.shoe_cards < self.pulled or (self.cut_reported and not now.new_shoe_due)

    def next_shoe(self) -> ShoeLoaded:
        """The bench's next shoe, for a table that needs one."""
        facts = self.facts()
        event = self.player.next_input(facts)
        if not isinstance(event, ShoeLoaded):
            raise DeviceError(DeviceCode.SHOE_NOT_DUE, f"the table needs no new shoe now ({facts.state})")
        return event

    def load(self, event: ShoeLoaded) -> None:
        """The shoe `event` names goes in; the emulator tells the table over the link."""
        self.current = EmulatedShoe(self.player.seed, event.shoe_id, event.decks)
        self.pulled, self.cut_reported = 0, False
        shoe = self.current.shoe
        self.shoe.sim_load_shoe(shoe.cards, event.shoe_id, shoe.cut_at)

    def pull(self) -> None:
        """The dealer pulls the next card; when it becomes the hole card the reader sees it first."""
        if self.current is None or self.busy():
            raise DeviceError(DeviceCode.SHOE_BUSY, "no shoe is in, or the last card pulled has not reached the table")
        if self.shoe.locked:
            raise DeviceError(DeviceCode.SHOE_LOCKED, f"the shoe's card-stop is on: no card is due ({self.prompt()})")
        card = self.current.card(self.pulled)
        if self.peek is not None and self.facts().next_card_is_hole_card:
            self.peek.sim_set_hole_card(card)
            deadline = time.monotonic() + SEEN_WITHIN_S
            while self.peek.hole_card != card:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the peek reader did not see the hole card within {SEEN_WITHIN_S:.0f} s")
                time.sleep(0.001)
        self.pulled += 1
        self.cut_reported = self.cut_reported or self.current.cut_reached(self.pulled)
        self.shoe.sim_deal_next()

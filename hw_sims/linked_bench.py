"""The bench table over real links: the emulated shoe, peek device and wager reader on pseudo-terminals.

The bench decides what the dealer and the players do, exactly as in-process; but every card
leaves the emulated shoe as a wire frame when the bench pulls it, crosses a pseudo-terminal,
and reaches the table through the shoe adapter, the card-stop and the journal; the peek device
answers over its own link. All of it goes through the table controller, as on the screen. A
restarted bench powers the shoe up mid-shoe where the journal says. With a wager reader the
players bet, double, split and insure with chips on its spots (`chip_players`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from dealer_assist.journal.errors import JournalCode, JournalError
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.inputs import CardDrawn, PeekAnswered
from dealer_assist.rules.phases import Need
from dealer_assist.table.pins import PinSetter
from dealer_assist.table.session_inputs import ConfirmPeek, ShoeLoaded
from dealer_assist.table.spots import Spot
from devices.table_owner.controller import TableController
from hw_sims.bench_devices import BenchDevices, bench_seed
from hw_sims.chip_players import ChipPlayers

__all__ = ["screen_bench", "tools_pin"]

WAIT = 10.0


def tools_pin(controller: TableController) -> tuple[str | None, bool]:
    """The PIN a tool (the bench, autoplay) uses on this table: the bench's PIN, set now when the
    table has none (the second value: newly set, to be printed); None when a person set the table's
    PIN, which a tool never knows."""
    snap = controller.supervisor_snapshot(recent=0)
    if not snap.has_pin:
        pin = controller.bench_pin()
        controller.set_pin(pin, by=PinSetter.BENCH)
        return pin, True
    return (controller.bench_pin() if snap.pin_set_by is PinSetter.BENCH else None), False


class LinkedBench:
    def __init__(
        self,
        controller: TableController,
        seed: int,
        wagers: bool = False,
        felt: Mapping[Spot, Sequence[int]] | None = None,
    ) -> None:
        self.controller = controller
        self.player = BenchPlayer(seed, shoe_reports_cut=True)
        self.devices = BenchDevices(controller.facts, self.player, wagers, felt)
        self.controller.connect_devices(self.devices.shoe_url, self.devices.peek_url)
        self.chips = None
        if self.devices.reader is not None and self.devices.reader_url is not None:
            self.controller.connect_wagers(self.devices.reader_url)
            self.chips = ChipPlayers(controller, self.devices.reader, self.player.wagers, self._wait)
        self.pin, self.pin_set = tools_pin(controller)

    def start(self) -> None:
        self.devices.start()
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()
        self.devices.stop()

    def step(self) -> None:
        """One move of the table: a device's delivery or answer awaited, or one input made."""
        self._stopped()
        facts = self.controller.facts()
        if self.devices.busy():
            self._wait(
                lambda: not self.devices.busy(),
                f"the shoe's delivery (shoe {facts.shoe_id}, {facts.shoe_cards} of {self.devices.pulled} cards)",
            )
            return
        event = self.player.next_input(facts)
        if self.chips is not None and self.chips.plays(event):
            self.chips.play(event)
        elif isinstance(event, PeekAnswered):  # the peek device answers by itself, over its link
            self._wait(lambda: self.controller.snapshot.need is not Need.PEEK, "the peek device's answer")
        elif isinstance(event, ConfirmPeek):
            if self.pin is None:
                raise JournalError(
                    JournalCode.TABLE_STOPPED,
                    "the peek needs a check by hand and a floor supervisor's PIN, "
                    "which a person set on this table: the bench cannot give it",
                )
            self.controller.supervise(event, self.pin)
        elif isinstance(event, ShoeLoaded):
            self.devices.load(event)
        elif isinstance(event, CardDrawn):
            if self.devices.shoe.locked:  # the table's "card-stop off" is on its way to the shoe
                self._wait(lambda: not self.devices.shoe.locked, "the shoe's card-stop to come off")
            self.devices.pull()
        else:
            refused = self.controller.submit(event)
            if refused is not None:
                raise refused

    def _stopped(self) -> None:
        halted = self.controller.halted
        if halted is not None:
            raise JournalError(JournalCode.TABLE_STOPPED, halted.message)

    def _wait(self, done: Callable[[], bool], what: str) -> None:
        if not self.controller.pump_until(lambda: done() or self.controller.halted is not None, WAIT):
            raise TimeoutError(f"the bench waited {WAIT:.0f} s for {what}")
        self._stopped()


def screen_bench(controller: TableController, seed: int | None, rng: random.Random) -> BenchDevices:
    """The emulated shoe and peek reader of the screen's bench; a resumed table deals on from the
    shoe it was dealing."""
    shoes = bench_seed(controller.facts().shoe_id)
    if shoes is None:
        shoes = seed if seed is not None else rng.randrange(1_000_000)
    return BenchDevices(controller.facts, BenchPlayer(shoes, shoe_reports_cut=True))

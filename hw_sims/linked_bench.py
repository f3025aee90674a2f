"""The bench table over real links: the emulated shoe and peek device on pseudo-terminals.

The bench decides what the dealer and the players do, exactly as in-process; but every card
leaves the emulated shoe as a wire frame when the bench pulls it, crosses a pseudo-terminal,
and reaches the table through the shoe adapter, the card-stop and the journal; the peek device
answers over its own link. A restarted bench powers the shoe up mid-shoe where the journal says.
"""
from __future__ import annotations

from collections.abc import Callable

from dealer_assist.bench import BenchPlayer
from dealer_assist.inputs import CardDrawn
from dealer_assist.session_inputs import ConfirmPeek, ShoeLoaded
from dealer_assist.table import Table
from dealer_assist.tracker import Need
from devices.linked_table import LinkedTable
from hw_sims.bench_devices import BenchDevices

WAIT = 10.0
BENCH_PIN = "0000"
SUPERVISOR = "bench"


class LinkedBench:
    def __init__(self, table: Table, seed: int) -> None:
        self.table = table
        self.player = BenchPlayer(seed, shoe_reports_cut=True)
        self.devices = BenchDevices(table.session, self.player)
        self.linked = LinkedTable(table, self.devices.shoe_url, self.devices.peek_url)
        if table.pins.digest is None:
            table.set_pin(BENCH_PIN)

    def start(self) -> None:
        self.devices.start()
        self.linked.start()

    def stop(self) -> None:
        self.linked.stop()
        self.devices.stop()

    def step(self) -> None:
        """One move of the table: a device's delivery or answer awaited, or one input made."""
        session = self.table.session
        if self.devices.busy():
            self._wait(lambda: not self.devices.busy(), f"the shoe's delivery (shoe {session.s.shoe_id}, "
                       f"{session.s.shoe_cards} of {self.devices.pulled} cards)")
            return
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
            self.devices.load(event)
        elif isinstance(event, CardDrawn):
            self.devices.pull()
        else:
            self.linked.submit(event)

    def _wait(self, done: Callable[[], bool], what: str) -> None:
        if not self.linked.pump_until(done, WAIT):
            raise TimeoutError(f"the bench waited {WAIT:.0f} s for {what}")

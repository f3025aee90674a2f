"""A table with a shoe and a wager reader on pseudo-terminals, owned by a headless controller:
the players' chips go on the emulated reader's spots, the dealer's cards come out of the shoe."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import SpotReading
from dealer_assist.table.spots import Spot, parse_spot
from devices.table_owner.controller import TableController
from hw_sims.endpoints import PtyEndpoint
from hw_sims.shoe import ShoeEmulator
from hw_sims.wagers import WagerEmulator

WAIT_S = 10
PIN = "2468"


class ReaderTable:
    """`chips` puts chips on a spot as a player would; `until` pumps the controller until a condition holds."""

    def __init__(
        self,
        path: Path,
        cards: list[str],
        profile: str = "sd-buster-a",
        settings: dict[str, object] | None = None,
        reader: WagerEmulator | None = None,
        wait: Callable[[Callable[[], bool], float], bool] | None = None,
    ) -> None:
        """`wait(done, seconds)`: how the test waits for the table (on a screen, Qt's event loop runs the
        controller)."""
        self._wait = wait or (lambda done, seconds: self.controller.pump_until(done, seconds))
        self.shoe = ShoeEmulator(PtyEndpoint(), cards=[parse_card(c) for c in cards], pace=None, seed=5)
        seats = 8 if profile == "nobust-4.0" else 7
        self.reader = reader or WagerEmulator(PtyEndpoint(), seats=seats, bank=profile == "nobust-4.0")
        self.shoe.start()
        self.reader.start()
        self.path = path
        self.controller = self._open(TableConfig("READ-1", profile, settings or {}))

    def _open(self, config: TableConfig | None) -> TableController:
        controller = TableController(Table.open(self.path, config))
        controller.connect_devices(self.shoe.endpoint.url)
        controller.connect_wagers(self.reader.endpoint.url)
        return controller

    def start(self) -> None:
        if not self.controller.supervisor_snapshot(recent=0).has_pin:
            self.controller.set_pin(PIN)
        self.controller.start()
        self.until(
            lambda: self.session.s.shoe_id is not None and bool(self.session.reader.spots), "the reader's first scan"
        )

    def stop(self) -> None:
        self.controller.stop()
        self.shoe.stop()
        self.reader.stop()
        self.controller.pump(0.2)
        self.controller.close()

    def restart(self, while_down: Callable[[], None]) -> None:
        """The table stops and opens again on its journal; `while_down` happens at the felt meanwhile."""
        self.controller.stop()
        self.controller.close()
        while_down()
        self.controller = self._open(None)
        self.start()

    @property
    def session(self):  # the live session, which the tests read inside the table's owner
        return self.controller._table.session

    @property
    def snapshot(self):
        return self.controller.snapshot

    def until(self, done: Callable[[], bool], what: str) -> None:
        assert self._wait(done, WAIT_S), f"waited {WAIT_S} s for {what}"

    def chips(self, spot: str, *dollars: int, alien: int = 0) -> None:
        """The spot now holds exactly these chips (and `alien` chips of another casino); the table
        has them once the reader reported them and the table took them, or refused them."""
        where = parse_spot(spot)
        refused = len(self.refused())
        self.reader.sim_alien(where, alien)
        self.reader.sim_place(where, [d * 100 for d in dollars])
        content = SpotReading(where, len(dollars), sum(dollars) * 100, alien)
        self.until(
            lambda: self.session.reader.reading(where) == content or len(self.refused()) > refused,
            f"{spot} to read ${sum(dollars)}",
        )

    def deal(self, count: int) -> None:
        seen = self.session.s.shoe_cards
        for _ in range(count):
            self.until(
                lambda: not self.controller.feed.locked and self.shoe.locked is False, "the card-stop to come off"
            )
            self.shoe.sim_deal_next()
            seen += 1
            self.until(lambda: self.session.s.shoe_cards >= seen, "the card to reach the table")

    def tap(self, event) -> None:
        """The dealer's tap through the controller; a tap that waits for the reader's scan is pumped through."""
        refused = self.controller.submit(event)
        assert refused is None, refused
        self.until(lambda: self.controller.scanning is None, "the reader's scan")

    def ops(self, kind: str) -> list[dict]:
        return [
            op
            for r in read_records(self.path)
            if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)
            for op in r.body["ops"]
            if op["type"] == kind
        ]

    def ops_inputs(self, kind: str) -> list[dict]:
        """The journaled inputs of one kind, in order."""
        return [
            r.body["input"]
            for r in read_records(self.path)
            if r.kind in (RecordKind.INPUT, RecordKind.CLOSE) and r.body["input"]["type"] == kind
        ]

    def refused(self) -> list[dict]:
        return [r.body for r in read_records(self.path) if r.kind is RecordKind.REFUSED]


def spot(text: str) -> Spot:
    return parse_spot(text)

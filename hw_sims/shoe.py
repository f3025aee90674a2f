"""An emulated card shoe scanner (DEVICES.md §2): a seeded shoe or a scripted card list, dealt at a pace.

It honours the host's card-stop (`LOCK ON` holds back the next card) and can open its lid, jam, skip
a card's frame, fail to read a card, and drop or silence the line at chosen cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from dealer_assist.rules.cards import RANKS, SUITS, Card
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.messages import (
    HOST_TO_SHOE,
    CardOut,
    CutCard,
    Fault,
    Lid,
    LidState,
    Lock,
    LockState,
    Message,
    NewShoe,
    NoRead,
)
from hw_sims.device import EmulatedDevice, Identity
from hw_sims.endpoints import Endpoint
from hw_sims.faults import FaultKind

SHOE_IDENTITY = Identity("DEALERASSIST", "SIM-SHOE", "0001", "1.0")


def shuffled_shoe(decks: int, rng: random.Random) -> list[Card]:
    cards = [Card(rank, suit) for _ in range(decks) for suit in SUITS for rank in RANKS]
    rng.shuffle(cards)
    return cards


class ShoeEmulator(EmulatedDevice):
    def __init__(
        self,
        endpoint: Endpoint,
        *,
        seed: int = 0,
        decks: int = 6,
        cards: Sequence[Card] | None = None,
        pace: float | None = 0.5,
        cut: int | None = None,
        shoe_id: str | None = None,
        start_at: int = 0,
        announce: bool = True,
        faults: Mapping[FaultKind, float] | None = None,
        disconnects: int = 0,
        silences: int = 0,
        clock: Clock = MONOTONIC,
    ) -> None:
        super().__init__(endpoint, HOST_TO_SHOE, SHOE_IDENTITY, seed=seed, faults=faults or {}, clock=clock)
        self.cards: list[Card] = list(cards) if cards is not None else shuffled_shoe(decks, self.rng)
        self.decks = decks
        self.shoe_id = shoe_id or f"{self.rng.getrandbits(16):04X}"
        self.pace = pace  # seconds between cards; None: a card only when the dealer pulls one (sim_deal_next)
        self.cut = cut if cut is not None else len(self.cards) * 3 // 4
        self.locked = False
        self.dealt = start_at  # a shoe powered up again mid-shoe goes on numbering where it was
        self.announce = announce and start_at == 0
        self._pulls = 0
        self._next_deal = 0.0
        self._link_faults = self._spread([FaultKind.DISCONNECT] * disconnects + [FaultKind.SILENCE] * silences)

    def _spread(self, kinds: list[FaultKind]) -> dict[int, list[FaultKind]]:
        """Link faults hang on card numbers chosen by the seed, so a run can be repeated exactly."""
        at: dict[int, list[FaultKind]] = {}
        for kind in kinds:
            at.setdefault(self.rng.randint(1, max(1, len(self.cards) - 1)), []).append(kind)
        return at

    def sim_deal_next(self) -> None:
        """The dealer pulls one card; the card-stop holds it back while it is on."""
        self.sim_call(lambda now: setattr(self, "_pulls", self._pulls + 1))

    def sim_load_shoe(self, cards: Sequence[Card], shoe_id: str, cut: int) -> None:
        """A newly shuffled shoe goes in: numbering restarts at 1 and the host is told."""

        def load(now: float) -> None:
            self.cards, self.shoe_id, self.cut, self.dealt, self._pulls = list(cards), shoe_id, cut, 0, 0
            self.post(NewShoe(0, shoe_id, self.decks), now)

        self.sim_call(load)

    def sim_report_cut(self) -> None:
        """The shoe reports its cut card again, after the cards dealt so far: one powered up past its
        cut whose report the host may have missed, or one the host should not go on with."""
        self.sim_call(lambda now: self.post(CutCard(0, self.dealt), now))

    def sim_lid(self) -> None:
        self.sim_call(self._open_and_close_lid)

    def sim_jam(self) -> None:
        self.sim_call(self._jam)

    def powered_up(self, now: float) -> None:
        if self.announce:
            self.post(NewShoe(0, self.shoe_id, self.decks), now)
        self._next_deal = now + (self.pace or 0.0)

    def heartbeat_count(self) -> int:
        return self.dealt

    def command(self, message: Message, now: float) -> None:
        if isinstance(message, Lock):
            self.locked = message.state is LockState.ON
            self.post(Lock(0, message.state), now)

    def tick(self, now: float) -> None:
        if self.locked or self.dealt >= len(self.cards):
            return
        if self.pace is not None and not self.host_seen:
            # The dealer at a paced shoe starts once a table has asked who is there, so no card
            # leaves the shoe before the table could hold it back with its card-stop.
            self._next_deal = now + self.pace
            return
        if self.pace is None:
            if self._pulls:
                self._pulls -= 1
                self._deal(now)
            return
        if now >= self._next_deal:
            self._next_deal = now + self.pace
            self._deal(now)

    def _deal(self, now: float) -> None:
        self.dealt += 1
        n, card = self.dealt, self.cards[self.dealt - 1]
        if n < len(self.cards) and self.chance(FaultKind.GAP):
            self.stats.missed.append(n)
        elif self.chance(FaultKind.NOREAD):
            self.stats.noreads.append(n)
            self.post(NoRead(0, n), now)
        else:
            self.post(CardOut(0, n, card), now)
            if self.chance(FaultKind.REPEAT_CARD):
                self.stats.duplicates += 1
                self.post(CardOut(0, n, card), now)
        if n == self.cut:
            self.post(CutCard(0, n), now)
        if self.chance(FaultKind.LID):
            self._open_and_close_lid(now)
        if self.chance(FaultKind.JAM):
            self._jam(now)
        for kind in self._link_faults.get(n, []):
            self.schedule(kind)

    def _open_and_close_lid(self, now: float) -> None:
        self.post(Lid(0, LidState.OPEN), now)
        self.post(Lid(0, LidState.CLOSED), now)

    def _jam(self, now: float) -> None:
        self.post(Fault(0, "JAM", "card jammed at the exit"), now)

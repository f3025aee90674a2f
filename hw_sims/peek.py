"""An emulated Natural-peek device (DEVICES.md §3): a hole card, an answer delay, NOREAD on demand.

The hole card stays inside this object: no frame, log line or printed text carries it, exactly
as with the real reader.
"""

from __future__ import annotations

from collections.abc import Mapping

from dealer_assist.rules.cards import Card
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.messages import HOST_TO_PEEK, Fault, Message, PeekAnswer, PeekRequest, PeekResult
from hw_sims.device import EmulatedDevice, Identity
from hw_sims.endpoints import Endpoint
from hw_sims.faults import FaultKind

PEEK_IDENTITY = Identity("DEALERASSIST", "SIM-PEEK", "0001", "1.0")


def natural_answer(up: str, hole: Card | None) -> PeekAnswer:
    if hole is None:
        return PeekAnswer.NOCARD
    if (up == "A" and hole.is_ten_value) or (up != "A" and hole.is_ace):
        return PeekAnswer.NATURAL
    return PeekAnswer.NONE


class PeekEmulator(EmulatedDevice):
    def __init__(
        self,
        endpoint: Endpoint,
        *,
        hole_card: Card | None = None,
        delay: float = 0.05,
        seed: int = 0,
        faults: Mapping[FaultKind, float] | None = None,
        clock: Clock = MONOTONIC,
    ) -> None:
        super().__init__(endpoint, HOST_TO_PEEK, PEEK_IDENTITY, seed=seed, faults=faults or {}, clock=clock)
        self._hole = hole_card
        self.delay = delay
        self.asked = 0  # PEEK requests accepted, so a test knows the host's request is in
        self.answered = 0
        self._answers: list[tuple[float, PeekResult]] = []

    def __repr__(self) -> str:
        return f"PeekEmulator(url={self.endpoint.url!r}, delay={self.delay})"

    @property
    def hole_card(self) -> Card | None:
        """The card under the reader now (set on the emulator's own thread)."""
        return self._hole

    def sim_set_hole_card(self, card: Card | None) -> None:
        self.sim_call(lambda now: setattr(self, "_hole", card))

    def sim_set_delay(self, delay: float) -> None:
        self.sim_call(lambda now: setattr(self, "delay", delay))

    def sim_fault(self, code: str, text: str) -> None:
        """The device reports a fault (`SENSOR`, `POWER`, ...)."""
        self.sim_call(lambda now: self.post(Fault(0, code, text), now))

    def heartbeat_count(self) -> int:
        return self.answered

    def command(self, message: Message, now: float) -> None:
        if isinstance(message, PeekRequest):
            self.asked += 1
            answer = PeekAnswer.NOREAD if self.chance(FaultKind.NOREAD) else natural_answer(message.up, self._hole)
            self._answers.append((now + self.delay, PeekResult(0, message.seq, answer)))

    def tick(self, now: float) -> None:
        due = [result for at, result in self._answers if at <= now]
        if due:
            self._answers = [(at, result) for at, result in self._answers if at > now]
            for result in due:
                self.answered += 1
                self.post(result, now)

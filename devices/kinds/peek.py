"""The Natural-peek device (DEVICES.md §3): one PEEK at a time, answered within 1500 ms or not at all.

`NOREAD`, `NOCARD` and a timeout are outcomes in their own right: the caller sends the hand to a
person, and nothing here ever guesses a Natural or its absence. The hole card is never known here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from dealer_assist.rules.cards import TEN_VALUES
from dealer_assist.rules.inputs import PeekResult
from devices.kinds.adapter import DeviceAdapter, EventSink
from devices.kinds.events import DeviceFault
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.link import LinkState
from devices.wire.messages import PEEK_TO_HOST, Fault, Message, PeekAnswer, PeekRequest
from devices.wire.messages import PeekResult as ResultFrame
from devices.wire.timing import PEEK_TIMEOUT

__all__ = ["PEEK_UP_RANKS", "PeekReader"]

PEEK_UP_RANKS = frozenset({"A"} | TEN_VALUES)


_OUTCOMES = {answer: PeekResult(answer.value.lower()) for answer in PeekAnswer}


@dataclass(slots=True)
class _Request:
    asked_at: float
    done: threading.Event = field(default_factory=threading.Event)
    seq: int | None = None
    sent_at: float | None = None
    outcome: PeekResult = PeekResult.TIMEOUT


class PeekReader(DeviceAdapter):
    def __init__(self, url: str, on_event: EventSink = lambda event: None, clock: Clock = MONOTONIC) -> None:
        super().__init__(url, PEEK_TO_HOST, on_event, "peek", clock)
        self._lock = threading.Lock()
        self._request: _Request | None = None
        self._up = threading.Event()
        self.stale = 0

    def wait_up(self, timeout: float) -> bool:
        return self._up.wait(timeout)

    def peek(self, up: str) -> PeekResult:
        """Ask whether the hole card makes a Natural with up card `up`; blocks at most 1500 ms after sending."""
        if up not in PEEK_UP_RANKS:
            raise ValueError(f"up card {up!r} is not A or a ten-value rank (TJQK)")
        request = _Request(self._clock.now())
        with self._lock:
            self._request = request
        self._runner.call(lambda now: self._link.post(PeekRequest(0, up), now))
        while True:
            deadline = (request.sent_at or request.asked_at) + PEEK_TIMEOUT
            remaining = deadline - self._clock.now()
            if remaining <= 0 or self._clock.wait(request.done, min(remaining, 0.05)):
                break
        with self._lock:
            self._request = None
            return request.outcome

    def link_changed(self, state: LinkState) -> None:
        if state is LinkState.UP:
            self._up.set()
        else:
            self._up.clear()
        super().link_changed(state)

    def sent(self, message: Message, now: float) -> None:
        with self._lock:
            request = self._request
            if isinstance(message, PeekRequest) and request is not None and request.seq is None:
                request.seq = message.seq
                request.sent_at = now

    def handle(self, message: Message) -> None:
        if isinstance(message, Fault):  # the device's own fault (DEVICES.md §3), for the dealer and the journal
            self._on_event(DeviceFault(message.code, message.text))
            return
        if not isinstance(message, ResultFrame):
            return
        with self._lock:
            request = self._request
            if (
                request is None
                or request.seq != message.request
                or request.done.is_set()
                or request.sent_at is None
                or self._clock.now() - request.sent_at > PEEK_TIMEOUT
            ):
                self.stale += 1
                return
            request.outcome = _OUTCOMES[message.answer]
            request.done.set()

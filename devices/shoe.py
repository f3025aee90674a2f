"""The card shoe scanner (DEVICES.md §2): cards in order and once each, gaps named, card-stop control."""
from __future__ import annotations

from devices.adapter import DeviceAdapter, EventSink
from devices.events import (
    CardSeen,
    CardsMissed,
    CardUnread,
    CutReached,
    DeviceFault,
    LidChanged,
    LockChanged,
    ShoeLoaded,
)
from devices.messages import SHOE_TO_HOST, CardOut, CutCard, Fault, Lid, Lock, LockState, Message, NewShoe, NoRead


class ShoeScanner(DeviceAdapter):
    def __init__(self, url: str, on_event: EventSink) -> None:
        super().__init__(url, SHOE_TO_HOST, on_event, "shoe")
        self._last_n: int | None = None  # None until the first card: a host may start mid-shoe

    def set_lock(self, on: bool) -> None:
        """Card-stop: while on, the shoe holds back the next card. Sent as ✓ `LOCK`, kept across outages."""
        state = LockState.ON if on else LockState.OFF
        self._runner.call(lambda now: self._link.post(Lock(0, state), now))

    def handle(self, message: Message) -> None:
        match message:
            case NewShoe(shoe_id=shoe_id, decks=decks):
                self._last_n = 0
                self._on_event(ShoeLoaded(shoe_id, decks))
            case CardOut(n=n, card=card):
                if self._numbered(n):
                    self._on_event(CardSeen(n, card))
            case NoRead(n=n):
                if self._numbered(n):
                    self._on_event(CardUnread(n))
            case CutCard(n=n):
                self._on_event(CutReached(n))
            case Lid(state=state):
                self._on_event(LidChanged(state))
            case Lock(state=state):
                self._on_event(LockChanged(state))
            case Fault(code=code, text=text):
                self._on_event(DeviceFault(code, text))

    def _numbered(self, n: int) -> bool:
        """The card-number guard: False for a number already delivered; a skip is reported first."""
        last = self._last_n
        if last is not None and n <= last:
            self.extra_duplicates += 1
            return False
        if last is not None and n > last + 1:
            self._on_event(CardsMissed(last + 1, n - 1))
        self._last_n = n
        return True

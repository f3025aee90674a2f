"""The card shoe scanner (DEVICES.md §2): cards in order and once each, gaps named, card-stop control."""

from __future__ import annotations

from devices.kinds.adapter import DeviceAdapter, EventSink
from devices.kinds.events import (
    CardSeen,
    CardsMissed,
    CardUnread,
    CutReached,
    DeviceFault,
    LidChanged,
    LockChanged,
    ShoeLoaded,
)
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.messages import (
    SHOE_TO_HOST,
    CardOut,
    CutCard,
    Fault,
    Heartbeat,
    Lid,
    Lock,
    LockState,
    Message,
    NewShoe,
    NoRead,
)
from devices.wire.timing import MAX_REPEATS, REPEAT_EVERY

__all__ = ["ShoeScanner"]

# A shoe that has given up on a frame (5 repeats unacknowledged) sends only HB until it gets an ID.
# Its HB count then runs ahead of the cards delivered while no ✓ frame comes: past this long, the
# host reopens the port so the ID/HELLO exchange makes the shoe send what it holds.
STALLED_AFTER = 2 * (MAX_REPEATS + 1) * REPEAT_EVERY


class ShoeScanner(DeviceAdapter):
    def __init__(self, url: str, on_event: EventSink, clock: Clock = MONOTONIC) -> None:
        super().__init__(url, SHOE_TO_HOST, on_event, "shoe", clock)
        self._last_n: int | None = None  # None until the first card: a host may start mid-shoe
        self._restarted_for: int | None = None

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
            case Heartbeat(n=dealt):
                self._check_stalled(dealt)

    def _check_stalled(self, dealt: int) -> None:
        """Restart the link once per backlog when the shoe has dealt cards it no longer tries to send."""
        behind = self._last_n is not None and dealt > self._last_n
        quiet = self._clock.now() - self._link.last_acked_frame > STALLED_AFTER
        if behind and quiet and self._restarted_for != dealt:
            self._restarted_for = dealt
            self._link.restart()

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

"""The table on real links: device events become table inputs, and the table steers the devices.

The devices' reader threads never touch the table. Each event is turned into a table input or a
piece of device evidence and handed to `deliver`, which belongs to the one thread that owns the
table (the table controller). After every input that thread calls `sync`, which sets the shoe's
card-stop from the rules and asks the peek device when the round needs it.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from dealer_assist.rules.inputs import CardDrawn, PeekAnswered
from dealer_assist.rules.phases import Need
from dealer_assist.table import session_inputs
from dealer_assist.table.session import TableInput, TableSession, TableState
from devices import events
from devices.peek import PeekReader
from devices.shoe import ShoeScanner


@dataclass(frozen=True, slots=True)
class DeviceNote:
    """Evidence for the journal: who the device is, its link, its faults, its lid and lock."""

    body: dict[str, Any]


Delivery = Callable[[TableInput | DeviceNote], None]


def table_input(event: events.DeviceEvent) -> TableInput | None:
    """The table input a shoe event stands for, or None when it is evidence only."""
    match event:
        case events.CardSeen(card=card):
            return CardDrawn(card)
        case events.CardUnread(n=n):
            return session_inputs.CardsUnread(n, n)
        case events.CardsMissed(first=first, last=last):
            return session_inputs.CardsUnread(first, last, missed=True)
        case events.ShoeLoaded(shoe_id=shoe_id, decks=decks):
            return session_inputs.ShoeLoaded(shoe_id, decks)
        case events.CutReached(n=n):
            return session_inputs.CutCardReached(n)
    return None


def evidence(device: str, event: events.DeviceEvent) -> DeviceNote:
    body: dict[str, Any] = {"device": device, "type": type(event).__name__}
    for field in fields(event):
        value = getattr(event, field.name)
        body[field.name] = value.value if isinstance(value, Enum) else value
    return DeviceNote(body)


class DeviceFeed:
    def __init__(self, shoe: ShoeScanner | None, peek: PeekReader | None, deliver: Delivery) -> None:
        self.shoe = shoe
        self.peek = peek
        self.deliver = deliver
        self.locked: bool | None = None
        self._peeking = threading.Lock()

    def on_shoe_event(self, event: events.DeviceEvent) -> None:
        """Called on the shoe's reader thread. At every HELLO (the link coming up, a shoe powered up
        again) the card-stop goes to the shoe again, on unless the table has said a card is due, so
        a shoe that never heard it, or forgot it, holds back its cards."""
        if isinstance(event, events.DeviceHello) and self.shoe is not None:
            self.shoe.set_lock(self.locked is not False)
        mapped = table_input(event)
        self.deliver(mapped if mapped is not None else evidence("shoe", event))

    def on_peek_event(self, event: events.DeviceEvent) -> None:
        self.deliver(evidence("peek", event))

    def sync(self, session: TableSession, stopped: bool = False) -> None:
        """On the table's thread, after each input: the card-stop, and a peek when one is due.
        A stopped table takes no card and asks nothing."""
        tracker = session.tracker
        stop = stopped or session.state is not TableState.ROUND or tracker is None or not tracker.takes_card()
        if self.shoe is not None and stop != self.locked:
            self.shoe.set_lock(stop)
            self.locked = stop
        if not stopped and tracker is not None and tracker.awaiting().need is Need.PEEK and self.peek is not None:
            if self._peeking.acquire(blocking=False):
                up = tracker.up_card.rank
                threading.Thread(target=self._ask, args=(up,), name="peek-request", daemon=True).start()

    def _ask(self, up: str) -> None:
        try:
            outcome = self.peek.peek(up) if self.peek is not None else None
        finally:
            self._peeking.release()
        if outcome is not None:
            self.deliver(PeekAnswered(outcome))

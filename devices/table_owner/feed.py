"""The table on real links: device events become table inputs, and the table steers the devices.

The devices' reader threads never touch the table. Each event is turned into a table input or a
piece of device evidence and handed to `deliver`, which belongs to the one thread that owns the
table (the table controller). After every input that thread calls `sync`, which sets the shoe's
card-stop from the rules and asks the peek device when the round needs it. The wager reader's
readings become inputs only while they can be used: a spot not under a fault, after a completed
scan (RULES.md §8.22, DEVICES.md §6); which spots those are goes to the table whenever it changes.
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
from dealer_assist.table.session import TableInput, TableSession
from dealer_assist.table.session_inputs import ReaderSpots, SpotReading
from dealer_assist.table.spots import Spot
from devices.kinds import events
from devices.kinds.peek import PeekReader
from devices.kinds.shoe import ShoeScanner
from devices.kinds.wagers import Readings, WagerReader


@dataclass(frozen=True, slots=True)
class DeviceNote:
    """Evidence for the journal: who the device is, its link, its faults, its lid and lock."""

    body: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ReaderScanned:
    """The reader read every spot again; the table's owner knows what the scan was for."""

    reads: tuple[SpotReading, ...]


Delivery = Callable[[TableInput | DeviceNote | ReaderScanned], None]


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
        body[field.name] = _plain(getattr(event, field.name))
    return DeviceNote(body)


def _plain(value: object) -> object:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Spot):
        return str(value)
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def spots_in_use(readings: Readings, outage: bool = False) -> ReaderSpots:
    """The spots whose readings the table may use now: none until a scan completed, none under a
    fault; the spots under a fault, to be keyed; and whether the reader's link just went down."""
    in_use = tuple(spot for spot in readings.spots if spot not in readings.faults) if readings.trusted else ()
    return ReaderSpots(in_use, tuple(spot for spot in readings.spots if spot in readings.faults), outage)


def reading(read: events.SpotRead) -> SpotReading:
    return SpotReading(read.spot, read.chips, read.total, read.alien)


class DeviceFeed:
    def __init__(self, shoe: ShoeScanner | None, peek: PeekReader | None, deliver: Delivery) -> None:
        self.shoe = shoe
        self.peek = peek
        self.wagers: WagerReader | None = None
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

    def on_wagers_event(self, event: events.DeviceEvent) -> None:
        """Called on the reader's thread: a usable reading is an input, a completed scan goes to the
        table's owner, and any change of the spots in use is told to the table after its evidence."""
        assert self.wagers is not None
        readings = self.wagers.readings()
        match event:
            case events.SpotRead():
                if readings.usable(event.spot) is not None:
                    self.deliver(reading(event))
                return
            case events.ScanCompleted(spots=reads):  # its spots are those in use from now on
                self.deliver(ReaderScanned(tuple(reading(read) for read in reads)))
                return
        self.deliver(evidence("wagers", event))
        if isinstance(event, events.SpotsListed | events.WagersFault | events.SpotCleared | events.ReadingsUntrusted):
            outage = isinstance(event, events.ReadingsUntrusted) and event.reason is events.Distrust.OUTAGE
            self.deliver(spots_in_use(readings, outage))

    def sync(self, session: TableSession, stopped: bool = False) -> None:
        """On the table's thread, after each input: the card-stop, and a peek when one is due.
        A stopped table takes no card and asks nothing."""
        tracker = session.tracker
        stop = stopped or not session.takes_card()
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

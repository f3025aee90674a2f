"""The wager reader (DEVICES.md §6): each spot's whole content, and whether the readings can be used.

The readings are usable only once a scan has completed since the adapter started, since the link
last went down and since the reader last powered up; the adapter sends SCAN after each of those.
Every SPOT carries its spot's whole content, so no reading depends on an earlier one.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dealer_assist.table.spots import Spot
from devices.kinds.adapter import DeviceAdapter, EventSink
from devices.kinds.events import (
    Distrust,
    ReadingsUntrusted,
    ScanCompleted,
    SpotCleared,
    SpotRead,
    SpotsListed,
    WagersFault,
    WagersHello,
)
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.link import LinkState
from devices.wire.messages import (
    WAGERS_TO_HOST,
    Heartbeat,
    Message,
    ReaderFault,
    ReaderHello,
    Scan,
    Scanned,
    SpotClear,
    SpotContent,
    SpotList,
)
from devices.wire.timing import MAX_REPEATS, REPEAT_EVERY

__all__ = ["Readings", "WagerReader"]

# A reader that has given up on a frame (5 repeats unacknowledged) sends only HB until it gets an ID.
# It then owes the host a scan's answer, or SPOTs that would bring the host's chips to its HB count.
# When it owes the same for this long with no ✓ frame, the host reopens the port once for that debt.
STALLED_AFTER = 2 * (MAX_REPEATS + 1) * REPEAT_EVERY


@dataclass(frozen=True, slots=True)
class Readings:
    """The reader's spots and what lies on them at one moment; use a spot's content through `usable`."""

    trusted: bool  # a scan has completed since the start, the last outage and the last power-up
    spots: tuple[Spot, ...]
    contents: Mapping[Spot, SpotRead]
    faults: Mapping[Spot, str]  # spot -> fault code, until its CLEAR

    def usable(self, spot: Spot) -> SpotRead | None:
        """The spot's content, if the readings are trusted and the spot is not under a fault."""
        if not self.trusted or spot in self.faults:
            return None
        return self.contents.get(spot)


@dataclass(slots=True)
class _Scan:
    """The SCAN the host waits on; its answer is the last `n` SPOTs accepted since it was first sent."""

    seq: int | None = None
    reads: list[SpotRead] = field(default_factory=list)


class WagerReader(DeviceAdapter):
    def __init__(self, url: str, on_event: EventSink = lambda event: None, clock: Clock = MONOTONIC) -> None:
        super().__init__(url, WAGERS_TO_HOST, on_event, "wagers", clock)
        self._lock = threading.Lock()  # the readings are asked for from other threads
        self._spots: dict[Spot, None] = {}  # in the order listed
        self._listing = False  # the last ✓ frame was SPOTS: a SPOTS now adds to the list
        self._contents: dict[Spot, SpotRead] = {}
        self._faults: dict[Spot, str] = {}
        self._trusted = False
        self._boot: str | None = None
        self._scan: _Scan | None = None
        self._scan_due = True
        self._owed: tuple[tuple[int, int | None], float] | None = None  # (HB n, SCAN seq) owed, since when
        self._restarted_for: tuple[int, int | None] | None = None
        self.stale = 0  # SCANNED frames that answer no SCAN the host waits on

    def readings(self) -> Readings:
        with self._lock:
            listed = self._spots
            return Readings(
                self._trusted,
                tuple(listed),
                MappingProxyType({spot: read for spot, read in self._contents.items() if spot in listed}),
                MappingProxyType({spot: code for spot, code in self._faults.items() if spot in listed}),
            )

    def scan(self) -> None:
        """Any thread: read every spot again now (the wagers closed, a payout checked). A
        `ScanCompleted` answers; while the link is down the scan after its HELLO does."""
        self._runner.call(lambda now: self._post_scan() if self._link.up else None)

    # the link

    def link_changed(self, state: LinkState) -> None:
        if state is LinkState.UP:
            super().link_changed(state)
            if self._scan_due:
                self._post_scan()
            return
        self._scan, self._scan_due = None, True
        was_trusted = self._distrust()  # before the event, so its receiver finds the readings untrusted
        super().link_changed(state)
        if was_trusted and not self._stopping:
            self._on_event(ReadingsUntrusted(Distrust.OUTAGE))

    def sent(self, message: Message, now: float) -> None:
        scan = self._scan
        if isinstance(message, Scan) and scan is not None and scan.seq is None:
            scan.seq = message.seq

    def refuse(self, message: Message) -> str | None:
        """A spot the reader did not list in its last SPOTS is malformed (any spot before the first SPOTS is not)."""
        spot = message.spot if isinstance(message, SpotContent | SpotClear | ReaderFault) else None
        if spot is None or not self._spots or spot in self._spots:
            return None
        return f"{message.TYPE} field 'spot': {str(spot)!r} is not one of the reader's SPOTS"

    def message(self, message: Message) -> None:
        if isinstance(message, ReaderHello):
            self._hello(message)
        else:
            self.handle(message)

    def handle(self, message: Message) -> None:
        match message:
            case SpotList(spots=spots):
                self._listed(spots)
            case SpotContent(spot=spot, chips=chips, total=total, alien=alien):
                self._read(SpotRead(spot, chips, total, alien))
            case Scanned(request=request, n=n):
                self._scanned(request, n)
            case ReaderFault(code=code, spot=spot, text=text):
                if spot is not None:
                    with self._lock:
                        self._faults[spot] = code
                self._on_event(WagersFault(code, spot, text))
            case SpotClear(spot=spot):
                with self._lock:
                    self._faults.pop(spot, None)
                self._on_event(SpotCleared(spot))
            case Heartbeat(n=chips):
                self._check_stalled(chips)
        if message.ACKED and not isinstance(message, SpotList):
            self._listing = False

    # what the frames mean

    def _hello(self, hello: ReaderHello) -> None:
        new_boot = self._boot is not None and hello.boot != self._boot
        self._boot = hello.boot
        self._listing = False
        was_trusted = False
        if new_boot:
            with self._lock:
                self._faults.clear()  # a fault that outlasts the power-up is reported again
            self._scan, self._scan_due = None, True
            was_trusted = self._distrust()
        self._on_event(
            WagersHello(hello.vendor, hello.model, hello.serial, hello.firmware, hello.proto, hello.boot, hello.casino)
        )
        if was_trusted:
            self._on_event(ReadingsUntrusted(Distrust.NEW_BOOT))
        if self._scan_due and self._link.up:  # powered up again while the link stayed up
            self._post_scan()

    def _listed(self, spots: tuple[Spot, ...]) -> None:
        with self._lock:
            if not self._listing:
                self._spots = {}
            self._spots.update(dict.fromkeys(spots))
            listed = tuple(self._spots)
        self._listing = True
        self._on_event(SpotsListed(listed))

    def _read(self, read: SpotRead) -> None:
        with self._lock:
            self._contents[read.spot] = read
        scan = self._scan
        if scan is not None and scan.seq is not None:
            scan.reads.append(read)
        self._on_event(read)

    def _scanned(self, request: int, n: int) -> None:
        """The scan is complete when its n SPOTs all came after the SCAN went out; else the SCANNED is stale
        (one held over an outage, or one whose SCAN had the same SEQ before the port was reopened)."""
        scan = self._scan
        if scan is None or scan.seq != request or len(scan.reads) < n:
            self.stale += 1
            return
        reads = tuple(scan.reads[len(scan.reads) - n :])
        with self._lock:
            self._scan = None
            self._contents = {read.spot: read for read in reads}
            self._trusted = True
            left_out = tuple(spot for spot in self._spots if spot in self._faults)
        self._on_event(ScanCompleted(request, reads, left_out))

    def _post_scan(self) -> None:
        self._scan_due = False
        self._scan = _Scan()
        self._link.post(Scan(0), self._clock.now())

    def _distrust(self) -> bool:
        """The readings are not to be used until the next scan; whether they were usable until now."""
        with self._lock:
            was, self._trusted = self._trusted, False
        return was

    def _check_stalled(self, chips: int) -> None:
        """Reopen the port once per debt when the reader holds back what it owes and sends only HB."""
        scan = self._scan
        owed_scan = None
        if scan is not None and scan.seq is not None and self._link.delivery.in_flight != scan.seq:
            owed_scan = scan.seq  # acknowledged, not yet answered
        behind = self._trusted and chips != sum(
            read.chips for spot, read in self._contents.items() if spot not in self._faults
        )
        if owed_scan is None and not behind:
            self._owed = None
            return
        now = self._clock.now()
        debt = (chips, owed_scan)
        if self._owed is None or self._owed[0] != debt:
            self._owed = (debt, now)
        quiet = now - max(self._owed[1], self._link.last_acked_frame)
        if quiet > STALLED_AFTER and self._restarted_for != debt:
            self._restarted_for = debt
            self._link.restart()

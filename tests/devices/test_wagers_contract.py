"""The wager reader contract (DEVICES.md §1, §6), run against every link: in-process, pty, TCP."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from device_rig import EventLog, RigClock, running

from dealer_assist.table.spots import BANK, Spot, SpotKind, layout
from devices.kinds.events import (
    DeviceEvent,
    Distrust,
    FrameRejected,
    LinkChanged,
    ReadingsUntrusted,
    ScanCompleted,
    SpotCleared,
    SpotRead,
    SpotsListed,
    WagersFault,
    WagersHello,
)
from devices.kinds.wagers import STALLED_AFTER, WagerReader
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.link import LinkState
from devices.wire.timing import BACKOFF_FIRST, HEARTBEAT_EVERY, REPEAT_EVERY
from hw_sims.endpoints import Endpoint
from hw_sims.faults import BAD_FRAMES, FaultKind
from hw_sims.wagers import FAULT_TEXTS, STILL_FOR, WagerEmulator

SEATS = 2
SPOTS = layout(SEATS)
ONE = Spot(1, SpotKind.BASE)
TWO_LL = Spot(2, SpotKind.LUCKY_LUCKY)


class TrustLog(EventLog):
    """Each event with whether the host called its readings usable just after it."""

    reader: WagerReader | None = None

    def __init__(self) -> None:
        super().__init__()
        self.trusted: list[tuple[DeviceEvent, bool]] = []

    def __call__(self, event: DeviceEvent) -> None:
        assert self.reader is not None
        self.trusted.append((event, self.reader.readings().trusted))
        super().__call__(event)


@contextmanager
def reader(
    endpoint: Endpoint, clock: Clock = MONOTONIC, **options: Any
) -> Iterator[tuple[WagerEmulator, WagerReader, TrustLog]]:
    options.setdefault("seats", SEATS)
    log = TrustLog()
    log.reader = WagerReader(endpoint.url, log, clock)
    with running(WagerEmulator(endpoint, clock=clock, **options), log.reader) as (emulator, host):
        log.wait_for(lambda log: bool(log.of(ScanCompleted)))
        yield emulator, host, log


def settled(emulator: WagerEmulator, host: WagerReader) -> bool:
    return host.stats().duplicates == emulator.stats.duplicates


def reasons(log: EventLog) -> Counter[str]:
    return Counter(event.reason.value for event in log.of(FrameRejected))


def reads_of(log: EventLog, spot: Spot) -> list[SpotRead]:
    return [event for event in log.of(SpotRead) if event.spot == spot]


def scanned(log: EventLog, count: int) -> Any:
    return lambda log: len(log.of(ScanCompleted)) >= count


def after(log: EventLog, marker: DeviceEvent) -> list[DeviceEvent]:
    events = log.of(DeviceEvent)
    return events[events.index(marker) + 1 :]


def test_icd_6_hello_with_casino_then_spots_then_a_scan_of_every_spot(endpoint: Endpoint) -> None:
    contents = {ONE: [2500, 2500, 500], BANK: [100000]}
    with reader(endpoint, contents=contents, casino="RIVERSIDE") as (emulator, host, log):
        events = list(log.events)
        readings = host.readings()
    hello, up, listed, *reads, done = events
    assert isinstance(hello, WagersHello) and hello.casino == "RIVERSIDE" and hello.boot == emulator.boot
    assert up == LinkChanged(LinkState.UP) and listed == SpotsListed(SPOTS)
    expected = tuple(SpotRead(spot, len(contents.get(spot, [])), sum(contents.get(spot, [])), 0) for spot in SPOTS)
    assert tuple(reads) == expected and done == ScanCompleted(emulator.scans[0], expected, ())
    assert readings.trusted and readings.usable(ONE) == SpotRead(ONE, 3, 5500, 0)
    assert [trusted for _, trusted in log.trusted] == [False] * (len(events) - 1) + [True]


def test_icd_6_spots_too_many_for_one_frame_come_in_several_and_the_host_takes_their_union(endpoint: Endpoint) -> None:
    with reader(endpoint, seats=10) as (emulator, host, log):
        listed = log.of(SpotsListed)
    assert len(listed) == 2 and listed[-1] == SpotsListed(layout(10)) and host.readings().spots == layout(10)
    assert len(log.of(ScanCompleted)[0].spots) == len(layout(10))


def test_icd_6_a_change_is_reported_whole_once_the_spot_held_still_300_ms(endpoint: Endpoint, clock: RigClock) -> None:
    with reader(endpoint, clock) as (emulator, host, log):
        emulator.sim_place(ONE, [2500])
        emulator.sim_add(ONE, [500, 500])  # within 300 ms of the place: one report of both
        clock.advance(STILL_FOR)
        log.wait_for(lambda log: len(reads_of(log, ONE)) == 2)
        emulator.sim_remove(ONE, [500])
        clock.advance(STILL_FOR)
        log.wait_for(lambda log: len(reads_of(log, ONE)) == 3)
        emulator.sim_remove(ONE)
        clock.advance(STILL_FOR)
        log.wait_for(lambda log: len(reads_of(log, ONE)) == 4)
        readings = host.readings()
    assert reads_of(log, ONE)[1:] == [SpotRead(ONE, 3, 3500, 0), SpotRead(ONE, 2, 3000, 0), SpotRead(ONE, 0, 0, 0)]
    assert readings.trusted and readings.usable(ONE) == SpotRead(ONE, 0, 0, 0)


def test_icd_6_alien_chips_are_counted_apart_and_not_in_the_total(endpoint: Endpoint, clock: RigClock) -> None:
    with reader(endpoint, clock, contents={TWO_LL: [1000]}) as (emulator, host, log):
        emulator.sim_alien(TWO_LL, 3)
        clock.advance(STILL_FOR)
        log.wait_for(lambda log: len(reads_of(log, TWO_LL)) == 2)
        emulator.sim_alien(TWO_LL, 0)
        clock.advance(STILL_FOR)
        log.wait_for(lambda log: len(reads_of(log, TWO_LL)) == 3)
        assert emulator.heartbeat_count() == 1
    assert reads_of(log, TWO_LL)[1:] == [SpotRead(TWO_LL, 1, 1000, 3), SpotRead(TWO_LL, 1, 1000, 0)]


def test_icd_6_an_antenna_fault_holds_the_spot_back_until_its_clear(endpoint: Endpoint, clock: RigClock) -> None:
    with reader(endpoint, clock) as (emulator, host, log):
        emulator.sim_antenna(ONE)
        log.wait_for(lambda log: bool(log.of(WagersFault)))
        assert host.readings().usable(ONE) is None and host.readings().faults == {ONE: "ANTENNA"}
        emulator.sim_place(ONE, [500])
        emulator.sim_place(TWO_LL, [100])
        clock.advance(STILL_FOR)
        log.wait_for(lambda log: len(reads_of(log, TWO_LL)) == 2)  # another spot goes on; the faulted one waits
        emulator.sim_clear(ONE)
        log.wait_for(lambda log: len(reads_of(log, ONE)) == 2)
        readings = host.readings()
        tail = after(log, log.of(WagersFault)[0])
    assert log.of(WagersFault) == [WagersFault("ANTENNA", ONE, FAULT_TEXTS["ANTENNA"])]
    assert tail == [SpotRead(TWO_LL, 1, 100, 0), SpotCleared(ONE), SpotRead(ONE, 1, 500, 0)]
    assert readings.faults == {} and readings.usable(ONE) == SpotRead(ONE, 1, 500, 0)


def test_icd_6_a_collision_fault_leaves_the_spot_out_of_a_scan(endpoint: Endpoint, clock: RigClock) -> None:
    with reader(endpoint, clock) as (emulator, host, log):
        emulator.sim_collision(ONE)
        log.wait_for(lambda log: bool(log.of(WagersFault)))
        emulator.sim_power_up()  # a scan follows the new boot
        log.wait_for(scanned(log, 2))
        second = log.of(ScanCompleted)[1]
        emulator.sim_clear(ONE)
        log.wait_for(lambda log: bool(log.of(SpotCleared)))
        log.wait_for(lambda log: len(reads_of(log, ONE)) == 2)
    collision = WagersFault("COLLISION", ONE, FAULT_TEXTS["COLLISION"])
    assert log.of(WagersFault) == [collision, collision]  # reported again after the power-up
    assert second.left_out == (ONE,) and [read.spot for read in second.spots] == [s for s in SPOTS if s != ONE]


def test_icd_6_after_a_cut_line_the_host_scans_before_the_readings_are_usable(
    endpoint: Endpoint, clock: RigClock
) -> None:
    with reader(endpoint, clock, contents={ONE: [500]}) as (emulator, host, log):
        emulator.sim_disconnect()
        log.wait_for(lambda log: LinkChanged(LinkState.DOWN) in log.events)
        assert not host.readings().trusted
        emulator.sim_add(ONE, [2500])  # chips placed while the line is cut
        clock.advance(STILL_FOR)
        clock.advance(BACKOFF_FIRST)
        log.wait_for(scanned(log, 2))
        readings = host.readings()
        down = log.events.index(LinkChanged(LinkState.DOWN))
        tail = log.events[down + 1 :]
        trust = [trusted for _, trusted in log.trusted[down:]]
    assert emulator.stats.disconnects == 1 and len(emulator.scans) == 2
    assert tail[0] == ReadingsUntrusted(Distrust.OUTAGE) and LinkChanged(LinkState.UP) in tail
    assert tail[-1] == log.of(ScanCompleted)[1] and SpotRead(ONE, 2, 3000, 0) in tail[-1].spots
    assert trust == [False] * (len(trust) - 1) + [True], "nothing between the cut and the scan is usable"
    assert readings.trusted and readings.usable(ONE) == SpotRead(ONE, 2, 3000, 0)


def test_icd_6_a_power_up_brings_a_new_boot_spots_and_a_scan(endpoint: Endpoint) -> None:
    with reader(endpoint, contents={ONE: [500]}) as (emulator, host, log):
        first_boot = emulator.boot
        emulator.sim_power_up()
        log.wait_for(scanned(log, 2))
        stats = host.stats()
        tail = after(log, log.of(ScanCompleted)[0])
    hello, untrusted, listed, *reads, done = tail
    assert isinstance(hello, WagersHello) and hello.boot == emulator.boot != first_boot
    assert untrusted == ReadingsUntrusted(Distrust.NEW_BOOT) and listed == SpotsListed(SPOTS)
    assert done == ScanCompleted(emulator.scans[1], tuple(reads), ()) and SpotRead(ONE, 1, 500, 0) in reads
    assert stats.duplicates == 0 and stats.rejected == 0  # SEQ from 0000 again, taken as new


def test_icd_1_every_bad_frame_is_rejected_for_its_reason_and_counted(endpoint: Endpoint, clock: RigClock) -> None:
    rates = {kind: 0.25 for kind in (*BAD_FRAMES, FaultKind.NOISE, FaultKind.SPLIT)}
    with reader(endpoint, clock, seed=3, seats=7, faults=rates) as (emulator, host, log):
        for kind in rates:
            emulator.sim_set_fault_rate(kind, 0.0)
        emulator.sim_place(ONE, [500])  # the last frame that may carry bad ones before it
        clock.advance(STILL_FOR)
        log.wait_for(lambda log: len(reads_of(log, ONE)) == 2)
        log.wait_for(lambda log: reasons(log) == emulator.stats.bad)
        stats = host.stats()
    assert set(reasons(log)) == {kind.value for kind in BAD_FRAMES}
    assert stats.rejected == sum(emulator.stats.bad.values())
    assert [read.spot for read in log.of(ScanCompleted)[0].spots] == list(layout(7))


def test_icd_1_a_frame_sent_twice_with_its_seq_is_dropped_as_duplicate(endpoint: Endpoint) -> None:
    with reader(endpoint, faults={FaultKind.DUPLICATE: 1.0}) as (emulator, host, log):
        log.wait_for(lambda log: host.stats().duplicates == emulator.stats.duplicates)
    assert emulator.stats.duplicates >= len(SPOTS) + 2
    assert len(log.of(SpotRead)) == len(SPOTS) and len(log.of(SpotsListed)) == 1


def test_icd_1_a_withheld_ack_makes_the_reader_repeat_and_the_repeat_is_dropped(
    endpoint: Endpoint, clock: RigClock
) -> None:
    log = TrustLog()
    log.reader = WagerReader(endpoint.url, log, clock)
    emulator = WagerEmulator(endpoint, seats=SEATS, clock=clock, faults={FaultKind.WITHHELD_ACK: 1.0})
    with running(emulator, log.reader) as (emulator, host):
        while not (log.of(ScanCompleted) and emulator._delivery.idle and settled(emulator, host)):
            heard = host.stats().duplicates
            if emulator.stats.duplicates > heard:  # the reader withheld an ACK: its repeat is 200 ms away
                clock.advance(REPEAT_EVERY)
                log.wait_for(lambda log: host.stats().duplicates > heard)
            else:
                time.sleep(0.005)
        stats, readings = host.stats(), host.readings()
    assert emulator.stats.duplicates == stats.duplicates >= len(SPOTS) + 2
    assert len(log.of(SpotRead)) == len(SPOTS) and readings.trusted, log.events


def test_icd_6_a_reader_that_gave_up_on_a_spot_is_reopened_and_scanned(endpoint: Endpoint, clock: RigClock) -> None:
    with reader(endpoint, clock) as (emulator, host, log):
        emulator.sim_drop_acks(6)  # the SPOT and its 5 repeats all go unacknowledged
        emulator.sim_place(ONE, [500])
        clock.advance(STILL_FOR)
        for dropped in range(1, 7):
            log.wait_for(lambda log: emulator.stats.duplicates >= dropped)
            clock.advance(REPEAT_EVERY)
        emulator.sim_place(TWO_LL, [100])  # the reader has given up: this SPOT waits behind the held one
        clock.advance(STILL_FOR)
        quiet_since = clock.now()
        while LinkChanged(LinkState.DOWN) not in log.events:  # HB says 2 chips; the host knows of 1
            heard = host.stats().accepted
            clock.advance(HEARTBEAT_EVERY)
            log.wait_for(lambda log: host.stats().accepted > heard or LinkChanged(LinkState.DOWN) in log.events)
        assert clock.now() - quiet_since > STALLED_AFTER
        clock.advance(BACKOFF_FIRST)
        log.wait_for(scanned(log, 2))
        log.wait_for(lambda log: host.stats().duplicates == emulator.stats.duplicates)  # the last ACK on its way
        links = [event.state for event in log.of(LinkChanged)]
        stats = host.stats()
        readings = host.readings()
    assert links == [LinkState.UP, LinkState.DOWN, LinkState.UP]
    assert reads_of(log, ONE)[1] == SpotRead(ONE, 1, 500, 0) and reads_of(log, TWO_LL)[1] == SpotRead(TWO_LL, 1, 100, 0)
    assert log.events.index(SpotRead(TWO_LL, 1, 100, 0)) > log.events.index(LinkChanged(LinkState.DOWN))
    assert readings.usable(TWO_LL) == SpotRead(TWO_LL, 1, 100, 0)
    assert stats.duplicates == emulator.stats.duplicates >= 6  # more when a repeat crossed a late ACK on a busy machine

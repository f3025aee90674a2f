"""The shoe scanner contract (DEVICES.md §1-§2), run against every link: in-process, pty, TCP."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from device_rig import EventLog, RigClock, running

from dealer_assist.rules.cards import parse_card
from devices.kinds.events import (
    CardSeen,
    CardsMissed,
    CardUnread,
    CutReached,
    DeviceFault,
    DeviceHello,
    FrameRejected,
    LidChanged,
    LinkChanged,
    LockChanged,
    ShoeLoaded,
)
from devices.kinds.shoe import STALLED_AFTER, ShoeScanner
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.link import LinkState
from devices.wire.messages import LidState, LockState
from devices.wire.timing import BACKOFF_FIRST, REPEAT_EVERY, SILENCE_LIMIT
from hw_sims.endpoints import Endpoint
from hw_sims.faults import BAD_FRAMES, FaultKind
from hw_sims.shoe import ShoeEmulator

SCRIPT = [parse_card(text) for text in "AS KD 7H 2C TC 9S 3D QH 5S 8C JD 4H 6C AH KS".split()]
FAST = 0.005


@contextmanager
def shoe(
    endpoint: Endpoint, clock: Clock = MONOTONIC, **options: Any
) -> Iterator[tuple[ShoeEmulator, ShoeScanner, EventLog]]:
    options.setdefault("cards", SCRIPT)
    options.setdefault("pace", FAST)
    log = EventLog()
    with running(ShoeEmulator(endpoint, clock=clock, **options), ShoeScanner(endpoint.url, log, clock)) as (
        emulator,
        scanner,
    ):
        yield emulator, scanner, log


def numbers(log: EventLog) -> list[int]:
    return [event.n for event in log.of(CardSeen, CardUnread)]


def reasons(log: EventLog) -> Counter[str]:
    return Counter(event.reason.value for event in log.of(FrameRejected))


def dealt_out(emulator: ShoeEmulator) -> Any:
    """Every card numbered 1..N arrived (or was named missing)."""
    last = len(emulator.cards)
    return lambda log: last in numbers(log)


def settled(emulator: ShoeEmulator, scanner: ShoeScanner) -> Any:
    """The emulator has nothing left to deliver and the host counted every duplicate it was sent."""
    return lambda log: (
        emulator.dealt == len(emulator.cards)
        and emulator._delivery.idle
        and scanner.stats().duplicates == emulator.stats.duplicates
    )


def test_icd_1_hello_brings_the_link_up(endpoint: Endpoint) -> None:
    with shoe(endpoint) as (emulator, _, log):
        log.wait_for(lambda log: bool(log.of(LinkChanged)))
        hello, up = log.events[:2]
    assert isinstance(hello, DeviceHello) and hello.boot == emulator.boot and hello.model == "SIM-SHOE"
    assert up == LinkChanged(LinkState.UP)


def test_icd_2_cards_arrive_once_each_in_order(endpoint: Endpoint) -> None:
    with shoe(endpoint) as (emulator, scanner, log):
        log.wait_for(dealt_out(emulator))
        loaded = log.of(ShoeLoaded)
        cards = log.of(CardSeen)
    assert loaded == [ShoeLoaded(emulator.shoe_id, 6)]
    assert cards == [CardSeen(n, card) for n, card in enumerate(SCRIPT, start=1)]
    assert scanner.stats().rejected == 0 and scanner.stats().duplicates == 0


def test_icd_2_cut_card_reported_after_its_card(endpoint: Endpoint) -> None:
    with shoe(endpoint, cut=4) as (emulator, _, log):
        log.wait_for(dealt_out(emulator))
        order = [(type(event).__name__, event.n) for event in log.of(CardSeen, CutReached)]
    assert order.index(("CutReached", 4)) == order.index(("CardSeen", 4)) + 1


def test_icd_2_lock_on_holds_the_next_card_and_off_releases_it(endpoint: Endpoint, clock: RigClock) -> None:
    pace = 0.05
    with shoe(endpoint, clock, pace=pace) as (emulator, scanner, log):
        log.wait_for(lambda log: len(log.of(CardSeen)) >= 2)
        scanner.set_lock(True)
        log.wait_for(lambda log: LockChanged(LockState.ON) in log.events)
        held_at = emulator.dealt
        for _ in range(10):  # ten dealing paces: an unlocked shoe would have dealt more
            clock.advance(pace)
            time.sleep(FAST)
        assert emulator.dealt == held_at < len(SCRIPT)
        scanner.set_lock(False)
        log.wait_for(dealt_out(emulator))
    assert log.of(LockChanged) == [LockChanged(LockState.ON), LockChanged(LockState.OFF)]
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_a_frame_sent_twice_with_its_seq_is_dropped_as_duplicate(endpoint: Endpoint) -> None:
    with shoe(endpoint, faults={FaultKind.DUPLICATE: 1.0}) as (emulator, scanner, log):
        log.wait_for(settled(emulator, scanner))
        assert emulator.stats.duplicates >= len(SCRIPT)
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_a_withheld_ack_makes_the_sender_repeat_and_the_repeat_is_dropped(
    endpoint: Endpoint, clock: RigClock
) -> None:
    with shoe(endpoint, clock, faults={FaultKind.WITHHELD_ACK: 1.0}) as (emulator, scanner, log):
        while not settled(emulator, scanner)(log):
            heard = scanner.stats().duplicates
            if emulator.stats.duplicates > heard:  # the shoe withheld an ACK: its repeat is 200 ms away
                clock.advance(REPEAT_EVERY)
                log.wait_for(lambda log: scanner.stats().duplicates > heard)
            else:
                time.sleep(FAST)
        assert emulator.stats.duplicates >= len(SCRIPT)
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_a_card_number_already_delivered_is_a_duplicate(endpoint: Endpoint) -> None:
    with shoe(endpoint, faults={FaultKind.REPEAT_CARD: 1.0}) as (emulator, scanner, log):
        log.wait_for(settled(emulator, scanner))
        assert emulator.stats.duplicates == len(SCRIPT)
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_a_card_number_gap_raises_missed_card_naming_the_numbers(endpoint: Endpoint) -> None:
    with shoe(endpoint, seed=4, faults={FaultKind.GAP: 0.3}) as (emulator, _, log):
        log.wait_for(dealt_out(emulator))
        missed = [n for event in log.of(CardsMissed) for n in range(event.first, event.last + 1)]
        seen = numbers(log)
    assert emulator.stats.missed and missed == emulator.stats.missed
    assert sorted(seen + missed) == list(range(1, len(SCRIPT) + 1)) and seen == sorted(seen)


def test_icd_2_noread_lid_and_jam_become_events(endpoint: Endpoint) -> None:
    rates = {FaultKind.NOREAD: 0.3, FaultKind.LID: 0.2, FaultKind.JAM: 0.2}
    with shoe(endpoint, seed=2, faults=rates) as (emulator, _, log):
        log.wait_for(dealt_out(emulator))
        unread = [event.n for event in log.of(CardUnread)]
        lids = log.of(LidChanged)
        jams = log.of(DeviceFault)
    assert unread and unread == emulator.stats.noreads
    assert lids and lids == [LidChanged(LidState.OPEN), LidChanged(LidState.CLOSED)] * (len(lids) // 2)
    assert jams and all(fault.code == "JAM" for fault in jams)


def test_icd_2_lid_and_jam_asked_of_the_emulator_arrive_in_order(endpoint: Endpoint) -> None:
    with shoe(endpoint) as (emulator, _, log):
        log.wait_for(dealt_out(emulator))
        emulator.sim_lid()
        emulator.sim_jam()
        log.wait_for(lambda log: bool(log.of(DeviceFault)))
        tail = log.of(LidChanged, DeviceFault)
    assert tail == [
        LidChanged(LidState.OPEN),
        LidChanged(LidState.CLOSED),
        DeviceFault("JAM", "card jammed at the exit"),
    ]


def test_icd_1_every_bad_frame_is_rejected_for_its_reason_and_counted(endpoint: Endpoint) -> None:
    rates = {kind: 0.25 for kind in (*BAD_FRAMES, FaultKind.NOISE, FaultKind.SPLIT)}
    with shoe(endpoint, seed=7, faults=rates) as (emulator, scanner, log):
        log.wait_for(dealt_out(emulator))
        for kind in rates:
            emulator.sim_set_fault_rate(kind, 0.0)
        log.wait_for(lambda log: reasons(log) == emulator.stats.bad)
        stats = scanner.stats()
    assert set(reasons(log)) == {kind.value for kind in BAD_FRAMES}
    assert stats.rejected == sum(emulator.stats.bad.values())
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_disconnects_reconnect_and_lose_nothing(endpoint: Endpoint, clock: RigClock) -> None:
    with shoe(endpoint, clock, seed=1, pace=0.02, disconnects=3) as (emulator, scanner, log):
        for drops in range(1, 4):  # the host reopens the port after its back-off
            log.wait_for(lambda log: log.of(LinkChanged).count(LinkChanged(LinkState.DOWN)) >= drops)
            clock.advance(BACKOFF_FIRST)
        log.wait_for(dealt_out(emulator))
        log.wait_for(lambda log: len(log.of(LinkChanged)) == 7)
        links = [event.state for event in log.of(LinkChanged)]
    assert links == [LinkState.UP] + [LinkState.DOWN, LinkState.UP] * 3 and emulator.stats.disconnects == 3
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_a_shoe_that_gave_up_on_a_card_is_reopened_and_the_card_still_arrives(
    endpoint: Endpoint, clock: RigClock
) -> None:
    with shoe(endpoint, clock, pace=0.05) as (emulator, scanner, log):
        log.wait_for(lambda log: len(log.of(CardSeen)) >= 2)
        emulator.sim_drop_acks(6)  # the card in flight and its 5 repeats all go unacknowledged
        for dropped in range(1, 7):  # each sending 200 ms after the one before; after the sixth, none
            log.wait_for(lambda log: emulator.stats.duplicates >= dropped)
            clock.advance(REPEAT_EVERY)
        clock.advance(STALLED_AFTER)  # heartbeats run ahead of the cards this long: the host reopens
        log.wait_for(lambda log: LinkChanged(LinkState.DOWN) in log.events)
        clock.advance(BACKOFF_FIRST)
        log.wait_for(dealt_out(emulator))
        log.wait_for(settled(emulator, scanner))
        links = [event.state for event in log.of(LinkChanged)]
    assert links == [LinkState.UP, LinkState.DOWN, LinkState.UP] and emulator.stats.duplicates >= 6  # see settled()
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_silence_over_3000_ms_is_link_down_until_the_next_hello(endpoint: Endpoint, clock: RigClock) -> None:
    with shoe(endpoint, clock, seed=1, pace=0.02, silences=1) as (emulator, _, log):
        log.wait_for(lambda log: emulator.stats.silences == 1)
        clock.advance(SILENCE_LIMIT)  # the host gives up while the shoe is still silent
        log.wait_for(lambda log: LinkChanged(LinkState.DOWN) in log.events)
        clock.advance(BACKOFF_FIRST)
        log.wait_for(lambda log: [e.state for e in log.of(LinkChanged)] == [LinkState.UP, LinkState.DOWN, LinkState.UP])
        log.wait_for(dealt_out(emulator))
    assert emulator.stats.silences == 1
    assert numbers(log) == list(range(1, len(SCRIPT) + 1))


def test_icd_1_a_host_starting_mid_shoe_takes_the_first_number_it_sees(endpoint: Endpoint) -> None:
    with shoe(endpoint, pace=0.05) as (emulator, first, log):
        log.wait_for(lambda log: len(log.of(CardSeen)) >= 3)
        first.stop()
        later = EventLog()
        second = ShoeScanner(endpoint.url, later)
        second.start()
        try:
            later.wait_for(dealt_out(emulator))
        finally:
            second.stop()
    seen = [event.n for event in later.of(CardSeen)]
    assert seen[0] > 1 and seen == list(range(seen[0], len(SCRIPT) + 1))
    assert not later.of(CardsMissed) and not later.of(ShoeLoaded)

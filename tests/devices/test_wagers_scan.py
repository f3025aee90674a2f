"""DEVICES.md §6 on the host's side, frame by frame with a hand-held clock: when the readings can be
used, what completes a scan, what a stale or partial one is, spots checked against the last SPOTS."""

from __future__ import annotations

import threading
from dataclasses import replace

import pytest
from device_rig import EventLog, Wire

from dealer_assist.table.spots import Spot, SpotKind
from devices.kinds.events import (
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
from devices.wire.codec import encode
from devices.wire.framing import RejectReason, encode_frame
from devices.wire.link import LinkState
from devices.wire.messages import (
    HOST_TO_WAGERS,
    Ack,
    Heartbeat,
    Ident,
    Message,
    Nak,
    ReaderFault,
    ReaderHello,
    Scan,
    Scanned,
    SpotClear,
    SpotContent,
    SpotList,
)
from devices.wire.timing import HEARTBEAT_EVERY

ONE = Spot(1, SpotKind.BASE)
TWO = Spot(2, SpotKind.BASE)
BOOT, OTHER_BOOT = "0000BEEF", "0000CAFE"


class HandClock:
    """The reader's clock, moved only by the test."""

    def __init__(self) -> None:
        self.t = 100.0

    def now(self) -> float:
        return self.t

    def wait(self, event: threading.Event, seconds: float) -> bool:
        return event.is_set()


class Bench:
    """A wager reader's host end with no port: the test writes the reader's frames and reads the host's."""

    def __init__(self) -> None:
        self.clock = HandClock()
        self.log = EventLog()
        self.host = WagerReader("inproc://nowhere", self.log, self.clock)
        self.link = self.host._link
        self.wire = Wire(HOST_TO_WAGERS)
        self.seq = 0
        self.link.opened(self.wire, self.clock.t)

    def say(self, *messages: Message) -> None:
        """The reader sends these, each with its next SEQ."""
        for message in messages:
            self.link.received(encode_frame(encode(replace(message, seq=self.seq))), self.clock.t)
            self.seq = (self.seq + 1) & 0xFFFF

    def hello(self, boot: str = BOOT, spots: tuple[Spot, ...] = (ONE, TWO)) -> None:
        self.say(ReaderHello(0, "V", "M", "S", "F", "1.3", boot, "CASINO"), SpotList(0, spots))

    def scan_seq(self) -> int:
        """The SEQ of the host's last SCAN, acknowledged by the reader."""
        scans = [message for message in self.wire.sent if isinstance(message, Scan)]
        assert scans, f"the host sent no SCAN: {self.wire.sent}"
        self.say(Ack(0, scans[-1].seq))
        return scans[-1].seq

    def answer(self, seq: int, *contents: tuple[Spot, int, int]) -> None:
        self.say(*(SpotContent(0, spot, chips, total, 0) for spot, chips, total in contents))
        self.say(Scanned(0, seq, len(contents)))

    def reopen(self) -> None:
        self.link.closed()
        self.link.opened(self.wire, self.clock.t)

    def scans_sent(self) -> int:
        return sum(isinstance(message, Scan) for message in self.wire.sent)


@pytest.fixture
def bench() -> Bench:
    return Bench()


def trusted_bench(bench: Bench, *contents: tuple[Spot, int, int]) -> Bench:
    bench.hello()
    bench.answer(bench.scan_seq(), *contents)
    assert bench.host.readings().trusted
    return bench


def test_icd_6_the_host_scans_after_the_first_hello_and_trusts_the_readings_once_scanned(bench: Bench) -> None:
    assert bench.scans_sent() == 0  # nothing ✓ before the HELLO
    bench.hello()
    seq = bench.scan_seq()
    bench.say(SpotContent(0, ONE, 2, 3000, 1))
    assert not bench.host.readings().trusted and bench.host.readings().usable(ONE) is None
    bench.say(SpotContent(0, TWO, 0, 0, 0), Scanned(0, seq, 2))
    readings = bench.host.readings()
    assert readings.trusted and readings.usable(ONE) == SpotRead(ONE, 2, 3000, 1)
    assert bench.log.events[-1] == ScanCompleted(seq, (SpotRead(ONE, 2, 3000, 1), SpotRead(TWO, 0, 0, 0)), ())
    assert isinstance(bench.log.events[0], WagersHello) and bench.log.events[0].casino == "CASINO"
    assert bench.scans_sent() == 1


def test_icd_6_a_scanned_for_another_seq_or_more_spots_than_came_is_stale(bench: Bench) -> None:
    bench.hello()
    seq = bench.scan_seq()
    bench.answer((seq + 1) & 0xFFFF, (ONE, 1, 100), (TWO, 1, 100))
    bench.say(Scanned(0, seq, 3))  # names three SPOTs; two came since the SCAN
    assert bench.host.stale == 2 and not bench.host.readings().trusted and not bench.log.of(ScanCompleted)
    bench.answer(seq, (ONE, 1, 100), (TWO, 1, 100))
    assert bench.host.readings().trusted and bench.host.stale == 2


def test_icd_6_a_scan_cut_by_an_outage_is_dropped_even_when_the_new_scan_has_its_seq(bench: Bench) -> None:
    bench.hello()
    first = bench.scan_seq()
    bench.say(SpotContent(0, ONE, 1, 500, 0))  # the scan's first SPOT, then the line drops
    bench.reopen()
    assert bench.log.of(LinkChanged) == [LinkChanged(LinkState.UP), LinkChanged(LinkState.DOWN)]
    bench.hello()
    second = bench.scan_seq()
    assert second == first  # the host's SEQ restarted with the port, so the SEQs collide
    bench.say(SpotContent(0, TWO, 0, 0, 0), Scanned(0, first, 2))  # the rest of the cut scan, held over the outage
    assert bench.host.stale == 1 and not bench.host.readings().trusted
    bench.answer(second, (ONE, 1, 500), (TWO, 4, 2000))
    assert bench.host.readings().trusted and bench.host.readings().usable(TWO) == SpotRead(TWO, 4, 2000, 0)


def test_icd_6_after_an_outage_the_readings_are_untrusted_until_the_next_scan(bench: Bench) -> None:
    trusted_bench(bench, (ONE, 1, 500), (TWO, 0, 0))
    bench.reopen()
    assert bench.log.events[-2:] == [LinkChanged(LinkState.DOWN), ReadingsUntrusted(Distrust.OUTAGE)]
    assert not bench.host.readings().trusted and bench.scans_sent() == 1
    bench.hello()
    bench.say(SpotContent(0, ONE, 2, 1000, 0))  # a change made during the outage: delivered, not yet trusted
    assert bench.log.events[-1] == SpotRead(ONE, 2, 1000, 0) and not bench.host.readings().trusted
    bench.answer(bench.scan_seq(), (ONE, 2, 1000), (TWO, 0, 0))
    assert bench.host.readings().trusted and bench.scans_sent() == 2
    assert bench.log.of(ReadingsUntrusted) == [ReadingsUntrusted(Distrust.OUTAGE)]


def test_icd_6_a_new_boot_while_the_link_is_up_is_scanned_at_once_and_its_faults_forgotten(bench: Bench) -> None:
    trusted_bench(bench, (ONE, 1, 500), (TWO, 0, 0))
    bench.say(ReaderFault(0, "ANTENNA", TWO, "coil"))
    bench.seq = 0  # the reader powered up: its SEQ starts again, which the host must not drop as duplicates
    bench.hello(OTHER_BOOT)
    assert ReadingsUntrusted(Distrust.NEW_BOOT) in bench.log.events and bench.scans_sent() == 2
    assert bench.host.readings().faults == {}
    bench.answer(bench.scan_seq(), (ONE, 1, 500), (TWO, 0, 0))
    assert bench.host.readings().trusted and bench.host.stats().duplicates == 0
    assert bench.log.of(LinkChanged) == [LinkChanged(LinkState.UP)]


def test_icd_6_a_spot_missing_from_the_last_spots_is_malformed_naked_and_counted(bench: Bench) -> None:
    stray = Spot(9, SpotKind.LUCKY_LUCKY)
    bench.say(ReaderHello(0, "V", "M", "S", "F", "1.3", BOOT, "CASINO"))
    bench.say(SpotContent(0, stray, 1, 100, 0))  # before any SPOTS there is no list to miss it from
    assert bench.log.events[-1] == SpotRead(stray, 1, 100, 0)
    bench.say(SpotList(0, (ONE, TWO)))
    sent = len(bench.wire.sent)
    bench.say(SpotContent(0, stray, 1, 100, 0), SpotClear(0, stray), ReaderFault(0, "ANTENNA", stray, ""))
    rejected = bench.log.of(FrameRejected)
    assert [event.reason for event in rejected] == [RejectReason.MALFORMED] * 3
    assert all("'9.ll'" in event.detail for event in rejected)
    assert [type(m) for m in bench.wire.sent[sent:]] == [Nak] * 3 and bench.host.stats().rejected == 3


def test_icd_6_spots_frames_in_a_row_are_one_list_and_a_hello_starts_another(bench: Bench) -> None:
    three = Spot(3, SpotKind.BASE)
    bench.hello(spots=(ONE,))
    bench.say(SpotList(0, (TWO, ONE)))
    assert bench.log.of(SpotsListed)[-1] == SpotsListed((ONE, TWO))
    bench.say(SpotContent(0, TWO, 0, 0, 0), SpotList(0, (three,)))  # another ✓ frame ended the list
    assert bench.host.readings().spots == (three,)
    bench.hello(spots=(ONE,))
    bench.say(SpotList(0, (three,)))
    assert bench.host.readings().spots == (ONE, three)


def test_icd_6_a_spot_under_fault_is_read_out_but_not_usable_until_its_clear(bench: Bench) -> None:
    trusted_bench(bench, (ONE, 1, 500), (TWO, 0, 0))
    bench.say(ReaderFault(0, "COLLISION", ONE, "too many chips"), ReaderFault(0, "POWER", None, "low"))
    faults = [WagersFault("COLLISION", ONE, "too many chips"), WagersFault("POWER", None, "low")]
    assert bench.log.of(WagersFault) == faults
    bench.say(SpotContent(0, ONE, 9, 4500, 0))  # against the ICD, but a whole content: shown, not used
    readings = bench.host.readings()
    assert bench.log.events[-1] == SpotRead(ONE, 9, 4500, 0) and readings.usable(ONE) is None
    assert readings.faults == {ONE: "COLLISION"} and readings.usable(TWO) == SpotRead(TWO, 0, 0, 0)
    bench.say(SpotClear(0, ONE), SpotContent(0, ONE, 9, 4500, 0))
    assert bench.log.events[-2] == SpotCleared(ONE) and bench.host.readings().usable(ONE) == SpotRead(ONE, 9, 4500, 0)


def test_icd_6_a_scan_leaves_out_the_spots_under_fault(bench: Bench) -> None:
    bench.hello()
    seq = bench.scan_seq()
    bench.say(ReaderFault(0, "ANTENNA", TWO, "coil"))
    bench.answer(seq, (ONE, 1, 500))
    assert bench.log.events[-1] == ScanCompleted(seq, (SpotRead(ONE, 1, 500, 0),), (TWO,))
    assert bench.host.readings().usable(TWO) is None


HELD = int(STALLED_AFTER // HEARTBEAT_EVERY) + 2  # heartbeats of one count that span more than STALLED_AFTER


def heartbeats(bench: Bench, chips: int, count: int) -> None:
    for _ in range(count):
        bench.clock.t += HEARTBEAT_EVERY
        bench.say(Heartbeat(0, chips))


def test_icd_6_a_reader_that_holds_back_a_spot_and_sends_only_hb_is_reopened_once(bench: Bench) -> None:
    trusted_bench(bench, (ONE, 1, 500), (TWO, 0, 0))
    heartbeats(bench, 1, 5)  # the chips the host knows: all is well
    assert bench.link.tick(bench.clock.t)
    for chips in range(2, 2 + HELD):  # the layout moving: the reader waits for it to hold still
        heartbeats(bench, chips, 1)
    assert bench.link.tick(bench.clock.t)
    heartbeats(bench, 9, HELD - 1)
    assert bench.link.tick(bench.clock.t)
    heartbeats(bench, 9, 1)  # the same count past STALLED_AFTER, and no ✓ frame: a SPOT held back
    assert not bench.link.tick(bench.clock.t)
    bench.reopen()
    bench.hello()
    heartbeats(bench, 9, HELD)  # reopened once for this count, until the scan that follows settles it
    assert bench.link.tick(bench.clock.t)


def test_icd_6_a_scan_acknowledged_and_never_answered_reopens_the_link(bench: Bench) -> None:
    bench.hello()
    bench.scan_seq()
    heartbeats(bench, 0, HELD - 1)
    assert bench.link.tick(bench.clock.t)
    heartbeats(bench, 0, 1)
    assert not bench.link.tick(bench.clock.t)
    bench.reopen()
    assert [type(message) for message in bench.wire.sent[-1:]] == [Ident]
    bench.hello()
    bench.answer(bench.scan_seq(), (ONE, 0, 0), (TWO, 0, 0))
    assert bench.host.readings().trusted

"""The Natural-peek contract (DEVICES.md §3), run against every link: in-process, pty, TCP."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import pytest
from device_rig import EventLog, RigClock, running

from dealer_assist.rules.cards import Card, parse_card
from dealer_assist.rules.inputs import PeekResult
from devices.kinds.events import LinkChanged
from devices.kinds.peek import PeekReader
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.link import LinkState
from devices.wire.messages import PeekResult as ResultFrame
from devices.wire.timing import PEEK_TIMEOUT
from hw_sims.endpoints import Endpoint
from hw_sims.faults import FaultKind
from hw_sims.peek import PeekEmulator

UP_WAIT = 10.0


@contextmanager
def peek_device(
    endpoint: Endpoint, clock: Clock = MONOTONIC, **options: Any
) -> Iterator[tuple[PeekEmulator, PeekReader, EventLog]]:
    log = EventLog()
    with running(PeekEmulator(endpoint, clock=clock, **options), PeekReader(endpoint.url, log, clock)) as (
        emulator,
        reader,
    ):
        assert reader.wait_up(UP_WAIT)
        yield emulator, reader, log


@contextmanager
def peek_in_background(reader: PeekReader, up: str) -> Iterator[Future[PeekResult]]:
    """`reader.peek(up)` on a thread of its own, so the test can move the clock while it waits."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        yield pool.submit(reader.peek, up)


@pytest.mark.parametrize(
    ("up", "hole", "outcome"),
    [
        ("A", "KS", PeekResult.NATURAL),
        ("A", "TD", PeekResult.NATURAL),
        ("K", "AH", PeekResult.NATURAL),
        ("T", "AC", PeekResult.NATURAL),
        ("A", "9H", PeekResult.NONE),
        ("Q", "KD", PeekResult.NONE),
        ("A", None, PeekResult.NOCARD),
    ],
)
def test_icd_3_each_answer_maps_to_its_outcome(
    endpoint: Endpoint, up: str, hole: str | None, outcome: PeekResult
) -> None:
    with peek_device(endpoint, hole_card=parse_card(hole) if hole else None) as (_, reader, _log):
        assert reader.peek(up) is outcome


def test_icd_3_noread_is_an_outcome_never_a_guess(endpoint: Endpoint) -> None:
    with peek_device(endpoint, hole_card=Card("K", "S"), faults={FaultKind.NOREAD: 1.0}) as (_, reader, _log):
        assert reader.peek("A") is PeekResult.NOREAD


def test_icd_3_an_answer_after_1500_ms_is_a_timeout_and_then_stale(endpoint: Endpoint, clock: RigClock) -> None:
    delay = 2.0
    with peek_device(endpoint, clock, hole_card=Card("K", "S"), delay=delay) as (emulator, reader, log):
        with peek_in_background(reader, "A") as asked:
            log.wait_for(lambda log: emulator.asked == 1)
            clock.advance(PEEK_TIMEOUT)
            assert asked.result() is PeekResult.TIMEOUT
        assert emulator.answered == 0
        clock.advance(delay - PEEK_TIMEOUT)
        log.wait_for(lambda log: reader.stale == 1 and emulator.answered == 1)
        emulator.sim_set_delay(0.0)
        assert reader.peek("A") is PeekResult.NATURAL


def test_icd_3_peeks_in_a_row_each_get_their_own_answer(endpoint: Endpoint) -> None:
    with peek_device(endpoint, hole_card=Card("A", "S")) as (emulator, reader, _log):
        outcomes = [reader.peek(up) for up in "ATJ"]
        emulator.sim_set_hole_card(Card("7", "D"))
        outcomes.append(reader.peek("Q"))
    assert outcomes == [PeekResult.NONE, PeekResult.NATURAL, PeekResult.NATURAL, PeekResult.NONE]


def test_icd_3_a_result_repeated_for_a_lost_ack_is_dropped_as_duplicate(endpoint: Endpoint) -> None:
    with peek_device(endpoint, hole_card=Card("Q", "H"), faults={FaultKind.WITHHELD_ACK: 1.0}) as (
        emulator,
        reader,
        log,
    ):
        assert reader.peek("A") is PeekResult.NATURAL
        log.wait_for(lambda log: emulator.stats.duplicates == reader.stats().duplicates == 1)
        assert reader.stale == 0


def test_icd_3_a_peek_after_the_line_dropped_is_answered_once_the_link_is_back(endpoint: Endpoint) -> None:
    with peek_device(endpoint, hole_card=Card("A", "C")) as (emulator, reader, log):
        emulator.sim_disconnect()
        log.wait_for(lambda log: [e.state for e in log.of(LinkChanged)] == [LinkState.UP, LinkState.DOWN, LinkState.UP])
        assert reader.peek("K") is PeekResult.NATURAL


def test_icd_3_a_silent_device_gives_timeout_never_a_guess(endpoint: Endpoint, clock: RigClock) -> None:
    with peek_device(endpoint, clock, hole_card=Card("A", "C")) as (emulator, reader, log):
        emulator.sim_silence()
        log.wait_for(lambda log: emulator.stats.silences == 1)
        with peek_in_background(reader, "K") as asked:
            log.wait_for(lambda log: emulator.asked == 1)
            clock.advance(PEEK_TIMEOUT)
            assert asked.result() is PeekResult.TIMEOUT


def test_icd_3_no_event_or_emulator_text_carries_the_hole_card(endpoint: Endpoint) -> None:
    hole = Card("Q", "H")
    with peek_device(endpoint, hole_card=hole) as (emulator, reader, log):
        reader.peek("A")
        text = repr(emulator) + repr(log.events)
    assert "QH" not in text and "'Q'" not in text
    assert all(not isinstance(getattr(e, f.name), Card) for e in log.events for f in dataclasses.fields(e))
    assert {f.name for f in dataclasses.fields(ResultFrame)} == {"seq", "request", "answer"}


def test_icd_3_an_up_card_that_cannot_make_a_natural_is_refused() -> None:
    reader = PeekReader("socket://127.0.0.1:9")
    with pytest.raises(ValueError, match="'7'"):
        reader.peek("7")

"""The bench's emulated devices powered up on a journaled table: its shoe goes on, or a new one is due."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from dealer_assist.errors import Failure
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import ShoeLoaded
from dealer_assist.table.table_facts import table_facts
from devices.table_owner.controller import TableController
from hw_sims.bench_devices import BenchDevices, bench_seed

SEED = 4


def _table(tmp_path, profile: str = "c21-8.0") -> Table:
    return Table.open(tmp_path / "table.db", TableConfig("T1", profile))


@contextmanager
def _linked(table: Table) -> Iterator[tuple[BenchDevices, TableController]]:
    """The bench's wire devices and a controller on them, started; all stopped and the table closed after."""
    devices = BenchDevices(lambda: table_facts(table.session), BenchPlayer(SEED, shoe_reports_cut=True))
    linked = TableController(table)
    linked.connect_devices(devices.shoe_url, devices.peek_url)
    devices.start()
    linked.start()
    try:
        yield devices, linked
    finally:
        linked.stop()
        devices.stop()
        table.close()


def test_a_bench_shoe_names_its_seed():
    assert bench_seed("S17-3") == 17
    assert bench_seed("BENCH-3") is None and bench_seed(None) is None and bench_seed("S1-2x") is None


def test_a_table_stopped_after_its_hole_card_gets_its_shoe_and_its_hole_card_back(tmp_path):
    table = _table(tmp_path)
    player = BenchPlayer(SEED)
    session = table.session
    hole = session.profile.hole_index
    while session.tracker is None or len(session.tracker.dealer) <= hole:
        table.submit(player.next_input(table_facts(session)))
    devices = BenchDevices(lambda: table_facts(session), BenchPlayer(SEED, shoe_reports_cut=True))
    devices.start()
    try:
        deadline = time.monotonic() + 5
        while devices.peek.hole_card != session.tracker.dealer[hole]:
            assert time.monotonic() < deadline, "the hole card is not back under the reader"
            time.sleep(0.005)
        assert devices.current.shoe_id == session.s.shoe_id == f"S{SEED}-1"
        assert devices.shoe.dealt == devices.pulled == session.s.shoe_cards
        assert not devices.busy()
    finally:
        devices.stop()
        table.close()


def test_a_shoe_the_bench_did_not_shuffle_reports_its_cut_and_the_next_is_a_bench_shoe(tmp_path):
    table = _table(tmp_path)
    table.submit(ShoeLoaded("BENCH-1", 6))
    with _linked(table) as (devices, linked):
        assert devices.busy(), "the cut card is on its way"
        assert linked.pump_until(lambda: not devices.busy(), 10)
        assert table.session.s.new_shoe_due
        assert devices.next_shoe() == ShoeLoaded(f"S{SEED}-2", 6)


def test_a_shoe_with_no_number_to_go_on_from_is_refused(tmp_path):
    table = _table(tmp_path)
    table.submit(ShoeLoaded("1A2B", 6))
    try:
        with pytest.raises(Failure, match="'1A2B' is not an emulated one"):
            BenchDevices(lambda: table_facts(table.session), BenchPlayer(SEED))
    finally:
        table.close()


def test_a_card_pulled_before_the_last_one_arrived_and_a_shoe_nobody_needs_are_refused(tmp_path):
    table = _table(tmp_path)
    devices = BenchDevices(lambda: table_facts(table.session), BenchPlayer(SEED, shoe_reports_cut=True))
    try:
        with pytest.raises(Failure) as no_shoe:
            devices.pull()
        assert no_shoe.value.code == "shoe_busy"
        devices.load(devices.next_shoe())
        assert devices.busy(), "the shoe has not reached the table: nothing is linked"
        with pytest.raises(Failure) as busy:
            devices.pull()
        assert busy.value.code == "shoe_busy" and devices.pulled == 0
        table.submit(ShoeLoaded(f"S{SEED}-1", 6))
        with pytest.raises(Failure) as not_due:
            devices.next_shoe()
        assert not_due.value.code == "shoe_not_due" and "needs no new shoe" in not_due.value.message
    finally:
        table.close()


def test_the_card_stop_holds_until_no_more_bets_the_deal_refuses_meanwhile_and_no_wager_is_lost(tmp_path):
    from dealer_assist.rules.inputs import NoMoreBets, PlaceWager, WagerKind

    table = Table.open(tmp_path / "table.db", TableConfig("T1", "sd-buster-a"))
    with _linked(table) as (devices, linked):
        devices.load(devices.next_shoe())
        assert linked.pump_until(lambda: table.session.tracker is not None and devices.shoe.locked, 10)
        assert linked.submit(PlaceWager(1, WagerKind.BASE, 1_000)) is None
        assert linked.pump_until(lambda: table.session.tracker.wagers, 10)
        with pytest.raises(Failure) as locked:
            devices.pull()
        assert locked.value.code == "shoe_locked" and "No more bets" in locked.value.message
        for seat in (2, 3):
            assert linked.submit(PlaceWager(seat, WagerKind.BASE, 2_000)) is None
        assert linked.pump_until(lambda: len(table.session.tracker.wagers) == 3, 10)
        assert devices.shoe.locked and table.session.s.shoe_cards == 0, "nothing was queued"
        assert linked.submit(NoMoreBets()) is None
        assert linked.pump_until(lambda: not devices.shoe.locked, 10)
        devices.pull()
        assert linked.pump_until(lambda: table.session.tracker.cards_seen == 1, 10)
        assert table.session.tracker.hands[1][0].cards, "the first card after No more bets is seat 1's"
        assert [table.session.tracker.wagers[s][WagerKind.BASE] for s in (1, 2, 3)] == [1_000, 2_000, 2_000]


def test_a_card_pulled_while_the_bank_is_offered_says_what_the_table_waits_for(tmp_path):
    table = _table(tmp_path, "nobust-4.0")
    with _linked(table) as (devices, linked):
        devices.load(devices.next_shoe())
        assert linked.pump_until(
            lambda: table.session.s.shoe_id is not None and devices.shoe.locked and not devices.busy(), 10
        )
        with pytest.raises(Failure) as locked:
            devices.pull()
        assert (
            locked.value.message == "the shoe's card-stop is on: no card is due (Offer the bank to seat 1 (first turn))"
        )

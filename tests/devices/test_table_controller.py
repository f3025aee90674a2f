"""The headless table controller: a whole round over the wire emulators with the camera check on,
a correction through the controller, and a journal that stops taking records mid-round."""

from __future__ import annotations

import random

import pytest
from camera_round import MISMATCH, ON_THE_FELT, PIN, PROFILE, FilmedShoe

from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.journal_file import Record, RecordKind, read_records, verify
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.play.random_play import RandomPolicy
from dealer_assist.play.round_driver import table_input
from dealer_assist.play.round_file import settle_round
from dealer_assist.rules.inputs import Action, Decide, NoMoreBets, PeekAnswered, PeekResult, PlaceWager, WagerKind
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import ConfirmPeek, RekeyCard, SettlementConfirmed
from dealer_assist.table.snapshot import AttentionKind
from dealer_assist.table.table_facts import table_facts
from devices.table_owner.controller import TableController
from hw_sims.bench_devices import honest_peek_answer
from hw_sims.linked_bench import LinkedBench

WAIT_S = 20


def _notes(path, device: str) -> list[dict]:
    return [r.body for r in read_records(path) if r.kind is RecordKind.DEVICE and r.body["device"] == device]


@pytest.fixture
def filmed(tmp_path):
    controller = TableController(Table.open(tmp_path / "table.db", TableConfig("CTL-1", PROFILE)))
    controller.set_pin(PIN)
    rig = FilmedShoe(controller)
    rig.start()
    controller.start()
    yield controller, rig
    controller.stop()
    rig.stop()
    controller.pump(0.2)  # the last device notes reach the journal before it closes
    controller.close()


def test_a_round_over_the_wire_with_the_camera_and_a_correction(filmed):
    controller, rig = filmed
    path = controller.journal_path
    assert controller.pump_until(lambda: controller.snapshot.need is Need.WAGERS, WAIT_S)
    assert controller.feed is not None and controller.feed.locked is True, "no wager yet: the shoe holds its cards"
    assert controller.submit(PlaceWager(1, WagerKind.BASE, 1_000)) is None
    assert controller.pump_until(lambda: controller.snapshot.seat(1).base == 1_000, WAIT_S)
    assert controller.feed.locked is True, "betting is open: the card-stop stays on after a wager"
    assert controller.submit(NoMoreBets()) is None
    assert controller.pump_until(lambda: controller.feed.locked is False, WAIT_S), "no more bets: the shoe deals"
    for _ in range(4):
        rig.shoe.sim_deal_next()
    assert controller.pump_until(lambda: controller.snapshot.need is Need.DECISION, WAIT_S)

    assert controller.pump_until(lambda: controller.snapshot.attention is not None, WAIT_S), "the camera speaks"
    attention = controller.snapshot.attention
    assert attention.kind is AttentionKind.MISMATCH and attention.message.startswith(
        f"{MISMATCH}. Dealer: check the card"
    )
    assert [n["message"] for n in _notes(path, "camera") if n["type"] == "CameraMismatch"] == [MISMATCH]
    assert "MISMATCH" in {link.last_read for link in controller.devices.links() if link.name == "Camera"}

    with pytest.raises(RuleError) as wrong:
        controller.supervise(RekeyCard(0, ON_THE_FELT, "Floor 1", "the camera shows 9C"), "1111")
    assert wrong.value.code == "wrong_pin"
    controller.supervise(RekeyCard(0, ON_THE_FELT, "Floor 1", "the camera shows 9C"), PIN)
    assert [str(c) for c in controller.snapshot.seat(1).hands[0].cards] == ["9C", "7D"]
    assert controller.pump_until(lambda: any(n["type"] == "CameraAgrees" for n in _notes(path, "camera")), WAIT_S)
    controller.dismiss()
    assert controller.snapshot.attention is None
    assert [n["type"] for n in _notes(path, "dealer")] == ["Acknowledged"]

    assert controller.submit(Decide(1, 0, Action.STAND)) is None
    rig.shoe.sim_deal_next()
    assert controller.pump_until(lambda: controller.snapshot.phase is Phase.SETTLED, WAIT_S), "KD went to the dealer"
    assert controller.feed.locked is True
    assert [row.amount for row in controller.snapshot.settlement] == [1_000]
    assert controller.submit(SettlementConfirmed()) is None
    entry = recall(path, round_id=1)[0]
    assert [c["type"] for c in entry["corrections"]] == ["CardRekeyed"]
    assert settle_round(export_round(path, 1)) == entry["ledger"]
    assert _refused(path) == []


def test_a_refused_device_input_is_kept_and_shown(filmed):
    controller, rig = filmed
    assert controller.pump_until(lambda: controller.snapshot.need is Need.WAGERS, WAIT_S)
    controller.deliver(Decide(1, 0, Action.STAND))  # as a device thread would hand in a bad input
    assert controller.pump_until(lambda: bool(_refused(controller.journal_path)), WAIT_S)
    assert controller.snapshot.attention.kind is AttentionKind.REFUSED


def _refused(path) -> list[dict]:
    """The inputs the journal recorded as refused."""
    return [r.body for r in read_records(path) if r.kind is RecordKind.REFUSED]


def _into_the_second_round(
    path, config: TableConfig, seed: int, inputs: int
) -> tuple[TableController, Table, BenchPlayer]:
    """A table dealt by the bench player through its first round and `inputs` inputs into the next."""
    table = Table.open(path, config)
    controller = TableController(table)
    player = BenchPlayer(seed)
    session = table.session
    while table.rounds_closed < 1 or session.tracker is None or len(session.round_inputs) < inputs:
        assert controller.submit(player.next_input(table_facts(session))) is None
    return controller, table, player


def _fill_the_disk(table: Table) -> None:
    (pages,) = table.journal.db.execute("PRAGMA page_count").fetchone()
    table.journal.db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_journal_that_stops_taking_records_stops_the_table_visibly_and_a_restart_resumes(tmp_path):
    path = tmp_path / "full.db"
    controller, table, player = _into_the_second_round(path, TableConfig("CTL-2", "nobust-4.0"), 5, inputs=3)
    _fill_the_disk(table)
    refusal = None
    while refusal is None:
        before = controller.snapshot
        refusal = controller.submit(player.next_input(table_facts(table.session)))
    assert refusal.code == "table_stopped"
    stopped = controller.snapshot
    assert stopped.attention is not None and stopped.attention.kind is AttentionKind.JOURNAL and stopped.attention.held
    assert (
        "could not be written" in stopped.attention.message and "Nothing recorded is lost" in stopped.attention.message
    )
    assert "Dealer: deal no more and call a floor supervisor" in stopped.attention.message, "who acts next"
    assert stopped.seats == before.seats and stopped.dealer == before.dealer, "the failed input changed nothing"
    assert controller.supervisor_snapshot(recent=0).stopped == stopped.attention.message
    controller.dismiss()
    assert controller.snapshot.attention == stopped.attention, "nobody at the table can dismiss it"
    assert controller.submit(player.next_input(table_facts(table.session))).code == "table_stopped"
    controller.close()
    assert verify(path).ok
    again = TableController.open(path)
    assert again.snapshot.seats == before.seats and again.snapshot.dealer == before.dealer, (
        "resumed at the last durable input"
    )
    assert again.snapshot.attention is None
    again.close()


def test_a_journal_closed_mid_round_stops_the_table_and_nothing_in_memory_moves(tmp_path):
    path = tmp_path / "closed.db"
    controller, table, player = _into_the_second_round(path, TableConfig("CTL-3", "c21-8.0"), 8, inputs=5)
    session = table.session
    durable = controller.records_written
    before, carried, inputs = controller.snapshot, session.between_rounds(), list(session.round_inputs)
    table.journal.close()  # as a shutdown racing the last input would
    refusal = controller.submit(player.next_input(table_facts(session)))
    assert refusal is not None and refusal.code == "table_stopped"
    shown = controller.snapshot.attention
    assert shown is not None and shown.kind is AttentionKind.JOURNAL and shown.held
    assert "journal is closed" in shown.message and "Nothing recorded is lost" in shown.message
    assert table.session is session, "the table still reads the same session"
    assert controller.snapshot.seats == before.seats and controller.snapshot.dealer == before.dealer
    assert session.between_rounds() == carried and session.round_inputs == inputs, "the input that failed moved nothing"
    controller.note_device({"device": "shoe", "type": "LinkChanged", "state": "down"})
    assert controller.snapshot.attention == shown, "what comes after is refused with the same banner"
    assert controller.records_written == durable
    assert verify(path).ok
    table.lock.release()  # the closed journal's lock, as the process that held it would on its way out
    again = TableController.open(path)
    assert again.snapshot.seats == before.seats and again.snapshot.dealer == before.dealer, (
        "resumed at the last durable input"
    )
    assert list(again.facts().round_inputs) == inputs
    while again.rounds_closed < 3:
        assert again.submit(player.next_input(again.facts())) is None
    again.close()
    assert verify(path).ok


def test_a_held_peek_is_answered_through_the_round_driver_as_the_supervisors_check(tmp_path):
    table = Table.open(tmp_path / "held.db", TableConfig("CTL-4", "sd-buster-a"))
    controller = TableController(table)
    controller.set_pin(PIN)
    player = BenchPlayer(2)
    while controller.snapshot.need is not Need.PEEK:
        assert controller.submit(player.next_input(table_facts(table.session))) is None
    assert controller.submit(PeekAnswered(PeekResult.NOREAD)) is None
    assert controller.snapshot.need is Need.CHECK_BY_HAND
    policy = RandomPolicy(random.Random(1), lambda: player.shoe(table_facts(table.session)).card(0))
    event = table_input(controller.facts(), policy, "Floor 2")
    assert isinstance(event, ConfirmPeek) and event.supervisor == "Floor 2"
    assert event.natural is (honest_peek_answer(table_facts(table.session)) is PeekResult.NATURAL), (
        "the policy's answer: the truth"
    )
    controller.supervise(event, PIN)
    assert controller.snapshot.need not in (Need.PEEK, Need.CHECK_BY_HAND)
    controller.close()


def test_a_sink_records_every_append_of_a_bench_run_over_the_wire_in_order(tmp_path):
    path = tmp_path / "bench.db"
    table = Table.open(path, TableConfig("BENCH-1", "c21-8.0"))
    seen: list[Record] = []
    table.journal.add_sink(seen.append)
    bench = LinkedBench(TableController(table), seed=4)
    bench.start()
    try:
        while table.rounds_closed < 4:
            bench.step()
    finally:
        bench.stop()
        bench.controller.pump(0.2)
    table.close()
    written = list(read_records(path))
    assert seen == written[1:], "every record after the header, in order, as the journal holds it"
    assert {r.kind for r in seen} >= {RecordKind.INPUT, RecordKind.CLOSE, RecordKind.DEVICE, RecordKind.SECURITY}

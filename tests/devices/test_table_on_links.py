"""The table on real links (issue: devices point 4): a shoe and a peek device on pseudo-terminals
feed a journaled table; the card-stop follows the rules; the ledger equals the round file's."""

from __future__ import annotations

import time

import pytest

from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.play.round_file import settle_round
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, Decide, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import BankAccepted, SettlementConfirmed
from devices.table_owner.controller import TableController
from hw_sims.endpoints import PtyEndpoint
from hw_sims.peek import PeekEmulator
from hw_sims.shoe import ShoeEmulator


def _cards(*codes: str):
    return [parse_card(code) for code in codes]


def _pull(shoe: ShoeEmulator, linked: TableController, count: int, until) -> None:
    for _ in range(count):
        shoe.sim_deal_next()
    assert linked.pump_until(until, 10)


def _run(tmp_path, profile: str, cards: list[str], hole: str | None = None):
    shoe = ShoeEmulator(PtyEndpoint(), cards=_cards(*cards), pace=None, seed=3)  # the dealer pulls each card
    peek = PeekEmulator(PtyEndpoint(), hole_card=parse_card(hole) if hole else None, delay=0.05) if hole else None
    shoe.start()
    if peek:
        peek.start()
    table = Table.open(tmp_path / "table.db", TableConfig("LINK-1", profile))
    linked = TableController(table)
    linked.connect_devices(shoe.endpoint.url, peek.endpoint.url if peek else None)
    return shoe, peek, table, linked


def _open_round(table: Table, linked: TableController) -> RoundTracker:
    """The links up, the shoe in, seat 1 banks and seat 2 bets $25: the round's tracker."""
    linked.start()
    assert linked.pump_until(lambda: table.session.s.shoe_id is not None, 10)
    linked.submit(BankAccepted(1, 50_000))
    linked.submit(PlaceWager(2, WagerKind.BASE, 2_500))
    linked.submit(NoMoreBets())
    return table.session.tracker


def test_icd_2_card_stop_holds_cards_the_rules_refuse_and_releases_them_when_allowed(tmp_path):
    # 4.0: seat 2 gets TH 8H = hard 18 (must stand, may still surrender); the PD KD 5D hits 15 with KC.
    shoe, peek, table, linked = _run(tmp_path, "nobust-4.0", ["TH", "KD", "8H", "5D", "KC", "2S", "3S"])
    try:
        tracker = _open_round(table, linked)
        _pull(shoe, linked, 4, lambda: tracker.phase is Phase.PLAYING)
        assert linked.feed.locked is True, "hard 18 may not hit: the shoe holds the next card"
        assert linked.pump_until(lambda: shoe.locked, 5), "the shoe confirms its card-stop"
        shoe.sim_deal_next()
        linked.pump(0.3)
        assert tracker.cards_seen == 4, "no card came out while the card-stop was on"
        linked.submit(Decide(2, 0, Action.STAND))
        assert linked.pump_until(lambda: tracker.phase is Phase.SETTLED, 10), "the held card went to the PD"
        assert [str(c) for c in tracker.dealer] == ["KD", "5D", "KC"]
        assert linked.feed.locked is True, "the PD stands on 25: shoe locked again"
        linked.submit(SettlementConfirmed())
        entry = recall(table.path, round_id=1)[0]
        assert settle_round(export_round(table.path, 1)) == entry["ledger"]
        notes = [r.body["type"] for r in read_records(table.path) if r.kind is RecordKind.DEVICE]
        assert "DeviceHello" in notes and "LinkChanged" in notes
    finally:
        linked.stop()
        shoe.stop()


def test_icd_3_the_peek_device_is_asked_and_a_natural_ends_play(tmp_path):
    # c21: seat 2 TH 9H, PD hole AS, up KD (second card up): the peek says Natural, the hand loses.
    shoe, peek, table, linked = _run(tmp_path, "c21-8.0", ["TH", "AS", "9H", "KD", "2C"], hole="AS")
    try:
        tracker = _open_round(table, linked)
        _pull(shoe, linked, 4, lambda: tracker.phase is Phase.SETTLED)
        assert tracker.dealer_natural is True
        assert [(r.result.value, r.amount) for r in tracker.rows] == [("lose", -2_500)]
        peeks = [
            op
            for r in read_records(table.path)
            if r.kind is RecordKind.INPUT
            for op in r.body["ops"]
            if op["type"] == "PeekResolved"
        ]
        assert peeks and peeks[0]["natural"] is True and peeks[0]["result"] == "natural"
    finally:
        linked.stop()
        shoe.stop()
        peek.stop()


@pytest.mark.slow
def test_bench_over_pseudo_terminals_records_the_same_inputs_as_in_process(tmp_path):
    import subprocess
    import sys

    from dealer_assist.journal.journal_file import verify

    def bench(name: str, links: str) -> list[dict]:
        path = tmp_path / name
        out = subprocess.run(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "bench",
                "--rounds",
                "12",
                "--seed",
                "8",
                "--profile",
                "c21-8.0",
                "--journal",
                str(path),
                "--links",
                links,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert out.returncode == 0, out.stdout + out.stderr
        assert verify(path).ok
        return [r.body["input"] for r in read_records(path) if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)]

    over_links = bench("pty.db", "pty")
    assert over_links == bench("direct.db", "in-process")
    assert sum(event["type"] == "CardDrawn" for event in over_links) > 12 * 4


@pytest.mark.slow
@pytest.mark.parametrize("links", ["pty", "in-process"])
def test_bench_stopped_by_a_signal_ends_between_moves_with_its_journal_sealed(tmp_path, links):
    """A signal may come while a record is being written: the bench finishes that move, so the
    seal counts every record and the summary names the last one."""
    import json
    import signal
    import subprocess
    import sys
    import time

    from dealer_assist.journal.journal_file import verify

    for number, delay in enumerate((0.3, 0.45, 0.6, 0.75, 0.9)):
        path = tmp_path / f"{links}-{number}.db"
        bench = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "bench",
                "--rounds",
                "100000",
                "--seed",
                str(number),
                "--journal",
                str(path),
                "--links",
                links,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while not path.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(delay)
        bench.send_signal(signal.SIGINT if number % 2 else signal.SIGTERM)
        out, err = bench.communicate(timeout=60)
        assert bench.returncode == 0, out + err
        summary = json.loads(out)
        verdict = verify(path)
        assert verdict.ok and verdict.message == f"{summary['records']} records intact", (verdict.message, summary)


def _locks(path) -> list[str]:
    return [
        r.body["state"] for r in read_records(path) if r.kind is RecordKind.DEVICE and r.body["type"] == "LockChanged"
    ]


def test_a_paced_shoe_started_before_the_table_deals_nothing_until_the_table_allows_a_card(tmp_path):
    shoe = ShoeEmulator(PtyEndpoint(), pace=0.25, seed=3)  # a brisk dealer: a card every 250 ms
    shoe.start()
    time.sleep(0.5)  # the shoe is on before the table is
    table = Table.open(tmp_path / "table.db", TableConfig("LINK-2", "nobust-4.0"))
    linked = TableController(table)
    linked.connect_devices(shoe.endpoint.url)
    try:
        linked.start()
        assert linked.pump_until(lambda: bool(_locks(table.path)), 10)
        linked.pump(1.0)  # four of the dealer's cards' time
        assert shoe.dealt == 0 and shoe.locked, "no card left the shoe: the table is not dealing"
        assert set(_locks(table.path)) == {"ON"} and table.session.misdeal is None and linked.snapshot.attention is None
    finally:
        linked.stop()
        shoe.stop()
        linked.close()

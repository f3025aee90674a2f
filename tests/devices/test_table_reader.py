"""RULES.md §8.22-8.25 through the table controller: a shoe and a wager reader on pseudo-terminals,
the players' chips on the emulated reader's spots, every input journaled."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time

import pytest
from reader_rig import PIN, ReaderTable, spot

from dealer_assist.errors import Failure
from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.inputs import (
    Action,
    CloseInsurance,
    Decide,
    NoMoreBets,
    PaymentsMade,
    PeekAnswered,
    PeekResult,
    PlaceWager,
    WagerKind,
)
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.table.readings import ReadingIssue
from dealer_assist.table.session_inputs import (
    AcceptPayout,
    BankAccepted,
    DealerSignIn,
    DealerSignOut,
    SettlementConfirmed,
)
from dealer_assist.table.snapshot import AttentionKind
from dealer_assist.text.round_story import story
from ui.supervisor.dispute_report import write_report

# sd-buster-a deals seat 2, seat 3, the dealer's up card, seat 2, seat 3, the hole card:
# seat 2 TH QH = 20, seat 3 9H 8C = 17, dealer 6D 9C = 15, draws 8S: 23, over.
BOTH_WIN = ["TH", "9H", "6D", "QH", "8C", "9C", "8S"]
# seat 3 5H 6C = 11 doubles and draws TD; dealer 6D 9C, draws 8S: over.
DOUBLE = ["5H", "6D", "6C", "9C", "TD", "8S"]


@pytest.fixture
def table(tmp_path, request):
    cards = getattr(request, "param", BOTH_WIN)
    rig = ReaderTable(tmp_path / "table.db", cards)
    rig.start()
    yield rig
    rig.stop()


def test_8_22_readings_are_the_wagers_and_a_keyed_wager_on_a_read_spot_is_refused(table):
    table.chips("3.base", 25)
    assert table.snapshot.seat(3).base == 2_500
    table.chips("3.base", 25, 5)
    assert table.snapshot.seat(3).base == 3_000, "chips added raise the wager"
    table.chips("3.buster", 5)
    assert table.snapshot.seat(3).buster == 500
    table.chips("3.buster")
    assert table.snapshot.seat(3).buster == 0, "a reading of 0 removes the wager"

    refused = table.controller.submit(PlaceWager(3, WagerKind.BASE, 1_000))
    assert refused is not None and refused.code == "spot_read" and "seat 3's base" in refused.message
    assert table.snapshot.seat(3).base == 3_000
    assert table.refused()[-1]["error"]["code"] == "spot_read"

    table.reader.sim_antenna(spot("4.base"))  # a spot the reader reports faulted is keyed
    table.until(lambda: not table.session.reader.reads(spot("4.base")), "4.base under a fault")
    assert table.controller.submit(PlaceWager(4, WagerKind.BASE, 1_000)) is None
    assert table.snapshot.seat(4).base == 1_000
    placed = [op["amount"] for op in table.ops("WagerPlaced") if op["seat"] == 3 and op["kind"] == "base"]
    assert placed == [2_500, 3_000], "each reading is journaled as it comes"


def test_8_22_a_reading_below_the_minimum_is_shown_on_its_seat_and_holds_no_more_bets(table):
    table.chips("3.base", 3)
    problems = table.snapshot.reader.problems
    assert [(p.reading.spot, p.issue, p.limit) for p in problems] == [(spot("3.base"), ReadingIssue.BELOW_MINIMUM, 500)]
    assert table.snapshot.closes_betting is False
    table.tap(NoMoreBets())
    assert table.snapshot.phase is Phase.BETTING
    assert table.snapshot.attention.kind is AttentionKind.REFUSED
    assert "seat 3's base" in table.snapshot.attention.message and "$5 minimum" in table.snapshot.attention.message
    table.chips("3.base", 3, 2, alien=2)
    assert [p.issue for p in table.snapshot.reader.problems] == [ReadingIssue.ALIEN]
    table.chips("3.base", 3, 2)
    assert table.snapshot.closes_betting is True
    table.tap(NoMoreBets())
    assert table.snapshot.phase is Phase.DEALING and table.snapshot.seat(3).base == 500


def test_8_23_the_wagers_close_at_the_scan_and_a_change_after_it_is_a_late_change(table):
    table.chips("2.base", 50)
    table.chips("3.base", 25)
    table.reader.sim_place(spot("3.base"), [2_500, 500])  # put down as the dealer taps: the scan has it
    table.tap(NoMoreBets())
    assert table.ops("BettingClosed") and table.snapshot.seat(3).base == 3_000, "the closed wagers are the scan's"
    table.chips("3.base", 25, 5, 10)
    late = table.snapshot.reader.late
    assert [(v.reading.spot, v.reading.amount, v.due) for v in late] == [(spot("3.base"), 4_000, 3_000)]
    assert table.snapshot.seat(3).base == 3_000, "the closed wager stands"
    assert table.ops("LateChange") == [
        {"type": "LateChange", "spot": "3.base", "due": 3_000, "held": 4_000, "alien": 0}
    ]
    table.chips("3.base", 25, 5)
    assert not table.snapshot.reader.late and table.ops("LateChangeUndone")


@pytest.mark.parametrize("table", [DOUBLE], indirect=True)
def test_8_23_a_double_for_less_is_read_from_the_chips_added(table):
    table.chips("3.base", 25)
    table.tap(NoMoreBets())
    table.deal(4)
    assert table.snapshot.need is Need.DECISION and table.snapshot.decisions.double
    table.tap(Decide(3, 0, Action.DOUBLE))
    assert table.snapshot.reader.awaited is not None and table.controller.feed.locked, (
        "no card until the chips are down"
    )
    table.chips("3.base", 25, 10)
    hand = table.snapshot.seat(3).hands[0]
    assert hand.doubled == 1_000, "the $10 added is the double for less, no keypad"
    assert [op for op in table.ops("DecisionTaken")] == [
        {"type": "DecisionTaken", "seat": 3, "hand": 0, "action": "double", "amount": 1_000}
    ]
    assert not table.snapshot.reader.late


@pytest.mark.parametrize("table", [DOUBLE], indirect=True)
def test_8_23_chips_a_decision_does_not_allow_are_refused_naming_the_amount_read(table):
    table.chips("3.base", 25)
    table.tap(NoMoreBets())
    table.deal(4)
    table.tap(Decide(3, 0, Action.DOUBLE))
    table.chips("3.base", 25, 25, 5)
    attention = table.snapshot.attention
    assert attention is not None and attention.kind is AttentionKind.REFUSED
    assert "$30 read on seat 3's base for the double" in attention.message
    assert table.snapshot.seat(3).hands[0].doubled == 0 and table.snapshot.reader.awaited is not None


def _settle_both(table: ReaderTable, late: bool = False) -> None:
    table.chips("2.base", 50)
    table.chips("3.base", 25)
    table.tap(NoMoreBets())
    if late:  # seat 2 slips a chip on after the wagers closed, then takes it back
        table.chips("2.base", 50, 5)
        table.chips("2.base", 50)
    table.deal(6)
    table.tap(Decide(2, 0, Action.STAND))
    table.tap(Decide(3, 0, Action.STAND))
    table.deal(1)
    assert table.snapshot.phase is Phase.SETTLED


def test_8_24_an_overpay_and_an_underpay_hold_the_settlement_with_their_differences(table, qapp, tmp_path):
    _settle_both(table, late=True)
    table.chips("2.base", 100, 25)  # $100 due: $25 overpaid
    table.chips("3.base", 25)  # $50 due: $25 underpaid
    table.tap(SettlementConfirmed())
    differences = {(d.spot, d.held, d.due) for d in table.snapshot.reader.differences}
    assert differences == {(spot("2.base"), 12_500, 10_000), (spot("3.base"), 2_500, 5_000)}
    assert table.snapshot.phase is Phase.SETTLED, "the step stays open"
    table.chips("2.base", 100)  # put right
    table.tap(SettlementConfirmed())
    assert {(d.spot, d.held, d.due) for d in table.snapshot.reader.differences} == {(spot("3.base"), 2_500, 5_000)}
    with pytest.raises(Failure, match="wrong supervisor PIN"):
        table.controller.supervise(AcceptPayout("Floor 1", "player left"), "0000")
    table.controller.supervise(AcceptPayout("Floor 1", "player left"), PIN)
    [entry] = recall(table.path, round_id=1)
    assert entry["closed"], "the supervisor's acceptance ends the step: the round closed"
    assert entry["ledger"]["mispays"] == [
        {
            "seat": 3,
            "spot": "3.base",
            "held": 25,
            "due": 50,
            "difference": -25,
            "supervisor": "Floor 1",
            "reason": "player left",
        }
    ]
    told = story(entry)
    assert [m.text for m in told.mispays] == [
        "Seat 3 · Base: $25 on the spot, $50 due · $25 underpaid · accepted by Floor 1: player left"
    ]
    assert [c.text for c in told.late_changes] == ["Seat 2 · Base: $55 on the spot, $50 closed · late change"]

    text = _pdf_text(write_report(table.path, 1, tmp_path / "round-1.pdf").path, tmp_path)
    assert "Seat 3 · Base: $25 on the spot, $50 due · $25 underpaid · accepted by Floor 1: player left" in text
    assert "Seat 2 · Base: $55 on the spot, $50 closed · late change" in text


def _pdf_text(pdf, folder) -> str:
    """The PDF read back as text by Ghostscript, its lines' spaces made single."""
    ghostscript = shutil.which("gs")
    assert ghostscript is not None, "Ghostscript reads the PDF back as text"
    subprocess.run(
        [
            ghostscript,
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-sDEVICE=txtwrite",
            f"-sOutputFile={folder}/page-%d.txt",
            str(pdf),
        ],
        check=True,
    )
    return "\n".join(" ".join(page.read_text().split()) for page in sorted(folder.glob("page-*.txt")))


def test_8_25_the_dealer_signed_in_is_named_on_the_rounds_records(table):
    table.tap(DealerSignIn("  Ana R.  "))
    assert table.snapshot.house_dealer == "Ana R."
    _settle_both(table)
    table.chips("2.base", 100)
    table.chips("3.base", 50)
    table.tap(SettlementConfirmed())
    assert recall(table.path, round_id=1)[0]["closed"]
    table.tap(DealerSignOut())
    assert table.snapshot.house_dealer is None
    refused = table.controller.submit(DealerSignOut())
    assert refused is not None and refused.code == "no_dealer"
    [entry] = recall(table.path, round_id=1)
    assert entry["dealers"] == ["Ana R."] and story(entry).dealers == "Ana R."


@pytest.mark.parametrize("table", [DOUBLE], indirect=True)
def test_8_23_a_restart_mid_round_resumes_the_wagers_scans_again_and_shows_a_chip_moved_meanwhile(table):
    table.chips("3.base", 25)
    table.chips("3.buster", 5)
    table.tap(NoMoreBets())
    table.deal(4)
    before = table.snapshot.seat(3)
    table.restart(lambda: table.reader.sim_place(spot("3.base"), [2_500, 500]))
    table.until(lambda: bool(table.snapshot.reader and table.snapshot.reader.late), "the scan after the restart")
    after = table.snapshot.seat(3)
    assert (after.base, after.buster, after.hands) == (before.base, before.buster, before.hands), "the same wagers"
    assert [(v.reading.spot, v.reading.amount, v.due) for v in table.snapshot.reader.late] == [
        (spot("3.base"), 3_000, 2_500)
    ]
    scans = [
        r.body["input"]["purpose"]
        for r in read_records(table.path)
        if r.kind is RecordKind.INPUT and r.body["input"]["type"] == "SpotsScanned"
    ]
    assert scans[-1] == "reading", "the reader scanned the spots again"


@pytest.mark.parametrize("table", [["8H", "6D", "8C", "9C"]], indirect=True)
def test_8_23_a_split_is_staked_by_chips_equal_to_the_wager(table):
    table.chips("3.base", 25)
    table.tap(NoMoreBets())
    table.deal(4)
    table.tap(Decide(3, 0, Action.SPLIT))
    table.chips("3.base", 25, 20)
    assert "for the split" in table.snapshot.attention.message and len(table.snapshot.seat(3).hands) == 1
    table.chips("3.base", 25, 25)
    assert [hand.stake for hand in table.snapshot.seat(3).hands] == [2_500, 2_500]
    assert not table.snapshot.reader.late


# seat 3 TH 9H; the dealer's Ace up, 7C in the hole: insurance is open, then the peek finds no Natural.
@pytest.mark.parametrize("table", [["TH", "AS", "9H", "7C"]], indirect=True)
def test_8_24_insurance_staked_by_chips_and_the_settle_now_step_checked_at_paid(table):
    table.chips("3.base", 25)
    table.tap(NoMoreBets())
    table.deal(4)
    assert table.snapshot.need is Need.INSURANCE
    table.chips("3.ins", 10)
    assert table.snapshot.seat(3).insurance == 1_000, "the chips on the insurance spot are the insurance"
    table.tap(CloseInsurance())
    table.tap(PeekAnswered(PeekResult.NONE))
    assert table.snapshot.need is Need.PAYMENTS  # insurance lost: the dealer collects it now
    table.tap(PaymentsMade())
    assert [(d.spot, d.held, d.due) for d in table.snapshot.reader.differences] == [(spot("3.ins"), 1_000, 0)]
    assert table.snapshot.need is Need.PAYMENTS, "the step stays open"
    table.chips("3.ins")
    table.tap(PaymentsMade())
    assert table.snapshot.need is Need.DECISION and not table.snapshot.reader.differences
    assert table.ops("PayoutDifference") == [{"type": "PayoutDifference", "spot": "3.ins", "held": 1_000, "due": 0}]


@pytest.mark.slow
def test_8_23_a_bench_killed_mid_round_comes_back_with_the_same_wagers_scans_and_shows_a_chip_moved_while_down(
    tmp_path,
):
    """SIGKILL of a bench whose players bet with chips, after "No more bets", before the round is
    settled; a chip goes on a closed spot while it is down; the bench resumes and finishes the round."""
    path = tmp_path / "bench.db"
    bench = [
        sys.executable,
        "-m",
        "ui.cli",
        "bench",
        "--seed",
        "4",
        "--journal",
        str(path),
        "--wagers",
        "--profile",
        "sd-buster-a",
    ]
    running = subprocess.Popen(
        [*bench, "--rounds", "50", "--pace", "0.05"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 120
        closed = None
        while closed is None and time.monotonic() < deadline:
            time.sleep(0.02)
            closed = _closed_round(path)
        assert closed is not None, "the bench closed no wagers in 120 s"
    finally:
        running.send_signal(signal.SIGKILL)
        running.communicate(timeout=30)
    round_id, wagers = closed
    seat, wager = min(wagers.items())
    spot_name = f"{seat}.base"

    resumed = subprocess.run(
        [*bench, "--resume", "--rounds", str(round_id), "--spot", f"{spot_name}={wager},500"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    records = list(read_records(path))
    start = max(r.seq for r in records if r.kind is RecordKind.RESUMED)
    after = [r for r in records if r.seq > start and r.kind in (RecordKind.INPUT, RecordKind.CLOSE)]
    first_scan = next(r for r in after if r.body["input"]["type"] == "SpotsScanned")
    assert first_scan.body["input"]["purpose"] == "reading", "the reader scanned every spot before the table used it"
    late = [op for op in first_scan.body["ops"] if op["type"] == "LateChange"]
    assert late == [{"type": "LateChange", "spot": spot_name, "due": wager, "held": wager + 500, "alien": 0}]
    entry = recall(path, round_id=round_id)[0]
    assert entry["closed"] and entry["late_changes"][0]["spot"] == spot_name
    stakes = {
        row["seat"]: row["stake"]
        for row in entry["ledger"]["settlements"]
        if row["wager"] == "base" and row["hand"] == 0
    }
    assert stakes[seat] * 100 >= wager, "the wager closed before the kill stands"
    assert _wagers(path, round_id) == wagers, "the same wagers after the restart"


def _wagers(path, round_id: int) -> dict[int, int]:
    """The base wagers placed in the round, as its WagerPlaced operations left them (its closing
    record opens the next round, whose wagers are not its)."""
    wagers: dict[int, int] = {}
    ops = [
        op
        for record in read_records(path)
        if record.round_id == round_id and record.kind in (RecordKind.INPUT, RecordKind.CLOSE)
        for op in record.body["ops"]
    ]
    for op in ops:
        if op["type"] == "RoundOpened":
            break
        if op["type"] == "WagerPlaced" and op["kind"] == "base":
            wagers[op["seat"]] = op["amount"]
    return {seat: amount for seat, amount in wagers.items() if amount}


def _closed_round(path) -> tuple[int, dict[int, int]] | None:
    """The open round whose wagers are closed and not yet settled, with its base wagers."""
    if not path.exists():
        return None
    try:
        records = list(read_records(path))
    except Exception:  # the journal is being created
        return None
    rounds = [r for r in records if r.round_id is not None and r.kind in (RecordKind.INPUT, RecordKind.CLOSE)]
    if not rounds:
        return None
    last = rounds[-1].round_id
    ops = [op["type"] for r in rounds if r.round_id == last for op in r.body["ops"]]
    if last < 2 or "BettingClosed" not in ops or "RoundSettled" in ops:
        return None
    return last, _wagers(path, last)


def test_after_a_new_boot_the_readings_are_used_only_once_the_readers_scan_completed(table):
    table.chips("3.base", 25)
    scans = len(table.ops_inputs("SpotsScanned"))
    table.reader.sim_power_up()
    table.reader.sim_place(spot("3.base"), [2_500, 1_000])  # moved while the reader powered up: its scan reads it
    table.until(lambda: len(table.ops_inputs("SpotsScanned")) > scans, "the scan after the power-up")
    inputs = [r.body["input"]["type"] for r in read_records(table.path) if r.kind is RecordKind.INPUT]
    last_scan = len(inputs) - 1 - inputs[::-1].index("SpotsScanned")
    assert "ReaderSpots" in inputs[:last_scan][-3:], "the table stopped using the readings until the scan"
    table.until(lambda: table.snapshot.seat(3).base == 3_500, "the scan's reading as the wager")
    assert table.session.reader.reads(spot("3.base"))


def test_8_22_the_bank_offered_is_the_chips_on_pd_bank(tmp_path):
    rig = ReaderTable(tmp_path / "table.db", BOTH_WIN, profile="nobust-4.0")
    rig.start()
    try:
        offered = rig.session.s.offer_seat
        rig.chips("pd.bank", 500)
        refused = rig.controller.submit(BankAccepted(offered, 20_000))
        assert (
            refused is not None
            and refused.code == "spot_read"
            and "is read from its chips: $500 there, $200 keyed" in refused.message
        )
        rig.tap(BankAccepted(offered, 50_000))
        assert rig.session.s.pd_bank == 50_000 and rig.snapshot.bank.bank == 50_000
    finally:
        rig.stop()


def test_8_25_the_round_file_exported_names_its_dealer(table):
    table.tap(DealerSignIn("Badge 0417"))
    _settle_both(table)
    table.chips("2.base", 100)
    table.chips("3.base", 50)
    table.tap(SettlementConfirmed())
    assert export_round(table.path, 1)["meta"]["dealers"] == ["Badge 0417"]

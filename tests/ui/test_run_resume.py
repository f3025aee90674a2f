"""`dealer-assist run --autoplay` on a journal it played before: the table goes on with its shoe.

The run is a real process on emulated devices over pseudo-terminals, stopped cleanly or killed
mid-round; the resumed run must finish, the journal verify, round numbers go on without a gap, and
every shoe deal exactly the cards of the seeded shoe it names, across the restarts.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer_assist.journal.journal_file import Record, RecordKind, read_records, verify
from dealer_assist.play.bench import EmulatedShoe
from hw_sims.bench_devices import bench_seed

pytestmark = pytest.mark.slow  # each test runs `python -m ui.cli run`, some kill it

RUN = [sys.executable, "-m", "ui.cli", "run", "--profile", "c21-8.0", "--exit"]  # c21-8.0: the peek device too
TIMEOUT_S = 180


def run(journal: Path, rounds: int, seed: int) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUN, "--journal", str(journal), "--autoplay", str(rounds), "--seed", str(seed)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )


def records(journal: Path) -> list[Record]:
    return list(read_records(journal))


def inputs(journal: Path) -> list[tuple[int | None, dict]]:
    return [(r.round_id, r.body["input"]) for r in records(journal) if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)]


def assert_table_went_on(journal: Path) -> None:
    """The journal verifies, rounds close as 1, 2, 3 ..., and each shoe's cards are its seeded cards."""
    assert verify(journal).ok, verify(journal).message
    closed = [r.round_id for r in records(journal) if r.kind is RecordKind.CLOSE]
    assert closed == list(range(1, len(closed) + 1))
    dealt: dict[str, list[str]] = {}
    shoe = None
    for _, event in inputs(journal):
        if event["type"] == "ShoeLoaded":
            shoe = event["shoe_id"]
            dealt[shoe] = []
        elif event["type"] == "CardDrawn":
            assert shoe is not None
            dealt[shoe].append(event["card"])
    for shoe_id, cards in dealt.items():
        seed = bench_seed(shoe_id)
        assert seed is not None, f"{shoe_id} is not a bench shoe"
        expected = EmulatedShoe(seed, shoe_id, 6).shoe.cards[: len(cards)]
        assert cards == [str(card) for card in expected], f"shoe {shoe_id} dealt other cards after a restart"


def test_a_resumed_table_goes_on_with_its_shoe_and_its_round_numbers(tmp_path):
    journal = tmp_path / "table.db"
    first = run(journal, 3, seed=5)
    assert first.returncode == 0, first.stderr
    left_at = [r for r in records(journal) if r.kind is RecordKind.CLOSE][-1].round_id
    shoe_before = [e["shoe_id"] for _, e in inputs(journal) if e["type"] == "ShoeLoaded"][-1]
    second = run(journal, 3, seed=6)
    assert second.returncode == 0, second.stderr
    resumed = [r for r in records(journal) if r.kind is RecordKind.RESUMED]
    assert len(resumed) == 1 and resumed[0].body["round_id"] == left_at  # autoplay confirms its last round
    assert [r.round_id for r in records(journal) if r.kind is RecordKind.CLOSE][-1] >= left_at + 2
    after = [e for rid, e in inputs(journal) if rid is not None and rid > left_at]
    assert any(e["type"] == "CardDrawn" for e in after)
    assert shoe_before.startswith("S5-"), "the first run's shoes are shuffled with its seed"
    assert_table_went_on(journal)


def _mid_round(journal: Path) -> bool:
    """The last record is a card dealt in an open round."""
    last = records(journal)[-1]
    return last.kind is RecordKind.INPUT and last.body["input"]["type"] == "CardDrawn"


def _closed(journal: Path) -> int:
    """Rounds closed so far; 0 while the run has not yet made its journal."""
    try:
        return sum(r.kind is RecordKind.CLOSE for r in records(journal))
    except (FileNotFoundError, sqlite3.OperationalError):
        return 0


def kill_mid_round(journal: Path, seed: int, errors: Path) -> None:
    """Start a long autoplay and SIGKILL it once a round it opened has cards out."""
    closed_before = _closed(journal)
    with errors.open("w") as stderr:
        process = subprocess.Popen(
            [*RUN, "--journal", str(journal), "--autoplay", "1000", "--seed", str(seed)],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
        try:
            deadline = time.monotonic() + TIMEOUT_S
            while not (_closed(journal) > closed_before and _mid_round(journal)):
                assert process.poll() is None, errors.read_text()
                assert time.monotonic() < deadline, "the run closed no round"
                time.sleep(0.005)
            os.kill(process.pid, signal.SIGKILL)
        finally:
            process.kill()
            process.wait()


def test_a_table_killed_mid_round_resumes_in_that_round(tmp_path):
    journal = tmp_path / "table.db"
    for seed in range(10):  # the kill can land just after a round ends: kill again until one lands mid-round
        kill_mid_round(journal, seed, tmp_path / "stderr.txt")
        if _mid_round(journal):
            break
    assert _mid_round(journal), "no kill landed mid-round"
    killed_in = records(journal)[-1].round_id
    resumed = run(journal, 3, seed=99)  # the last round is left settled on screen
    assert resumed.returncode == 0, resumed.stderr
    restart = [r for r in records(journal) if r.kind is RecordKind.RESUMED][-1]
    assert restart.body["round_id"] == killed_in and restart.body["state"] == "round"
    closes = [r.round_id for r in records(journal) if r.kind is RecordKind.CLOSE]
    assert killed_in in closes and closes[-1] > killed_in
    assert_table_went_on(journal)


STALLING = """
import sys
import ui.shell.autoplay
from hw_sims.shoe import ShoeEmulator
from ui.shell.run_command import main
ui.shell.autoplay.STALL_S = 1.0
ShoeEmulator.sim_deal_next = lambda self: None  # the shoe lets no card out
sys.exit(main(sys.argv[1:]))
"""


def test_an_unattended_run_that_stalls_stops_with_an_error(tmp_path):
    journal = tmp_path / "table.db"
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            STALLING,
            "--journal",
            str(journal),
            "--profile",
            "c21-8.0",
            "--autoplay",
            "2",
            "--seed",
            "1",
            "--exit",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 1
    assert "run: autoplay stopped: AutoplayStalled: nothing reached the table's journal for 1 s" in done.stderr
    assert "a shoe or card pulled on the bench has not reached it" in done.stderr
    assert verify(journal).ok

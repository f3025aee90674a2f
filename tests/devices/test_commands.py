"""DEVICES.md §5 bench commands, run as real processes against the emulators over TCP."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from dealer_assist.rules.cards import RANKS, SUITS
from hw_sims.faults import BAD_FRAMES, RATED

pytestmark = pytest.mark.slow  # each test runs `python -m ui.cli devices|sim`; one soaks 100 disconnects

COMMAND = [sys.executable, "-m", "ui.cli"]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Running:
    """A command whose stdout lines are collected as they are printed, and that can be sent lines."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [*COMMAND, *args],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, done: object, limit: float) -> None:
        deadline = time.monotonic() + limit
        while not done():  # type: ignore[operator]
            if time.monotonic() > deadline or self.process.poll() is not None and not self._reader.is_alive():
                pytest.fail(f"gave up waiting; output so far ends: {self.lines[-5:]}")
            time.sleep(0.05)

    def wait_quiet(self, still: float, limit: float) -> None:
        """Wait until nothing new is printed for `still` seconds (at most `limit` in all)."""
        deadline = time.monotonic() + limit
        seen, since = len(self.lines), time.monotonic()
        while time.monotonic() - since < still and time.monotonic() < deadline:
            time.sleep(0.1)
            if len(self.lines) != seen:
                seen, since = len(self.lines), time.monotonic()

    def stop(self) -> list[dict[str, object]]:
        """SIGTERM, then every line printed, as JSON (the first line of `sim` is its URL, skipped)."""
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=15) == 0
        self._reader.join(timeout=5)
        return [json.loads(line) for line in self.lines if line.startswith("{")]


@contextmanager
def started(*args: str) -> Iterator[Running]:
    """A command that is killed when the test ends, however it ends."""
    command = Running(*args)
    try:
        yield command
    finally:
        if command.process.poll() is None:
            command.process.kill()
            command.process.wait()


@contextmanager
def emulator(*args: str, where: tuple[str, ...] = ("--tcp", "0")) -> Iterator[tuple[Running, str]]:
    with started("sim", *args, *where) as sim:
        sim.wait_for(lambda: bool(sim.lines), 15)
        yield sim, sim.lines[0]


def run(*args: str) -> tuple[int, list[dict[str, object]], str]:
    done = subprocess.run([*COMMAND, *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


@pytest.mark.parametrize("up", ["7", "A9", "", "ace"])
def test_icd_5_peek_with_an_up_card_that_cannot_make_a_natural_is_an_error(up: str) -> None:
    code, lines, stderr = run("devices", "peek", "--url", "socket://127.0.0.1:9", "--up", up)
    assert code == 2 and lines[0]["error"]["code"] == "bad_up_card" and repr(up) in lines[0]["error"]["message"]
    assert "Traceback" not in stderr


def test_icd_5_peek_on_a_port_that_cannot_be_opened_is_an_error() -> None:
    code, lines, stderr = run("devices", "peek", "--url", "/dev/no-such-peek-device", "--up", "A")
    assert code == 2 and len(lines) == 1 and lines[0]["error"]["code"] == "port_unavailable"
    assert "/dev/no-such-peek-device" in lines[0]["error"]["message"] and "Traceback" not in stderr


def test_icd_5_missing_arguments_are_a_json_error_too() -> None:
    code, lines, _ = run("devices", "monitor")
    assert code == 2 and lines[0]["error"]["code"] == "bad_arguments" and "--shoe" in lines[0]["error"]["message"]


@pytest.mark.parametrize(
    ("options", "up", "result"),
    [
        (["--hole-card", "KS"], "A", "natural"),
        (["--hole-card", "AD"], "10", "natural"),
        (["--hole-card", "9C"], "Q", "none"),
        (["--no-card"], "A", "nocard"),
        (["--hole-card", "KS", "--fault", "noread=1"], "A", "noread"),
        (["--hole-card", "KS", "--delay", "2.5"], "A", "timeout"),
    ],
)
def test_icd_5_peek_prints_one_line_with_the_outcome(options: list[str], up: str, result: str) -> None:
    with emulator("peek", *options) as (sim, url):
        code, lines, stderr = run("devices", "peek", "--url", url, "--up", up)
        sim.stop()
        _, sim_errors = sim.process.communicate()
    assert code == 0 and lines == [{"device": "peek", "result": result}]
    if "--hole-card" in options:  # the hole card is never printed, by either side
        hole = options[options.index("--hole-card") + 1]
        assert all(hole not in text for text in [*sim.lines, stderr, sim_errors])


@pytest.mark.parametrize("where", [("--pty",), ("--tcp", "0")], ids=["pseudo-terminal", "tcp"])
def test_icd_5_monitor_lines_carry_device_and_type_and_lower_case_states(where: tuple[str, ...]) -> None:
    rates = ["--fault", "lid=0.3", "--fault", "jam=0.2", "--fault", "noread=0.2", "--fault", "lrc=0.2"]
    options = ["--decks", "1", "--pace", "0.005", "--seed", "3", *rates]
    with emulator("shoe", *options, where=where) as (sim, url), started("devices", "monitor", "--shoe", url) as monitor:
        monitor.wait_for(lambda: any('"n": 52' in line for line in monitor.lines), 30)
        lines = monitor.stop()
        sim.stop()
    types = Counter(line["type"] for line in lines)
    assert {"hello", "link", "shoe", "card", "noread", "cut", "lid", "fault", "rejected", "stats"} <= set(types)
    assert all({"device", "type"} <= set(line) and line["device"] == "shoe" for line in lines)
    assert {line["state"] for line in lines if line["type"] == "lid"} == {"open", "closed"}
    assert {line["reason"] for line in lines if line["type"] == "rejected"} == {"lrc"}
    assert lines[-1]["type"] == "stats" and types["stats"] == 1


def six_deck_shoe(seed: int) -> list[str]:
    cards = [rank + suit for _ in range(6) for suit in SUITS for rank in RANKS]
    random.Random(seed).shuffle(cards)
    return cards


def test_icd_5_monitor_prints_every_card_once_in_order_through_100_disconnects_and_every_fault() -> None:
    cards = six_deck_shoe(11)
    faults = [option for kind in RATED for option in ("--fault", f"{kind}=0.02")]
    args = ["--cards", ",".join(cards), "--pace", "0.1", "--seed", "11", "--disconnects", "100", "--silences", "1"]
    with emulator("shoe", *args, *faults) as (sim, url), started("devices", "monitor", "--shoe", url) as monitor:
        last = f'"n": {len(cards)}'
        monitor.wait_for(lambda: any(last in line and '"cut"' not in line for line in monitor.lines), 240)
        # The link faults still due run at quiet moments after the last card; a drop that comes
        # while the host is still greeting the device ends an outage it has not yet called up,
        # and a stalled link is reopened once more: "down" lines need not equal the drops; the
        # card, fault and frame counts below are exact.
        monitor.wait_quiet(still=6.0, limit=120)
        injected = sim.stop()[-1]
        time.sleep(0.5)
        lines = monitor.stop()

    assert injected["type"] == "sim_stats" and injected["disconnects"] == 100 and injected["silences"] == 1
    assert sum(line["type"] == "link" and line["state"] == "down" for line in lines) >= 50, "the drops are seen"
    seen = [(line["n"], line["card"]) for line in lines if line["type"] == "card"]
    unread = [line["n"] for line in lines if line["type"] == "noread"]
    missed = [n for line in lines if line.get("code") == "MISSED_CARD" for n in range(line["first"], line["last"] + 1)]
    numbers = [line["n"] for line in lines if line["type"] in ("card", "noread")]
    assert numbers == sorted(set(numbers)), "every card exactly once and in order"
    assert all(cards[n - 1] == card for n, card in seen)
    assert unread == injected["noreads"] and missed == injected["missed"]
    assert sorted(numbers + missed) == list(range(1, len(cards) + 1))
    rejected = Counter(line["reason"] for line in lines if line["type"] == "rejected")
    assert rejected == injected["bad"] and set(rejected) == {kind.value for kind in BAD_FRAMES}
    stats = lines[-1]
    assert stats == {
        "device": "shoe",
        "type": "stats",
        "accepted": injected["frames"],
        "rejected": injected["rejected"],
        "duplicates": injected["duplicates"],
    }
    assert injected["duplicates"] > 0
    assert {"lid", "fault", "cut", "shoe"} <= {line["type"] for line in lines}
    assert injected["missed"] and injected["noreads"]


@pytest.mark.slow
def test_monitor_whose_reader_is_gone_ends_cleanly_with_its_stats_line() -> None:
    """`devices monitor | tee` then Ctrl-C: tee is gone first; the stats line goes to stderr, no traceback."""
    with emulator("shoe", "--pace", "0.05") as (sim, url):
        monitor = subprocess.Popen(
            [*COMMAND, "devices", "monitor", "--shoe", url],
            cwd=ROOT,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert monitor.stdout is not None and monitor.stdout.readline().startswith("{")
        monitor.stdout.close()  # the reader goes away while cards keep coming
        time.sleep(0.5)
        monitor.send_signal(signal.SIGINT)
        _, err = monitor.communicate(timeout=15)
    assert monitor.returncode == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err
    stats = json.loads(err.strip().splitlines()[-1])
    assert stats["type"] == "stats" and stats["accepted"] > 1

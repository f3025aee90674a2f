"""The touchscreen benchmark runs in its short form and prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a benchmark script in a process of its own

BENCHMARK = Path(__file__).parents[2] / "benchmarks" / "ui.py"


def test_the_short_benchmark_prints_startup_and_card_latency():
    done = subprocess.run([sys.executable, str(BENCHMARK), "--short"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "startup to first painted frame:" in done.stdout
    assert "card to painted frame over 150 cards, 30 ms between cards: p50" in done.stdout
    assert "a card that opens the settlement page" in done.stdout

"""The analysis benchmarks keep working: their short modes run once and check the figures are whole."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a benchmark script in a process of its own

ROOT = Path(__file__).resolve().parents[2]
BENCHMARK = ROOT / "benchmarks" / "analysis_speed.py"
AGREEMENT = ROOT / "benchmarks" / "strategy_agreement.py"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}  # this checkout's package, not an installed one


def test_analysis_speed_benchmark_runs_in_short_mode() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--short"], capture_output=True, text=True, timeout=120, env=ENV
    )
    assert done.returncode == 0, done.stderr
    assert "buster h17 (8 decks)" in done.stdout and "lucky lucky (8 decks)" in done.stdout
    assert "strategy sd-buster-a, infinite: EV -0.5117%" in done.stdout


@pytest.mark.slow
def test_strategy_agreement_benchmark_runs_in_short_mode() -> None:
    done = subprocess.run(
        [sys.executable, str(AGREEMENT), "--short"], capture_output=True, text=True, timeout=300, env=ENV
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[:3] for line in lines] == [
        ["sd-buster-a", "infinite", "deck"],
        ["sd-buster-a", "6-deck", "shoe"],
    ]
    assert all("distance" in line and "SE" in line for line in lines)

"""The speed benchmark keeps working: its short mode runs once and checks the figures are whole."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a benchmark script in a process of its own

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "analysis_speed.py"


def test_analysis_speed_benchmark_runs_in_short_mode() -> None:
    done = subprocess.run([sys.executable, str(BENCHMARK), "--short"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "buster h17 (8 decks)" in done.stdout and "lucky lucky (8 decks)" in done.stdout

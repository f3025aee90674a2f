"""The core benchmarks still run (their figures are read by people, not asserted here)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # benchmark scripts, the kill soak among them

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("script, expected", [
    ("settle_throughput.py", "rounds/s"),
    ("journal.py", "durable appends"),
    ("kill_soak.py", "identical: True"),
    ("pit.py", "closed round stored, on the API"),  # a private broker and store, the pit service, five tables
    ("pace.py", "rounds/h unassisted"),  # the dealer's window offscreen, every profile, three ways
])
def test_benchmark_runs_in_short_mode(script, expected):
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), "--short"],
                         capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    assert expected in out.stdout

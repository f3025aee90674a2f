"""The device latency benchmark runs (its figures are read by people, not asserted here)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # a benchmark script in a process of its own

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_benchmark_device_latency_runs_in_short_mode() -> None:
    done = subprocess.run(
        [sys.executable, os.path.join(ROOT, "benchmarks", "device_latency.py"), "--short"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "40 cards" in done.stdout and "p50" in done.stdout and "p99" in done.stdout
    assert "Traceback" not in done.stderr

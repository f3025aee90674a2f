"""The camera benchmarks keep working: each runs in its short mode and prints its figures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # benchmark scripts in processes of their own

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.mark.parametrize(
    ("script", "expected"),
    [("camera_fps.py", ["frames/s", "zxing", "pyzbar"]), ("camera_decoders.py", ["condition", "occlusion", "all"])],
)
def test_camera_benchmark_runs_in_short_mode(script: str, expected: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--short"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert all(word in done.stdout for word in expected), done.stdout

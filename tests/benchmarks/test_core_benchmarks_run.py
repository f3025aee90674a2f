"""The core benchmarks run, and their short runs give the figures that do not depend on the machine.

Timings are read by people; what a fixed seed decides is asserted: pace's taps a round and a wager
(and the rounds an hour it models from them), the journal benchmark's records for its rounds, the
kill soak's inputs equal to an uninterrupted run's.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # benchmark scripts, the kill soak among them

ROOT = Path(__file__).resolve().parents[2]

# benchmarks/pace.py --short (3 rounds, seed 1): way -> taps a round, wager taps a wager, modelled rounds an hour
PACE_SHORT = {
    "nobust-4.0": {
        "keyed": ("39.33", "3.17", "31.6"),
        "keyed, same as last": ("27.67", "1.97", "35.2"),
        "reader": ("8.00", "0.00", "43.5"),
    },
    "c21-8.0": {
        "keyed": ("33.67", "2.96", "35.0"),
        "keyed, same as last": ("26.33", "2.04", "37.6"),
        "reader": ("9.33", "0.00", "45.8"),
    },
    "sd-buster-a": {
        "keyed": ("28.33", "2.52", "35.1"),
        "keyed, same as last": ("20.00", "1.52", "38.2"),
        "reader": ("7.33", "0.00", "44.2"),
    },
}
PACE_UNASSISTED = {"nobust-4.0": "48.2", "c21-8.0": "51.9", "sd-buster-a": "48.5"}  # modelled rounds an hour


def _run(script: str) -> str:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), "--short"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.mark.parametrize(
    "script, expected",
    [
        ("settle_throughput.py", "rounds/s"),
        ("kill_soak.py", "identical: True"),
        ("pit.py", "closed round stored, on the API"),  # a private broker and store, the pit service, five tables
        ("public_log.py", "(target <= 2,048) met"),  # the log off and on, two witnesses, a proof verified
    ],
)
def test_benchmark_runs_in_short_mode(script, expected):
    assert expected in _run(script)


def test_the_journal_benchmark_writes_the_records_its_seed_decides():
    out = _run("journal.py")
    assert "journal: 100 rounds closed + 12 inputs, 2,955 records," in out
    assert out.count("restart (verify + recovery of round 101)") == 2, "sealed and as a kill left it"
    assert "durable appends:" in out


def test_pace_counts_the_taps_its_seed_decides_and_labels_the_hour_as_modelled():
    """The dealer's window offscreen, every profile, three ways: each way's row as `_report` prints it."""
    out = _run("pace.py")
    assert "rounds an hour are modelled, not measured" in out
    for profile, ways in PACE_SHORT.items():
        section = out.split(f"\n{profile}: ", 1)[1].split("\n\n", 1)[0]
        assert f"{PACE_UNASSISTED[profile]} rounds/h unassisted (modelled)" in section
        assert "modelled rounds/h" in section
        for way, (taps, per_wager, hourly) in ways.items():
            row = re.search(rf"^  {re.escape(way)} +(\S+) +(\S+) +\S+ \+ +\S+ +(\S+)  ", section, re.MULTILINE)
            assert row is not None, f"{profile} {way}: no row in\n{section}"
            assert row.groups() == (taps, per_wager, hourly), f"{profile} {way}"

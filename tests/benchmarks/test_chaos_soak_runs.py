"""The chaos soak runs: a room --ha dealing while a table, two broker nodes, the ingesting pit and the
store's primary are each killed once, and at the end every journal's records are in the store once."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # a whole room on this machine, parts killed in it

ROOT = Path(__file__).resolve().parents[2]


def test_the_chaos_soak_kills_each_kind_of_part_and_finds_every_record_stored_once() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "chaos.py"), "--short"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout
    assert "4 parts killed (table 1, brokers 1, pit 1, store 1)" in text
    for kill in ("kill -9 table-", "kill -9 nats-", "the ingesting pit", "the store's primary"):
        assert kill in text, kill
    journaled = re.search(r"^records journaled: ([\d,]+) \(3 journals\)$", text, re.MULTILINE)
    witnessed = re.search(r"^records witnessed: ([\d,]+) ", text, re.MULTILINE)
    assert journaled is not None and witnessed is not None, text
    assert journaled.group(1) == witnessed.group(1) and int(journaled.group(1).replace(",", "")) > 0
    assert re.search(r"^gaps seen: \d+; open after their cause ended: at most [\d.]+ s", text, re.MULTILINE), text
    assert "result: missing 0, doubled 0, not journaled 0, hash differs 0: OK" in text

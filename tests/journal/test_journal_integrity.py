"""The journal's chain and seal: every change to the file is found and named, nothing repaired."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from journal_helpers import bench_journal

from dealer_assist.journal.errors import JournalClosed, JournalDamaged
from dealer_assist.journal.journal_file import RecordKind, verify
from dealer_assist.table.header import table_config
from dealer_assist.table.journaled_table import Table, TableStopped


@pytest.fixture(scope="module")
def sealed(tmp_path_factory) -> Path:
    folder = Path("/dev/shm") if Path("/dev/shm").is_dir() else tmp_path_factory.mktemp("j")
    path = folder / f"sealed-{random.getrandbits(32):08x}.db"
    bench_journal(path, 40, profile="c21-8.0", seed=11)
    yield path
    for leftover in folder.glob(path.name + "*"):
        leftover.unlink()


def test_a_clean_journal_verifies(sealed):
    verdict = verify(sealed)
    assert verdict.ok, verdict.message
    assert verdict.records > 40


def test_200_random_single_byte_changes_are_each_detected_and_located(sealed, tmp_path):
    original = sealed.read_bytes()
    rng = random.Random(2024)
    named_records = 0
    for trial in range(200):
        copy = tmp_path / "copy.db"
        data = bytearray(original)
        at = rng.randrange(len(data))
        data[at] = (data[at] + rng.randrange(1, 256)) % 256
        copy.write_bytes(bytes(data))
        shutil.copy(str(sealed) + ".seal", str(copy) + ".seal")
        verdict = verify(copy)
        assert not verdict.ok, f"trial {trial}: a change at byte {at} went unseen"
        assert "record" in verdict.message or "page" in verdict.message, verdict.message
        named_records += verdict.first_bad is not None
    assert named_records >= 180, f"only {named_records} of 200 changes named the first bad record"


def test_a_changed_record_is_named_by_the_chain(sealed, tmp_path):
    import sqlite3

    copy = tmp_path / "edited.db"
    shutil.copy(sealed, copy)
    db = sqlite3.connect(copy)
    db.execute(
        "UPDATE records SET body = replace(body, '\"amount\":500', '\"amount\":5000') WHERE seq = (SELECT"
        " min(seq) FROM records WHERE body LIKE '%\"amount\":500%')"
    )
    seq = db.execute("SELECT min(seq) FROM records WHERE body LIKE '%\"amount\":5000%'").fetchone()[0]
    db.commit()
    db.close()
    verdict = verify(copy)
    assert not verdict.ok and verdict.first_bad == seq
    assert f"record {seq}" in verdict.message


def test_a_removed_record_is_named(sealed, tmp_path):
    import sqlite3

    copy = tmp_path / "cut.db"
    shutil.copy(sealed, copy)
    db = sqlite3.connect(copy)
    db.execute("DELETE FROM records WHERE seq = 17")
    db.commit()
    db.close()
    verdict = verify(copy)
    assert not verdict.ok and verdict.first_bad == 17 and "record 17 is missing" in verdict.message


def test_a_damaged_journal_is_refused_at_start_and_left_untouched(sealed, tmp_path):
    copy = tmp_path / "damaged.db"
    data = bytearray(sealed.read_bytes())
    data[len(data) // 2] ^= 0x55
    copy.write_bytes(bytes(data))
    shutil.copy(str(sealed) + ".seal", str(copy) + ".seal")
    before = hashlib.sha256(copy.read_bytes()).hexdigest()
    with pytest.raises(JournalDamaged) as refused:
        Table.open(copy)
    assert not refused.value.verdict.ok
    assert hashlib.sha256(copy.read_bytes()).hexdigest() == before
    assert (tmp_path / "damaged.db.seal").exists(), "the evidence of the seal is kept"


@pytest.mark.slow
def test_journal_verify_command_reports_damage_with_exit_1(sealed, tmp_path):
    copy = tmp_path / "cmd.db"
    data = bytearray(sealed.read_bytes())
    data[-700] ^= 0x01
    copy.write_bytes(bytes(data))
    shutil.copy(str(sealed) + ".seal", str(copy) + ".seal")
    good = subprocess.run(
        [sys.executable, "-m", "ui.cli", "journal", "verify", str(sealed), "--json"], capture_output=True, text=True
    )
    assert good.returncode == 0 and json.loads(good.stdout)["ok"] is True
    bad = subprocess.run(
        [sys.executable, "-m", "ui.cli", "journal", "verify", str(copy), "--json"], capture_output=True, text=True
    )
    assert bad.returncode == 1
    report = json.loads(bad.stdout)
    assert report["ok"] is False and report["message"]
    missing = subprocess.run(
        [sys.executable, "-m", "ui.cli", "journal", "verify", str(tmp_path / "none.db")], capture_output=True, text=True
    )
    assert missing.returncode == 2 and json.loads(missing.stdout)["error"]["code"] == "no_journal"


def test_a_record_after_the_close_is_refused_by_name_and_the_journal_stays_sealed(journal_dir):
    path = bench_journal(journal_dir / "closed.db", 2)
    table = Table.open(path, table_config(path))
    table.close()
    with pytest.raises(JournalClosed) as late:
        table.journal.append(RecordKind.DEVICE, {"device": "shoe", "type": "LinkChanged", "state": "down"})
    assert "journal is closed" in str(late.value) and "LinkChanged" in str(late.value)
    with pytest.raises(TableStopped) as stopped:
        table.note_device({"device": "shoe", "type": "LinkChanged", "state": "down"})
    assert "journal is closed" in str(stopped.value) and table.stopped == str(stopped.value)
    assert verify(path).ok

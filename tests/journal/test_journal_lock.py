"""One process per journal: the lock names its holder, and a dead holder's lock is taken over."""

from __future__ import annotations

import json
import os

import pytest

from dealer_assist.journal.errors import JournalInUse
from dealer_assist.journal.lock import JournalLock, lock_path


def test_a_held_journal_is_refused_naming_the_holder(tmp_path):
    journal = tmp_path / "t.db"
    with JournalLock(journal):
        with pytest.raises(JournalInUse, match=rf"t.db is in use by process {os.getpid()} on \S+, started 20"):
            JournalLock(journal).acquire()
    assert not lock_path(journal).exists(), "a released lock leaves nothing behind"
    with JournalLock(journal) as again:
        assert again.took_over is None


def test_the_lock_of_a_process_that_died_is_taken_over_and_named(tmp_path):
    journal = tmp_path / "t.db"
    lock_path(journal).write_text(
        json.dumps({"pid": 999999, "host": "table-pc", "started": "2026-01-02T03:04:05+00:00"})
    )
    with JournalLock(journal) as lock:
        assert str(lock.took_over) == "process 999999 on table-pc, started 2026-01-02T03:04:05+00:00"
        assert json.loads(lock_path(journal).read_text())["pid"] == os.getpid()

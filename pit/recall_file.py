"""Recall and round-file export of the pit's records through the table's own code.

`dealer_assist.recall` still reads a journal file by its path; until it reads a `RecordSource`,
this adapter writes what recall of one round reads (the journal's header, and the records from
the round before it, whose close is the round's checkpoint, to the round's end) into a temporary
journal file, and calls recall and export on it. The records keep their seq, hash and body.
"""
from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from dealer_assist import recall as table_recall
from dealer_assist.journal import SCHEMA
from dealer_assist.record_source import RecordSource


@contextmanager
def round_journal(source: RecordSource, round_id: int) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="pit-recall-") as folder:
        path = Path(folder) / "journal.db"
        db = sqlite3.connect(path)
        try:
            db.execute(SCHEMA)
            rows = {}
            for record in (source.record_at(1), *source.round_records(max(1, round_id - 1), round_id)):
                rows[record.seq] = (record.seq, record.wall, record.mono_ns, record.round_id, record.kind.value,
                                    record.body_text, record.hash)
            db.executemany("INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?)", [rows[seq] for seq in sorted(rows)])
            db.commit()
        finally:
            db.close()
        yield path


def recall_round(source: RecordSource, round_id: int) -> dict[str, Any]:
    """The round as the table's recall shows it (an open round's hole card masked)."""
    with round_journal(source, round_id) as path:
        return table_recall.recall(path, round_id=round_id)[0]


def export_round(source: RecordSource, round_id: int, journal: str) -> dict[str, Any]:
    """The round as a round-v1 file; its meta names the pit's journal, not the temporary file."""
    with round_journal(source, round_id) as path:
        exported = table_recall.export_round(path, round_id)
    exported.setdefault("meta", {})["journal"] = journal
    return exported

"""Where a journal's records are read from: a table's SQLite file, or the pit's store of it.

Recall, export, replay and verify read a `RecordSource`, so the same code answers a dispute at the
table and from the pit. A source holds one journal; seq numbers start at 1 and have no gaps.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from dealer_assist import journal
from dealer_assist.journal import Record, RecordKind


class RecordSource(Protocol):
    @property
    def name(self) -> str:
        """What a person calls this journal in a message (a file path, `pit:TABLE/JOURNAL`)."""
        ...

    def records(self, since: int = 0) -> Iterator[Record]:
        """Every record after seq `since`, in order."""
        ...

    def record_at(self, seq: int) -> Record:
        """Record `seq`; KeyError naming the journal and the seq when there is none."""
        ...

    def round_records(self, first: int, last: int | None = None) -> Iterator[Record]:
        """The records of rounds `first` to `last` (to the end when None), in order, from where round
        `first` starts, without reading the journal from its beginning; records outside any round
        that fall between them come too."""
        ...

    def last_round_id(self) -> int | None:
        ...

    def security_events(self) -> list[dict[str, Any]]:
        """The bodies of the security records (PIN set, wrong PIN, lockout), in order."""
        ...


class SqliteRecords:
    """A table's own journal file, read only."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)

    @property
    def name(self) -> str:
        return str(self.path)

    def records(self, since: int = 0) -> Iterator[Record]:
        return journal.read_records(self.path, since)

    def record_at(self, seq: int) -> Record:
        return journal.record_at(self.path, seq)

    def round_records(self, first: int, last: int | None = None) -> Iterator[Record]:
        return journal.round_records(self.path, first, last)

    def last_round_id(self) -> int | None:
        return journal.last_round_id(self.path)

    def security_events(self) -> list[dict[str, Any]]:
        return journal.security_events(self.path)


def closing_record(source: RecordSource, round_id: int) -> Record | None:
    """The record that closed round `round_id`, or None while it is open."""
    closing = None
    for record in source.round_records(round_id, round_id):
        if record.kind is RecordKind.CLOSE and record.round_id == round_id:
            closing = record
    return closing

"""Where a journal's records are read from: a table's SQLite file, or the pit's store of it.

Recall, export, replay and verify read a `RecordSource`, so the same code answers a dispute at the
table and from the pit. A source holds one journal; seq numbers start at 1 and have no gaps.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

from dealer_assist.journal import journal_file as journal
from dealer_assist.journal.journal_file import GENESIS, Record, RecordKind, Verdict, record_hash

__all__ = ["HeldRecords", "RecordSource", "SqliteRecords", "as_source", "closing_record", "verify_source"]


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

    def last_round_id(self) -> int | None: ...

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


class HeldRecords:
    """Records of one journal held in memory (a round's proof file carries them): its header, then
    the records from a closed round on, without a gap; the ones between are never asked for."""

    def __init__(self, name: str, records: list[Record]) -> None:
        self._name = name
        self._records = records

    @property
    def name(self) -> str:
        return self._name

    def records(self, since: int = 0) -> Iterator[Record]:
        return (record for record in self._records if record.seq > since)

    def record_at(self, seq: int) -> Record:
        for record in self._records:
            if record.seq == seq:
                return record
        raise KeyError(f"{self._name}: no record {seq}")

    def round_records(self, first: int, last: int | None = None) -> Iterator[Record]:
        return (
            record
            for record in self._records
            if record.round_id is not None and first <= record.round_id <= (last or record.round_id)
        )

    def last_round_id(self) -> int | None:
        return max((record.round_id for record in self._records if record.round_id is not None), default=None)

    def security_events(self) -> list[dict[str, Any]]:
        return [record.body for record in self._records if record.kind is RecordKind.SECURITY]


def closing_record(source: RecordSource, round_id: int) -> Record | None:
    """The record that closed round `round_id`, or None while it is open."""
    closing = None
    for record in source.round_records(round_id, round_id):
        if record.kind is RecordKind.CLOSE and record.round_id == round_id:
            closing = record
    return closing


def as_source(where: RecordSource | Path | str) -> RecordSource:
    """A journal named by its file path, or any record source as it is."""
    return SqliteRecords(where) if isinstance(where, (Path, str)) else where


def verify_source(source: RecordSource) -> Verdict:
    """Every record's hash against the chain; for a table's own file also the seal (`journal.verify`).
    The report names the first bad record."""
    if isinstance(source, SqliteRecords):
        return journal.verify(source.path)
    count, prev, checkpoint, closed = 0, GENESIS, 0, 0
    try:
        for record in source.records():
            if record.seq != count + 1:
                return Verdict(
                    False, count, f"{source.name}: record {count + 1} is missing (next is {record.seq})", count + 1
                )
            if (
                record_hash(
                    prev, record.seq, record.wall, record.mono_ns, record.round_id, record.kind.value, record.body_text
                )
                != record.hash
            ):
                return Verdict(
                    False,
                    count,
                    f"{source.name}: record {record.seq} does not match its hash: it was altered",
                    record.seq,
                )
            if record.kind is RecordKind.CLOSE:
                checkpoint, closed = record.seq, closed + 1
            elif record.kind is RecordKind.TABLE:
                checkpoint = record.seq
            count, prev = record.seq, record.hash
    except (OSError, ValueError, KeyError) as error:
        return Verdict(False, count, f"{source.name}: record {count + 1} is unreadable: {error}", count + 1)
    return Verdict(True, count, journal.intact(count), None, checkpoint, prev, closed)

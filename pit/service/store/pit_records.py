"""A `RecordSource` over the pit's stored copy of one journal, so a round's recall and round file
at the pit come from the same domain code as at the table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from psycopg_pool import ConnectionPool

from dealer_assist.journal.journal_file import Record, RecordKind

COLUMNS = "seq, wall, mono_ns, round_id, kind, body, hash"


class PitRecords:
    def __init__(self, pool: ConnectionPool[Any], table_id: str, journal: str) -> None:
        self.pool = pool
        self.table_id = table_id
        self.journal = journal

    @property
    def name(self) -> str:
        return f"pit:{self.table_id}/{self.journal}"

    def _rows(self, sql: str, *args: object) -> list[tuple[Any, ...]]:
        with self.pool.connection() as conn:
            rows: list[tuple[Any, ...]] = conn.execute(sql, (self.journal, *args)).fetchall()
            return rows

    def records(self, since: int = 0) -> Iterator[Record]:
        for row in self._rows(f"SELECT {COLUMNS} FROM records WHERE journal = %s AND seq > %s ORDER BY seq", since):
            yield _record(row)

    def record_at(self, seq: int) -> Record:
        rows = self._rows(f"SELECT {COLUMNS} FROM records WHERE journal = %s AND seq = %s", seq)
        if not rows:
            raise KeyError(f"{self.name}: no record {seq}")
        return _record(rows[0])

    def round_records(self, first: int, last: int | None = None) -> Iterator[Record]:
        """From the record after the last one of an earlier round, to before the first of a later one."""
        rows = self._rows(
            f"SELECT {COLUMNS} FROM records WHERE journal = %s"
            " AND seq > (SELECT coalesce(max(seq), 0) FROM records WHERE journal = %s AND round_id < %s)"
            " AND (%s::bigint IS NULL OR seq < (SELECT coalesce(min(seq), 9223372036854775807) FROM records"
            "      WHERE journal = %s AND round_id > %s))"
            " ORDER BY seq",
            self.journal,
            first,
            last,
            self.journal,
            last,
        )
        for row in rows:
            yield _record(row)

    def last_round_id(self) -> int | None:
        rows = self._rows(
            "SELECT round_id FROM records WHERE journal = %s AND round_id IS NOT NULL ORDER BY seq DESC LIMIT 1"
        )
        return int(rows[0][0]) if rows else None

    def security_events(self) -> list[dict[str, Any]]:
        rows = self._rows(
            "SELECT body FROM records WHERE journal = %s AND kind = %s ORDER BY seq", RecordKind.SECURITY.value
        )
        return [json.loads(body) for (body,) in rows]


def _record(row: tuple[Any, ...]) -> Record:
    seq, wall, mono_ns, round_id, kind, body, digest = row
    return Record(seq, wall, mono_ns, round_id, RecordKind(kind), json.loads(body), bytes.fromhex(digest))

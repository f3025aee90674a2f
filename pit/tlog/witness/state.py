"""The witness's memory, a SQLite file: per log origin the latest checkpoint it cosigned, and every
validly signed checkpoint it refused as inconsistent (the evidence of a log that forked or rolled back).

Each request's check and write happen in one `BEGIN IMMEDIATE` transaction, committed with a full
sync before the answer leaves, so two requests cannot roll a log back between them (tlog-witness) and
a restart finds what was last answered.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS latest (
    origin TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    root BLOB NOT NULL,
    checkpoint BLOB NOT NULL,  -- the note with the log's verified signatures and this witness's cosignature
    cosigned_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS evidence (
    id INTEGER PRIMARY KEY,
    origin TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    reason TEXT NOT NULL,
    request BLOB NOT NULL  -- the add-checkpoint body, as received
);
"""


@dataclass(frozen=True)
class Latest:
    size: int
    root: bytes
    checkpoint: bytes
    cosigned_at: int


@dataclass(frozen=True)
class Evidence:
    origin: str
    received_at: int
    reason: str
    request: bytes


class WitnessState:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[WitnessState]:
        """One request's read and write, committed (and synced) before it returns; rolled back on an error."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def latest(self, origin: str) -> Latest | None:
        row = self._db.execute(
            "SELECT size, root, checkpoint, cosigned_at FROM latest WHERE origin = ?", (origin,)
        ).fetchone()
        return None if row is None else Latest(row[0], bytes(row[1]), bytes(row[2]), row[3])

    def cosigned(self, origin: str, latest: Latest) -> None:
        self._db.execute(
            "INSERT INTO latest (origin, size, root, checkpoint, cosigned_at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (origin) DO UPDATE SET size = excluded.size, root = excluded.root, "
            "checkpoint = excluded.checkpoint, cosigned_at = excluded.cosigned_at",
            (origin, latest.size, latest.root, latest.checkpoint, latest.cosigned_at),
        )

    def keep_evidence(self, evidence: Evidence) -> None:
        self._db.execute(
            "INSERT INTO evidence (origin, received_at, reason, request) VALUES (?, ?, ?, ?)",
            (evidence.origin, evidence.received_at, evidence.reason, evidence.request),
        )

    def evidence(self) -> list[Evidence]:
        rows = self._db.execute("SELECT origin, received_at, reason, request FROM evidence ORDER BY id").fetchall()
        return [Evidence(row[0], row[1], row[2], bytes(row[3])) for row in rows]

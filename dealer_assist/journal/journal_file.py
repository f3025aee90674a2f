"""The table's journal: every input and operation in a hash-chained, append-only SQLite file.

Each record's hash covers the previous record's hash and all of its own columns, so changing,
removing or reordering any record breaks the chain at that record. A clean close also writes a
seal beside the file: a hash of every page, which catches a change anywhere in the file, even in
bytes no record uses. Verification only reads; a damaged journal is never repaired or cleared.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import struct
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from dealer_assist.journal.errors import JournalClosed, JournalWriteFailed
from dealer_assist.journal.verdict import GENESIS, Verdict
from dealer_assist.rules.counts import count

__all__ = [
    "GENESIS",
    "Journal",
    "Record",
    "RecordKind",
    "Sink",
    "Verdict",
    "canonical_json",
    "last_seq",
    "read_records",
    "record_at",
    "record_hash",
    "security_events",
    "verify",
]

log = logging.getLogger(__name__)
SCHEMA = """
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY,
    wall TEXT NOT NULL,
    mono_ns INTEGER NOT NULL,
    round_id INTEGER,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    hash BLOB NOT NULL
)
"""


class RecordKind(StrEnum):
    TABLE = "table"  # the header: table, profile id and hash, devices, software
    INPUT = "input"  # an accepted input with the operations it caused
    CLOSE = "close"  # the input that closed a round, with its ledger and the state carried on
    REFUSED = "refused"  # an input the rules refused, with the reason
    SECURITY = "security"  # PIN set, wrong PIN, lockout
    DEVICE = "device"  # device identities and link changes
    RESUMED = "resumed"  # the table restarted from this journal


@dataclass(frozen=True, slots=True)
class Record:
    seq: int
    wall: str
    mono_ns: int
    round_id: int | None
    kind: RecordKind
    body: dict[str, Any]
    hash: bytes  # record_hash(previous record's hash, this record's fields)

    @property
    def body_text(self) -> str:
        """The body exactly as hashed."""
        return canonical_json(self.body)


def record_hash(prev: bytes, seq: int, wall: str, mono_ns: int, round_id: int | None, kind: str, body: str) -> bytes:
    """A record's hash, which anyone holding the record can recompute:

        SHA-256( prev || f"{seq}\\x1f{wall}\\x1f{mono_ns}\\x1f{round_id or ''}\\x1f{kind}\\x1f" || body )

    `prev` is the previous record's 32-byte hash (32 zero bytes before the first record), `body` the
    record's canonical JSON text (`canonical_json`), all text UTF-8. A round id of None is empty."""
    head = f"{seq}\x1f{wall}\x1f{mono_ns}\x1f{'' if round_id is None else round_id}\x1f{kind}\x1f".encode()
    return hashlib.sha256(prev + head + body.encode()).digest()


def canonical_json(body: dict[str, Any]) -> str:
    """The one JSON text of a body that is hashed: sorted keys, no spaces, UTF-8 as is."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def seal_path(path: Path) -> Path:
    return path.with_name(path.name + ".seal")


Sink = Callable[[Record], None]


class Journal:
    """An open journal for appending. Open it only after `verify` said it is intact."""

    def __init__(self, path: Path, verdict: Verdict) -> None:
        self.path = Path(path)
        seal_path(self.path).unlink(missing_ok=True)  # the file is about to change
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute(SCHEMA)
        self.seq = verdict.records
        self.head = verdict.head
        self.closed = False
        self._sinks: list[Sink] = []

    def add_sink(self, sink: Sink) -> None:
        """Offer every durable record to `sink`, in order, on the appending thread right after its
        commit. A sink must not block (hand the record to a queue of its own); one that raises is
        logged and never stops the table."""
        self._sinks.append(sink)

    def append(self, kind: RecordKind, body: dict[str, Any], round_id: int | None = None) -> Record:
        """Write one record durably: when this returns, the record survives a power cut."""
        if self.closed:
            raise JournalClosed(
                f"{self.path}: the journal is closed; a {kind.value} record was not written: {canonical_json(body)}"
            )
        seq = self.seq + 1
        wall = datetime.now(UTC).isoformat(timespec="microseconds")
        mono = time.monotonic_ns()
        text = canonical_json(body)
        digest = record_hash(self.head, seq, wall, mono, round_id, kind.value, text)
        try:
            self.db.execute(
                "INSERT INTO records VALUES (?, ?, ?, ?, ?, ?, ?)",
                (seq, wall, mono, round_id, kind.value, text, digest),
            )
        except (sqlite3.Error, OSError) as error:
            raise JournalWriteFailed(
                f"{self.path}: record {seq} ({kind.value}) could not be written: {error}; "
                f"the journal ends at record {self.seq}"
            ) from error
        self.seq, self.head = seq, digest
        if kind is RecordKind.CLOSE:
            # Moving the round into the file here lets the next round rewrite the WAL from its
            # start: each commit's fsync then rewrites blocks the WAL already has (no metadata to
            # flush), and no checkpoint falls in the middle of a round to delay a card.
            try:
                self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            except sqlite3.Error as error:  # the record is durable in the WAL; the next checkpoint moves it
                log.warning("%s: checkpoint after record %d failed: %s", self.path, seq, error)
        record = Record(seq, wall, mono, round_id, kind, body, digest)
        for sink in self._sinks:
            try:
                sink(record)
            except Exception:  # a sink's fault is its own: the record is durable, the table goes on
                log.exception("%s: a record sink failed on record %d", self.path, seq)
        return record

    def close(self) -> None:
        """Checkpoint the WAL into the file and seal every page of it. On a disk that fails the
        journal is left unsealed: its records stay durable and the chain still checks them."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as error:
            log.warning("%s: closed without its seal, the checkpoint failed: %s", self.path, error)
            self.db.close()
            self.closed = True
            return
        self.db.close()
        self.closed = True
        write_seal(self.path, self.seq, self.head)

    def remove(self) -> None:
        """Close and delete a journal made by a start that was then refused: the file and SQLite's
        files beside it go, and no seal is written."""
        self.db.close()
        self.closed = True
        for path in (
            self.path,
            self.path.with_name(self.path.name + "-wal"),
            self.path.with_name(self.path.name + "-shm"),
            seal_path(self.path),
        ):
            path.unlink(missing_ok=True)


def intact(records: int) -> str:
    """The verdict of a journal whose every record checks, from its file or from the pit's copy."""
    return f"{count(records, 'record')} intact"


def read_records(path: Path, since: int = 0) -> Iterator[Record]:
    db = _open_read_only(Path(path))
    try:
        for row in db.execute("SELECT * FROM records WHERE seq > ? ORDER BY seq", (since,)):
            yield _record(row)
    finally:
        db.close()


def _query(path: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    db = _open_read_only(Path(path))
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def _record(row: tuple[Any, ...]) -> Record:
    seq, wall, mono, round_id, kind, body, digest = row
    return Record(seq, wall, mono, round_id, RecordKind(kind), json.loads(body), bytes(digest))


def record_at(path: Path, seq: int) -> Record:
    rows = _query(path, "SELECT * FROM records WHERE seq = ?", seq)
    if not rows:
        raise KeyError(f"{path}: no record {seq}")
    return _record(rows[0])


def last_round_id(path: Path) -> int | None:
    rows = _query(path, "SELECT round_id FROM records WHERE round_id IS NOT NULL ORDER BY seq DESC LIMIT 1")
    return rows[0][0] if rows else None


def round_records(path: Path, first: int, last: int | None = None) -> Iterator[Record]:
    """The records of rounds `first` to `last` (to the end when None), in order, read from where
    round `first` starts rather than from the journal's beginning. Records outside any round
    that fall between them come too."""
    db = _open_read_only(Path(path))
    try:
        start = _round_start(db, first)
        for row in db.execute("SELECT * FROM records WHERE seq >= ? ORDER BY seq", (start,)):
            if last is not None and row[3] is not None and row[3] > last:
                break
            yield _record(row)
    finally:
        db.close()


def _round_start(db: sqlite3.Connection, round_id: int) -> int:
    """The first seq from which the journal's rounds reach `round_id`. A table numbers its rounds
    in journal order and never goes back, so a binary search over seq finds it in a few lookups."""
    (high,) = db.execute("SELECT ifnull(max(seq), 0) + 1 FROM records").fetchone()
    low = 1
    while low < high:
        middle = (low + high) // 2
        row = db.execute(
            "SELECT round_id FROM records WHERE seq >= ? AND round_id IS NOT NULL ORDER BY seq LIMIT 1", (middle,)
        ).fetchone()
        if row is None or row[0] >= round_id:
            high = middle
        else:
            low = middle + 1
    return low


def security_events(path: Path) -> list[dict[str, Any]]:
    rows = _query(path, "SELECT body FROM records WHERE kind = ? ORDER BY seq", RecordKind.SECURITY.value)
    return [json.loads(body) for (body,) in rows]


def last_seq(path: Path) -> int:
    """The seq of the journal's last record (0 when it has none), read without reading the records."""
    return int(_query(path, "SELECT ifnull(max(seq), 0) FROM records")[0][0])


def _open_read_only(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such journal")
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def verify(path: Path, since: int = 0, head: bytes = GENESIS) -> Verdict:
    """Check the chain record by record (from `since`, whose hash is `head`), then the seal."""
    path = Path(path)
    try:
        db = _open_read_only(path)
    except (FileNotFoundError, sqlite3.Error) as error:
        return Verdict(False, 0, str(error))
    count, checkpoint, prev, closed = since, since, head, 0
    try:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'").fetchone():
            empty = path.stat().st_size == 0 or not db.execute("SELECT 1 FROM sqlite_master").fetchone()
            return Verdict(True, 0, "an empty journal") if empty else _bad(path, 0, None, "not a dealer-assist journal")
        # SQLite lays out each record's hashed bytes (see record_hash) and hands them over undecoded,
        # so the loop only hashes.
        db.text_factory = bytes
        rows = db.execute(
            "SELECT seq, kind, printf('%d\x1f%s\x1f%d\x1f%s\x1f%s\x1f', seq, wall, mono_ns, ifnull(round_id, ''), kind)"
            " || body, hash FROM records WHERE seq > ? ORDER BY seq",
            (since,),
        )
        kinds = {kind.value.encode() for kind in RecordKind}
        close, header = RecordKind.CLOSE.value.encode(), RecordKind.TABLE.value.encode()
        sha256 = hashlib.sha256
        for seq, kind, hashed, digest in rows:
            if seq != count + 1:
                return _bad(path, count, count + 1, f"record {count + 1} is missing (next is {seq})")
            if kind not in kinds or not isinstance(hashed, bytes) or sha256(prev + hashed).digest() != digest:
                return _bad(path, count, seq, f"record {seq} does not match its hash: it was altered")
            if kind == close:
                checkpoint, closed = seq, closed + 1
            elif kind == header:
                checkpoint = seq
            count, prev = seq, digest
    except sqlite3.Error as error:
        located = check_seal(path, None, None)
        if located:
            return _bad(path, count, located[0], f"the file is damaged ({error}): {located[1]}")
        return _bad(path, count, count + 1, f"the file is damaged after record {count}: {error}")
    finally:
        db.close()
    seal_problem = check_seal(path, count, prev)
    if seal_problem:
        return _bad(path, count, seal_problem[0], seal_problem[1])
    return Verdict(True, count, intact(count), None, checkpoint, prev, closed)


def _bad(path: Path, good: int, first_bad: int | None, message: str) -> Verdict:
    return Verdict(False, good, f"{path}: {message}", first_bad)


# --- the seal: a hash of every page, written at a clean close ------------------------------------


def _page_hashes(data: bytes, page_size: int) -> list[str]:
    return [hashlib.sha256(data[i : i + page_size]).hexdigest()[:32] for i in range(0, len(data), page_size)]


def write_seal(path: Path, seq: int, head: bytes) -> None:
    data = Path(path).read_bytes()
    page_size = _page_size(data)
    seal = {
        "records": seq,
        "head": head.hex(),
        "size": len(data),
        "page_size": page_size,
        "pages": _page_hashes(data, page_size),
    }
    tmp = seal_path(path).with_suffix(".tmp")
    tmp.write_text(json.dumps(seal))
    with open(tmp, "rb") as handle:
        os.fsync(handle.fileno())
    tmp.replace(seal_path(path))


def _page_size(data: bytes) -> int:
    size = struct.unpack(">H", data[16:18])[0] if len(data) >= 100 else 4096
    return 65536 if size == 1 else size if size >= 512 else 4096


def check_seal(path: Path, records: int | None, head: bytes | None) -> tuple[int | None, str] | None:
    """None when there is no seal or it matches; else (first bad record or None, what is wrong).

    `records` and `head` are the chain's, when it could be read, to tie the seal to it."""
    try:
        seal = json.loads(seal_path(path).read_text())
        page_size, sealed_pages, sealed_size = int(seal["page_size"]), list(seal["pages"]), int(seal["size"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError):
        return None, f"the seal {seal_path(path).name} is unreadable"
    data = Path(path).read_bytes()
    if len(data) != sealed_size:
        return None, f"the file is {len(data)} bytes but was sealed at {sealed_size}"
    pages = _page_hashes(data, page_size)
    for number, (now, then) in enumerate(zip(pages, sealed_pages, strict=False), start=1):
        if now != then:
            rows = _rowids_on_page(data, number, page_size)
            where = f"page {number} (bytes {(number - 1) * page_size}-{number * page_size - 1})"
            if rows:
                return (
                    rows[0],
                    f"record {rows[0]} is on {where}, which changed after the journal was sealed (records"
                    f" {rows[0]}-{rows[-1]})",
                )
            return None, f"{where} changed after the journal was sealed"
    if records is not None and head is not None and (seal.get("records") != records or seal.get("head") != head.hex()):
        sealed = seal.get("records")
        return (
            None,
            f"the seal is for {count(sealed, 'record') if isinstance(sealed, int) else sealed} but the journal"
            f" has {records}",
        )
    return None


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    return value, at + 9


def _rowids_on_page(data: bytes, number: int, page_size: int) -> list[int]:
    """The record numbers on a table leaf page, read from the file format, for the report only."""
    start = (number - 1) * page_size
    header = start + (100 if number == 1 else 0)
    try:
        if data[header] != 0x0D:
            return []
        cells = struct.unpack(">H", data[header + 3 : header + 5])[0]
        rowids = []
        for i in range(cells):
            pointer = struct.unpack(">H", data[header + 8 + 2 * i : header + 10 + 2 * i])[0]
            _, at = _varint(data, start + pointer)
            rowid, _ = _varint(data, at)
            rowids.append(rowid)
        return sorted(r for r in rowids if r > 0)
    except (IndexError, struct.error):
        return []

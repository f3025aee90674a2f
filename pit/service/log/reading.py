"""The log as every pit serves it (PIT.md §9), read from the store: the latest published checkpoint, the
tiles and entry bundles of the tree it covers (tlog-tiles), and a round's proof file (`round-proof-v1`)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from psycopg import Connection
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

from dealer_assist.errors import Failure
from dealer_assist.journal.journal_file import GENESIS, RecordKind
from pit.service.log.tree import LeafTree
from pit.tlog.errors import Malformed, TlogCode
from pit.tlog.merkle import inclusion_proof
from pit.tlog.proof_text import TlogProof
from pit.tlog.round_settle import replay_context
from pit.tlog.tiles import TILE_WIDTH, Tile, encode_bundle, tile_data, tile_for

__all__ = ["LogReader", "NoLog"]

PROOF_FORMAT = "round-proof-v1"


class NoLog(Failure):
    """What the log cannot give (yet): 404 for what it does not hold, 409 for what it has not published."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(TlogCode.NOT_PUBLISHED if status == 409 else TlogCode.NOT_IN_LOG, message, 1)
        self.status = status


@dataclass(frozen=True)
class Published:
    size: int
    note: bytes


class LogReader:
    """Reads the log from the store for the web; keeps one tree in memory, grown to each published size."""

    def __init__(self, pool: ConnectionPool[Any]) -> None:
        self._pool = pool
        self._tree = LeafTree()
        self._lock = threading.Lock()

    def published(self) -> Published:
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT size, note FROM log_checkpoints WHERE published IS NOT NULL ORDER BY size DESC LIMIT 1"
            ).fetchone()
        if row is None:
            raise NoLog(404, "no checkpoint has been published yet")
        return Published(int(row[0]), bytes(row[1]))

    def tile(self, path: str) -> tuple[bytes, bool]:
        """The tile or entry bundle at `path` (tlog-tiles), and whether it is full (immutable)."""
        try:
            tile = Tile.parse(path)
        except Malformed as error:
            raise NoLog(404, str(error)) from None
        size = self.published().size
        level = 0 if tile.level is None else tile.level
        try:
            have = tile_for(level, tile.index, size)
        except Malformed:
            raise NoLog(404, f"{path}: not in the published tree of {size}") from None
        if tile.width > have.width:
            raise NoLog(404, f"{path}: the published tree of {size} has {have.width} there")
        if tile.level is None:
            first = tile.index * TILE_WIDTH
            with self._pool.connection() as conn:
                rows = conn.execute(
                    "SELECT leaf FROM log_leaves WHERE idx >= %s AND idx < %s ORDER BY idx", (first, first + tile.width)
                ).fetchall()
            return encode_bundle([bytes(row[0]) for row in rows]), tile.full
        with self._lock:
            self._grow(size)
            return tile_data(self._tree, tile), tile.full

    def round_proof(self, journal: str, round_id: int) -> dict[str, Any]:
        """The round's proof file: its records, its leaf, and a tlog-proof against the published checkpoint."""
        with self._pool.connection() as conn:
            row = conn.execute(
                "SELECT idx, leaf, table_id, first_seq, last_seq FROM log_leaves WHERE journal = %s AND round_id = %s",
                (journal, round_id),
            ).fetchone()
            if row is None:
                raise NoLog(404, f"journal {journal}: no leaf for round {round_id} (not closed, or not stored)")
            index, leaf, table_id, first, last = int(row[0]), bytes(row[1]), row[2], int(row[3]), int(row[4])
            records = _records(conn, journal, first, last)
            opened = conn.execute(
                "SELECT coalesce(max(seq), 2) FROM records WHERE journal = %s AND seq < %s AND kind = %s",
                (journal, first, RecordKind.CLOSE.value),
            ).fetchone()[0]
            opening = _records(conn, journal, min(int(opened), first), first - 1)
            before = conn.execute(
                "SELECT hash FROM records WHERE journal = %s AND seq = %s", (journal, min(int(opened), first) - 1)
            ).fetchone()
            header = _records(conn, journal, 1, 1)
        published = self.published()
        if published.size <= index:
            raise NoLog(
                409, f"round {round_id} is leaf {index}; the published checkpoint covers {published.size} leaves"
            )
        with self._lock:
            self._grow(published.size)
            hashes = inclusion_proof(self._tree, index, published.size)
        proof = TlogProof(index, tuple(hashes), published.note)
        return {
            "format": PROOF_FORMAT,
            "table_id": table_id,
            "journal": journal,
            "round_id": round_id,
            "records": records,
            "leaf": leaf.decode(),
            "index": index,
            "tlog_proof": proof.render().decode(),
            **replay_context(header[0], before[0] if before else GENESIS.hex(), opening),
        }

    def _grow(self, size: int) -> None:
        if size > self._tree.size:
            with self._pool.connection() as conn:
                self._tree.grow_sync(conn, size)


def _records(conn: Connection[TupleRow], journal: str, first: int, last: int) -> list[dict[str, Any]]:
    """Records `first` to `last` of a journal as shipped (PIT.md §2)."""
    rows = conn.execute(
        "SELECT seq, wall, mono_ns, round_id, kind, body, hash FROM records"
        " WHERE journal = %s AND seq >= %s AND seq <= %s ORDER BY seq",
        (journal, first, last),
    ).fetchall()
    return [
        {"seq": seq, "wall": wall, "mono_ns": mono, "round_id": rid, "kind": kind, "body": body, "hash": digest}
        for seq, wall, mono, rid, kind, body, digest in rows
    ]

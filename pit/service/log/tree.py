"""The log's tree in memory, its perfect subtrees from the stored leaf hashes, read on from where it stands."""

from __future__ import annotations

import psycopg
from psycopg.rows import TupleRow

from pit.tlog.merkle import MemoryTree

READ = "SELECT hash FROM log_leaves WHERE idx >= %s AND idx < %s ORDER BY idx"


class LeafTree(MemoryTree):
    """A `MemoryTree` that grows to a size by reading the leaf hashes it lacks from the store."""

    async def grow(self, conn: psycopg.AsyncConnection[TupleRow], size: int) -> None:
        if size > self.size:
            for (hashed,) in await (await conn.execute(READ, (self.size, size))).fetchall():
                self.append(bytes(hashed))

    def grow_sync(self, conn: psycopg.Connection[TupleRow], size: int) -> None:
        if size > self.size:
            for (hashed,) in conn.execute(READ, (self.size, size)).fetchall():
                self.append(bytes(hashed))

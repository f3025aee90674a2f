"""Leaves appended to the log (PIT.md §9): in the transaction that stores the records closing rounds
(`append_closed`, ingest's one call), and, for records that waited SEGMENT_AFTER with no round closing,
a leaf without a round (`append_segments`, on the ingest lock's session). Each journal's last leafed
record is kept in `log_journals`, so every stored record lands in exactly one leaf, in journal order."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

import psycopg
from psycopg.rows import TupleRow

from pit.service.floor.round_facts import Fact, RoundClose
from pit.stream.wire import RecordMessage
from pit.tlog.leaf import ZERO_HASH, Leaf
from pit.tlog.merkle import leaf_hash

__all__ = ["append_closed"]

SEGMENT_AFTER = timedelta(minutes=10)  # records after a journal's last round wait this long for one to close


async def append_closed(
    conn: psycopg.AsyncConnection[TupleRow], told: Sequence[tuple[RecordMessage, list[Fact]]]
) -> int:
    """A leaf for each round these stored records close, inside the caller's transaction; returns how many."""
    closing = [(m, fact.round_id) for m, found in told for fact in found if isinstance(fact, RoundClose)]
    if not closing:
        return 0
    ends = {m.journal: m for m, _ in closing}
    places = await _leafed(conn, sorted(ends))
    leaves = []
    for message, round_id in closing:
        seq, prev = places.get(message.journal, (0, ZERO_HASH))
        leaves.append(
            Leaf(message.table_id, message.journal, round_id, seq + 1, message.seq, prev, message.hash, message.wall)
        )
        places[message.journal] = (message.seq, message.hash)
    await _append(conn, leaves)
    return len(leaves)


async def append_segments(conn: psycopg.AsyncConnection[TupleRow]) -> int:
    """A leaf without a round for each journal whose records past its last leaf have waited SEGMENT_AFTER
    with no round closing; inside the caller's transaction, on the ingest lock's session."""
    rows = await (
        await conn.execute(
            "SELECT j.journal, j.table_id, j.head_seq, j.head_hash, coalesce(l.leafed_seq, 0),"
            " coalesce(l.leafed_hash, %s), r.wall FROM journals j LEFT JOIN log_journals l USING (journal)"
            " JOIN records r ON r.journal = j.journal AND r.seq = j.head_seq"
            " WHERE j.head_seq > coalesce(l.leafed_seq, 0) AND j.last_record < now() - %s ORDER BY j.journal"
            " FOR UPDATE OF j",
            (ZERO_HASH, SEGMENT_AFTER),
        )
    ).fetchall()
    leaves = [
        Leaf(table_id, journal, None, int(leafed) + 1, int(head), prev, digest, wall)
        for journal, table_id, head, digest, leafed, prev, wall in rows
    ]
    await _append(conn, leaves)
    return len(leaves)


async def _leafed(conn: psycopg.AsyncConnection[TupleRow], journals: list[str]) -> dict[str, tuple[int, str]]:
    rows = await (
        await conn.execute(
            "SELECT journal, leafed_seq, leafed_hash FROM log_journals WHERE journal = ANY(%s)"
            " ORDER BY journal FOR UPDATE",
            (journals,),
        )
    ).fetchall()
    return {journal: (int(seq), digest) for journal, seq, digest in rows}


async def _append(conn: psycopg.AsyncConnection[TupleRow], leaves: list[Leaf]) -> None:
    """The leaves at the log's end, in order, and each journal's last leafed record moved on."""
    if not leaves:
        return
    texts = [leaf.text() for leaf in leaves]
    row = await (await conn.execute("SELECT coalesce(max(idx) + 1, 0) FROM log_leaves")).fetchone()
    start = int(row[0]) if row else 0
    await conn.execute(
        "INSERT INTO log_leaves (idx, journal, round_id, first_seq, last_seq, leaf, hash, table_id)"
        " SELECT * FROM unnest(%s::bigint[], %s::text[], %s::bigint[], %s::bigint[], %s::bigint[], %s::bytea[],"
        " %s::bytea[], %s::text[])",
        (
            list(range(start, start + len(leaves))),
            [leaf.journal for leaf in leaves],
            [leaf.round_id for leaf in leaves],
            [leaf.first_seq for leaf in leaves],
            [leaf.last_seq for leaf in leaves],
            texts,
            [leaf_hash(text) for text in texts],
            [leaf.table_id for leaf in leaves],
        ),
    )
    last = {leaf.journal: leaf for leaf in leaves}
    await conn.execute(
        "INSERT INTO log_journals (journal, leafed_seq, leafed_hash) SELECT * FROM unnest(%s::text[], %s::bigint[],"
        " %s::text[]) ON CONFLICT (journal) DO UPDATE SET leafed_seq = excluded.leafed_seq,"
        " leafed_hash = excluded.leafed_hash",
        (list(last), [leaf.last_seq for leaf in last.values()], [leaf.head_hash for leaf in last.values()]),
    )

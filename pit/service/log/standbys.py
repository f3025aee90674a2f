"""Whether every streaming standby has applied the log's leaves: the check before a checkpoint is signed.

A leaf is written in the transaction that stores its records, committed on the primary alone; a standby
promoted after missing that commit would lack it. So a checkpoint covers only leaves whose WAL every
standby streaming from the primary has replayed (`pg_stat_replication.replay_lsn`), and at least as many
standbys as this leadership has seen stream (one that dropped out may be promoted yet). Asked of the
primary, whatever its `synchronous_standby_names`; ingest's own commits never wait for it.
"""

from __future__ import annotations

import psycopg
from psycopg.rows import TupleRow


async def insert_lsn(conn: psycopg.AsyncConnection[TupleRow]) -> str:
    """The primary's WAL insert position now: past the commit of every leaf visible to this connection."""
    row = await (await conn.execute("SELECT pg_current_wal_insert_lsn()::text")).fetchone()
    return str(row[0]) if row else "0/0"


async def applied(conn: psycopg.AsyncConnection[TupleRow], target: str, seen: int) -> tuple[bool, int]:
    """Whether every standby streaming now (and no fewer than `seen`) has replayed WAL to `target`;
    and how many stream now, or `seen` if more."""
    row = await (
        await conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE replay_lsn >= %s::pg_lsn) FROM pg_stat_replication"
            " WHERE state = 'streaming'",
            (target,),
        )
    ).fetchone()
    streaming, caught_up = (int(row[0]), int(row[1])) if row else (0, 0)
    return caught_up == streaming and streaming >= seen, max(seen, streaming)

"""Whether every standby has applied the log's leaves: the check before a checkpoint is signed.

A leaf is written in the transaction that stores its records, committed on the primary alone; a standby
promoted after missing that commit would lack it. So a checkpoint covers only leaves whose WAL has
reached every standby the primary knows of: each one streaming now has replayed it
(`pg_stat_replication.replay_lsn`), each replication slot's standby has flushed it, connected or not
(`pg_replication_slots.restart_lsn`: a slot outlives its standby's link and this pit's leadership, so a
standby that dropped out before this pit took over still holds signing back), and no fewer stream than
this leadership has seen stream (a standby made without a slot may be promoted too). A standby removed
for good has its slot dropped, as PostgreSQL asks anyway, for a slot keeps the primary's WAL. Asked of the
primary, whatever its `synchronous_standby_names`; ingest's own commits never wait for it.
"""

from __future__ import annotations

from dataclasses import dataclass

import psycopg
from psycopg.rows import TupleRow


async def insert_lsn(conn: psycopg.AsyncConnection[TupleRow]) -> str:
    """The primary's WAL insert position now: past the commit of every leaf visible to this connection."""
    row = await (await conn.execute("SELECT pg_current_wal_insert_lsn()::text")).fetchone()
    return str(row[0]) if row else "0/0"


@dataclass(frozen=True)
class Standbys:
    """What the primary says of its standbys against a WAL position."""

    applied: bool  # every standby has the WAL: a checkpoint may be signed
    streaming: int  # standbys streaming now
    gone: tuple[tuple[str, str], ...]  # (slot, its restart_lsn) of each standby disconnected and lacking the WAL


async def applied(conn: psycopg.AsyncConnection[TupleRow], target: str, seen: int) -> Standbys:
    """Whether every standby streaming now (and no fewer than `seen`) has replayed WAL to `target`, and
    every physical replication slot's standby has flushed it."""
    row = await (
        await conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE replay_lsn >= %s::pg_lsn) FROM pg_stat_replication"
            " WHERE state = 'streaming'",
            (target,),
        )
    ).fetchone()
    streaming, caught_up = (int(row[0]), int(row[1])) if row else (0, 0)
    behind = await (
        await conn.execute(
            "SELECT slot_name, active, coalesce(restart_lsn::text, 'none') FROM pg_replication_slots"
            " WHERE slot_type = 'physical' AND (restart_lsn IS NULL OR restart_lsn < %s::pg_lsn) ORDER BY slot_name",
            (target,),
        )
    ).fetchall()
    return Standbys(
        applied=caught_up == streaming and streaming >= seen and not behind,
        streaming=streaming,
        gone=tuple((str(name), str(lsn)) for name, active, lsn in behind if not active),
    )

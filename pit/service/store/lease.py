"""Which pit service ingests: the one holding a PostgreSQL advisory lock (PIT.md §8).

The lock is a session lock, taken on the very connection ingest writes on, so the lock and the
writes live and die together: a pit whose connection broke has lost the lock and cannot write any
more, and the server frees the lock as soon as it sees the session gone. TCP keepalives and a user
timeout on both ends bound how long a lost machine or a broken link keeps it (a few seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from psycopg.rows import TupleRow

__all__ = ["Session", "pause"]

INGEST_LOCK = 0x5049_5401  # "PIT\1": the advisory lock of ingesting
TRY_EVERY_S = 1.0
# libpq's keepalives (the pit's end) and the server's (its end, set for this session only), so that a
# lost peer ends the session within about 5 s either way; a host that does not answer is given up after 3 s.
SESSION_OPTIONS: dict[str, Any] = {
    "connect_timeout": 3,
    "keepalives": 1,
    "keepalives_idle": 2,
    "keepalives_interval": 1,
    "keepalives_count": 3,
    "tcp_user_timeout": 5000,
    "options": "-c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 -c tcp_keepalives_count=3 -c"
    " tcp_user_timeout=5000",
}
log = logging.getLogger("pit.lease")


async def connect(dsn: str) -> psycopg.AsyncConnection[TupleRow]:
    """A session to the read-write server of `dsn` (libpq picks it among several hosts), with keepalives."""
    return await psycopg.AsyncConnection.connect(dsn, autocommit=True, **SESSION_OPTIONS)


async def acquire(dsn: str, stop: asyncio.Event) -> psycopg.AsyncConnection[TupleRow] | None:
    """Wait until this pit holds the ingest lock; returns the session holding it (None once `stop` is set)."""
    told = ""
    while not stop.is_set():
        conn: psycopg.AsyncConnection[TupleRow] | None = None
        try:
            conn = await connect(dsn)
            while not stop.is_set():
                row = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (INGEST_LOCK,))).fetchone()
                if row is not None and row[0]:
                    return conn
                if told != "held":
                    log.info("another pit service ingests; this one stands by")
                    told = "held"
                await pause(stop, TRY_EVERY_S)
        except psycopg.OperationalError as error:
            if told != str(error):
                log.warning("store unreachable (%s); standing by", str(error).strip())
                told = str(error)
            await pause(stop, TRY_EVERY_S)
        if conn is not None:
            await quietly_close(conn)
    return None


async def quietly_close(conn: psycopg.AsyncConnection[TupleRow]) -> None:
    """Close a session that may already be dead; what it fails with no longer matters."""
    try:
        await asyncio.wait_for(conn.close(), 2.0)
    except Exception:  # the session is being dropped either way
        pass


async def pause(stop: asyncio.Event, seconds: float) -> None:
    """Wait `seconds`, or less once `stop` is set."""
    try:
        await asyncio.wait_for(stop.wait(), seconds)
    except TimeoutError:
        pass


class Session:
    """The ingest lock's session: every write of ingest goes through it, one transaction at a time,
    so that nothing is written by a pit that has lost the lock."""

    def __init__(self, conn: psycopg.AsyncConnection[TupleRow]) -> None:
        self.conn = conn
        self.lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[psycopg.AsyncConnection[TupleRow]]:
        async with self.lock:
            async with self.conn.transaction():
                yield self.conn

"""The log's alerts (PIT.md §9): a round unpublished for more than UNPUBLISHED_AFTER, a witness's refusal
(with its status and body), a log whose leaves no longer rebuild a checkpoint it signed, signing held
back by a disconnected standby for more than STANDBY_GONE_AFTER. Raised once per cause, on the ingest
lock's session, like every alert of ingest."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import psycopg
from psycopg.rows import TupleRow

from pit.service.floor.alerts import AlertKind
from pit.service.store.changes import CHANNEL, alert_change
from pit.service.store.lease import Session

UNPUBLISHED_AFTER = timedelta(minutes=5)
STANDBY_GONE_AFTER = UNPUBLISHED_AFTER  # signing waiting this long for a disconnected standby is said
STANDBY_CAUSE = "log-standby"


async def raise_log_alert(
    session: Session, cause: str, table_id: str, text: str, journal: str | None = None, round_id: int | None = None
) -> None:
    kind = AlertKind.LOG_UNPUBLISHED if cause.startswith("log-unpublished:") else AlertKind.LOG_REFUSED
    async with session.transaction() as conn:
        await conn.execute(
            "WITH raised AS (INSERT INTO alerts (cause, kind, table_id, journal, round_id, seq, raised, text)"
            " VALUES (%s, %s, %s, %s, %s, NULL, %s, %s) ON CONFLICT (cause) DO NOTHING RETURNING table_id)"
            " SELECT pg_notify(%s, %s || table_id) FROM raised",
            (cause, kind.value, table_id, journal, round_id, datetime.now(UTC), text, CHANNEL, alert_change("")),
        )


async def clear_standby_alerts(session: Session) -> None:
    """Signing goes on again: every standby's alert marked cleared (it stays open for a person's
    acknowledgement, PIT.md §5)."""
    async with session.transaction() as conn:
        await conn.execute(
            "WITH cleared AS (INSERT INTO alerts_cleared (alert_id) SELECT id FROM alerts WHERE cause LIKE %s"
            " ON CONFLICT DO NOTHING RETURNING alert_id)"
            " SELECT pg_notify(%s, %s) WHERE EXISTS (SELECT 1 FROM cleared)",
            (f"{STANDBY_CAUSE}:%", CHANNEL, alert_change("")),
        )


def standby_cause(slot: str, stopped_at: str) -> str:
    """One outage of one standby: its slot and the WAL position it stopped at."""
    return f"{STANDBY_CAUSE}:{slot}:{stopped_at}"


async def unpublished_rounds(conn: psycopg.AsyncConnection[TupleRow]) -> list[tuple[str, str, str, int, str]]:
    """Rounds whose leaves no published checkpoint covers UNPUBLISHED_AFTER after they were appended:
    (cause, table id, journal, round id, text)."""
    rows = await (
        await conn.execute(
            "SELECT journal, table_id, round_id, idx FROM log_leaves WHERE round_id IS NOT NULL AND appended <"
            " now() - %s"
            " AND idx >= (SELECT coalesce(max(size), 0) FROM log_checkpoints WHERE published IS NOT NULL)"
            " ORDER BY idx LIMIT 100",
            (UNPUBLISHED_AFTER,),
        )
    ).fetchall()
    return [
        (
            f"log-unpublished:{journal}:{round_id}",
            table_id,
            journal,
            int(round_id),
            f"round {round_id} (log leaf {idx}) is not in a published checkpoint after "
            f"{int(UNPUBLISHED_AFTER.total_seconds() // 60)} minutes",
        )
        for journal, table_id, round_id, idx in rows
    ]

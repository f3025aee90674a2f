"""The store's news: every change is announced with NOTIFY on one channel, in the transaction that
makes it, as "table:<id>" or "alert:<id>" (the table the alert is of), so the dashboards of every pit
service hear of it once it is stored. Ingest and the commands announce; the dashboards listen."""

from __future__ import annotations

__all__ = ["CHANNEL", "alert_change", "table_change"]

CHANNEL = "pit_changes"
TABLE = "table"
ALERT = "alert"


def table_change(table_id: str) -> str:
    return f"{TABLE}:{table_id}"


def alert_change(table_id: str) -> str:
    return f"{ALERT}:{table_id}"

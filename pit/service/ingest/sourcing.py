"""A head office's copy of each room's stream: how far it is behind (records and seconds), from the
head office stream's `sources` (nats-server's own count of each source's lag, and how long since the
room's consumer was last heard); kept in the store by the ingesting pit, with an alert once a room is
more than 60 s behind, closed when it has caught up (PIT.md §8)."""
from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import psycopg
from nats.aio.client import Client

from pit.service.floor.alerts import AlertCause, AlertKind
from pit.service.ingest.writes import raise_alerts
from pit.service.store.changes import CHANNEL, alert_change, table_change
from pit.stream.wire import STREAM

QUIET_S = 3.0  # a source's consumer beats every second: quiet longer than this, its link is down
BEHIND_ALERT_S = 60.0
CLOSED_BY = "pit"


@dataclass(frozen=True, slots=True)
class RoomBehind:
    records: int  # the room's records not yet in the head office's stream (as of its last word)
    seconds: float  # how long the copy has been behind; 0 when caught up

    def as_json(self) -> dict[str, Any]:
        return {"behind": self.records, "behind_s": round(self.seconds, 1)}


class Sourcing:
    """Each room's sourcing as the head office's stream tells it, watched once a second."""

    def __init__(self, rooms: Sequence[str]) -> None:
        self.rooms = tuple(rooms)
        self._since: dict[str, float] = {}  # room -> when its copy fell behind (monotonic)
        self.behind: dict[str, RoomBehind] = {}

    async def look(self, nc: Client, timeout: float) -> dict[str, RoomBehind]:
        reply = await nc.request(f"$JS.API.STREAM.INFO.{STREAM}", b"", timeout=timeout)
        sources = json.loads(reply.data).get("sources") or []
        now = time.monotonic()
        seen: dict[str, RoomBehind] = {}
        for source in sources:
            room = _room_of_api(((source.get("external") or {}).get("api")) or "")
            if room not in self.rooms:
                continue
            quiet = max(0.0, int(source.get("active", -1)) / 1e9) if int(source.get("active", -1)) >= 0 else None
            lag = int(source.get("lag") or 0)
            if quiet is None or quiet > QUIET_S:
                since = now - (quiet if quiet is not None else 0.0)
                self._since[room] = min(self._since.get(room, since), since)
            elif lag == 0:
                self._since.pop(room, None)
            else:
                self._since.setdefault(room, now)
            seen[room] = RoomBehind(lag, now - self._since[room] if room in self._since else 0.0)
        for room in self.rooms:  # a room the stream has no source for yet: behind since we looked first
            if room not in seen:
                self._since.setdefault(room, now)
                seen[room] = RoomBehind(0, now - self._since[room])
        self.behind = seen
        return seen


def _room_of_api(api: str) -> str:
    parts = api.split(".")
    return parts[1] if len(parts) == 3 and parts[0] == "$JS" and parts[2] == "API" else ""


async def keep(conn: psycopg.AsyncConnection[Any], behind: dict[str, RoomBehind]) -> None:
    """Each room's sourcing into the store; a room behind more than a minute raises its alert, once;
    caught up, its open alert is closed (acknowledged by the pit, saying so)."""
    now = datetime.now(timezone.utc)
    for room, lag in sorted(behind.items()):
        before = await (await conn.execute("SELECT behind_records, behind_s > 0 FROM room_sourcing WHERE room = %s",
                                           (room,))).fetchone()
        await conn.execute(
            "INSERT INTO room_sourcing (room, behind_records, behind_s, checked) VALUES (%s, %s, %s, %s)"
            " ON CONFLICT (room) DO UPDATE SET behind_records = excluded.behind_records,"
            " behind_s = excluded.behind_s, checked = excluded.checked", (room, lag.records, lag.seconds, now))
        if before is None or (before[0] > 0 or before[1]) != (lag.records > 0 or lag.seconds > 0):
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table_change("")))
        if lag.seconds > BEHIND_ALERT_S:
            since = int(now.timestamp() - lag.seconds)
            cause = AlertCause(f"room_behind:{room}:{since}", AlertKind.ROOM_BEHIND, "", None, None, None, now,
                               f"room {room}: the head office's copy is {lag.seconds:.0f} s behind"
                               f" ({lag.records} records known not yet sourced)")
            if await raise_alerts(conn, [cause]):
                await conn.execute("UPDATE alerts SET room = %s WHERE cause = %s", (room, cause.cause))
        elif lag.records == 0 and lag.seconds == 0:
            closed = await conn.execute(
                "INSERT INTO acknowledgements (alert_id, by_user, note) SELECT a.id, %s, %s FROM alerts a"
                " WHERE a.kind = %s AND a.room = %s AND NOT EXISTS (SELECT 1 FROM acknowledgements k"
                " WHERE k.alert_id = a.id) RETURNING alert_id",
                (CLOSED_BY, f"room {room} caught up", AlertKind.ROOM_BEHIND.value, room))
            if await closed.fetchall():
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, alert_change("")))

"""A head office's copy of each room's stream: how far it is behind (records and seconds). Each second
the ingesting pit asks each room's stream how far it goes, through the room's JetStream domain over
its leaf link, and sets that against how far into it the head office has written; a room that does
not answer is behind from the first ask it left unanswered. (nats-server's own word on a source, its
`lag` and `active`, says nothing of a cut link: the lag is the last delivered message's, and `active`
starts again at each retry of the source's consumer.) Kept in the store, with an alert once a room is
more than 60 s behind, closed when it has caught up (PIT.md §8)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
from nats.aio.client import Client
from nats.errors import Error as NatsError
from psycopg.rows import TupleRow

from pit.service.floor.alerts import AlertKind
from pit.service.store.changes import CHANNEL, alert_change, table_change
from pit.stream.broker import room_reply_prefix, room_stream_info

SETTLE_S = 2.0  # a room's record its stream held this long ago and not yet written here: behind
BEHIND_ALERT_S = 60.0


@dataclass(frozen=True, slots=True)
class RoomBehind:
    records: int  # the room's records not yet written here (as of the room's last answer)
    seconds: float  # how long the copy has been behind; 0 when caught up

    def as_json(self) -> dict[str, Any]:
        return {"behind": self.records, "behind_s": round(self.seconds, 1)}


class Sourcing:
    """Each room's stream against the head office's copy, looked at once a second."""

    def __init__(self, rooms: Sequence[str]) -> None:
        self.rooms = tuple(rooms)
        self._last: dict[str, int] = {}  # room -> the last seq its stream told
        self._held: dict[str, list[tuple[float, int]]] = {room: [] for room in self.rooms}  # (when told, last seq)
        self._unanswered: dict[str, float] = {}  # room -> when the first ask it left unanswered was made

    async def look(self, nc: Client, timeout: float, taken: Mapping[str, int]) -> dict[str, RoomBehind]:
        """`taken`: room -> the last seq of its stream written here."""
        asked = time.monotonic()
        told = await asyncio.gather(*(_last_seq(nc, room, timeout) for room in self.rooms))
        now = time.monotonic()
        seen: dict[str, RoomBehind] = {}
        for room, last in zip(self.rooms, told, strict=False):
            written = taken.get(room, 0)
            if last is None:
                self._unanswered.setdefault(room, asked)
            else:
                self._unanswered.pop(room, None)
                self._last[room] = last
                if last > written and (not self._held[room] or self._held[room][-1][1] < last):
                    self._held[room].append((now, last))
            self._held[room] = [(when, seq) for when, seq in self._held[room] if seq > written]
            since = min([when for when, _ in self._held[room][:1]] + [self._unanswered.get(room, now)])
            behind = room in self._unanswered or now - since > SETTLE_S
            seen[room] = RoomBehind(max(0, self._last.get(room, 0) - written), now - since if behind else 0.0)
        return seen


async def _last_seq(nc: Client, room: str, timeout: float) -> int | None:
    """The last seq of the room's stream, or None when the room does not answer (its link is down)."""
    inbox = f"{room_reply_prefix(room)}.{nc.new_inbox().rsplit('.', 1)[-1]}"
    try:
        sub = await nc.subscribe(inbox, max_msgs=1)
        try:
            await nc.publish(room_stream_info(room), b"", reply=inbox)
            answer = await sub.next_msg(timeout)
        finally:
            await sub.unsubscribe()
        return int(json.loads(answer.data)["state"]["last_seq"])
    except (TimeoutError, NatsError, ValueError, KeyError, TypeError):
        return None


async def written(conn: psycopg.AsyncConnection[TupleRow]) -> dict[str, int]:
    """How far into each room's stream the head office had written, as the last ingesting pit kept it."""
    rows = await (await conn.execute("SELECT room, stored_seq FROM room_sourcing")).fetchall()
    return {str(room): int(seq) for room, seq in rows}


async def kept(conn: psycopg.AsyncConnection[TupleRow]) -> dict[str, RoomBehind]:
    """Each room's sourcing as the ingesting pit last kept it (what a standby pit tells)."""
    rows = await (await conn.execute("SELECT room, behind_records, behind_s FROM room_sourcing")).fetchall()
    return {str(room): RoomBehind(int(records), float(seconds)) for room, records, seconds in rows}


async def keep(
    conn: psycopg.AsyncConnection[TupleRow], behind: dict[str, RoomBehind], taken: Mapping[str, int]
) -> None:
    """Each room's sourcing into the store; a room behind more than a minute raises its alert, once;
    caught up, its alert is marked cleared, and stays open until a person acknowledges it (PIT.md §5)."""
    now = datetime.now(UTC)
    for room, lag in sorted(behind.items()):
        before = await (
            await conn.execute("SELECT behind_records, behind_since FROM room_sourcing WHERE room = %s", (room,))
        ).fetchone()
        # fixed when it fell behind: the alert's cause, once
        since = (
            (before[1] if before is not None and before[1] is not None else now - timedelta(seconds=lag.seconds))
            if lag.seconds > 0
            else None
        )
        await conn.execute(
            "INSERT INTO room_sourcing (room, behind_records, behind_s, checked, stored_seq, behind_since)"
            " VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (room) DO UPDATE SET behind_records ="
            " excluded.behind_records,"
            " behind_s = excluded.behind_s, checked = excluded.checked, behind_since = excluded.behind_since,"
            " stored_seq = greatest(room_sourcing.stored_seq, excluded.stored_seq)",
            (room, lag.records, lag.seconds, now, taken.get(room, 0), since),
        )
        was_behind = before is not None and before[1] is not None
        if before is None or was_behind != (since is not None) or (since is not None and before[0] != lag.records):
            await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, table_change("")))
        if since is not None and lag.seconds > BEHIND_ALERT_S:
            raised = await conn.execute(  # the room's alert, its room written with it (alerts stay as written)
                "INSERT INTO alerts (cause, kind, table_id, raised, text, room) VALUES (%s, %s, '', %s, %s, %s)"
                " ON CONFLICT (cause) DO NOTHING RETURNING id",
                (
                    f"room_behind:{room}:{since.timestamp():.0f}",
                    AlertKind.ROOM_BEHIND.value,
                    now,
                    f"room {room}: the head office's copy is {lag.seconds:.0f} s behind"
                    f" ({lag.records} records known not yet sourced)",
                    room,
                ),
            )
            if await raised.fetchall():
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, alert_change("")))
        elif lag.seconds == 0:
            closed = await conn.execute(
                "INSERT INTO alerts_cleared (alert_id) SELECT a.id FROM alerts a WHERE a.kind = %s AND a.room = %s"
                " ON CONFLICT DO NOTHING RETURNING alert_id",
                (AlertKind.ROOM_BEHIND.value, room),
            )
            if await closed.fetchall():
                await conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, alert_change("")))

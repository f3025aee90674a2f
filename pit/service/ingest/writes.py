"""Ingest's writes into the store: a judged batch of records in one transaction (new journals, the
records by COPY, the rounds and corrections they tell, the heads, the alerts and the news), the
messages refused as they are, and the derived tables rebuilt from the stored records alone.

Every change is announced on the store's changes channel in the same transaction, so the
dashboards of every pit service hear of it once it is stored.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import psycopg
from psycopg.rows import TupleRow

from dealer_assist.journal.journal_file import RecordKind
from pit.service.floor import alerts as rules
from pit.service.floor.alerts import AlertCause
from pit.service.floor.round_facts import Correction, Fact, Header, RoundClose, RoundOpen, facts
from pit.service.ingest import dealing_rows
from pit.service.ingest.batch import Known, Plan, plan
from pit.service.ingest.witness import Head, Verdict
from pit.service.log.append import append_closed
from pit.service.store.changes import CHANNEL, alert_change, table_change
from pit.stream.wire import RecordMessage, json_text

__all__ = ["rebuild"]

THRESHOLD = "SELECT value FROM settings WHERE name = 'payout_threshold'"


@dataclass(slots=True)
class Outcome:
    """What a batch did: a verdict per message, the records stored, the alerts raised now."""

    verdicts: list[Verdict | None] = field(default_factory=list)  # None: a refused message
    stored: int = 0
    raised: list[AlertCause] = field(default_factory=list)


async def payout_threshold(conn: psycopg.AsyncConnection[TupleRow]) -> Decimal:
    return _threshold(await (await conn.execute(THRESHOLD)).fetchone())


def _threshold(row: tuple[Any, ...] | None) -> Decimal:
    return Decimal(str(row[0])) if row is not None else rules.DEFAULT_PAYOUT_THRESHOLD


async def raise_alerts(conn: psycopg.AsyncConnection[TupleRow], causes: Sequence[AlertCause]) -> list[AlertCause]:
    """Insert each cause not yet raised, and announce it, in one statement; returns those raised now."""
    return await _raised(await _raising(conn, causes), causes)


async def _raising(
    conn: psycopg.AsyncConnection[TupleRow], causes: Sequence[AlertCause]
) -> psycopg.AsyncCursor[TupleRow] | None:
    """`raise_alerts`'s statement, sent (queued, in a pipeline); its answer is read by `_raised`."""
    if not causes:
        return None
    return await conn.execute(
        "WITH raised AS (INSERT INTO alerts (cause, kind, table_id, journal, round_id, seq, raised, text)"
        " SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::text[], %s::bigint[], %s::bigint[],"
        " %s::timestamptz[], %s::text[]) ON CONFLICT (cause) DO NOTHING RETURNING cause, table_id)"
        " SELECT cause, pg_notify(%s, %s || table_id) FROM raised",
        (
            [c.cause for c in causes],
            [c.kind.value for c in causes],
            [c.table_id for c in causes],
            [c.journal for c in causes],
            [c.round_id for c in causes],
            [c.seq for c in causes],
            [c.at for c in causes],
            [c.text for c in causes],
            CHANNEL,
            alert_change(""),
        ),
    )


async def _raised(cur: psycopg.AsyncCursor[TupleRow] | None, causes: Sequence[AlertCause]) -> list[AlertCause]:
    if cur is None:
        return []
    now = {row[0] for row in await cur.fetchall()}
    return [cause for cause in causes if cause.cause in now]


async def notify(conn: psycopg.AsyncConnection[TupleRow], payloads: set[str]) -> None:
    if payloads:
        await conn.execute(
            "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload", (CHANNEL, sorted(payloads))
        )


async def look_up(
    conn: psycopg.AsyncConnection[TupleRow], known: Known | None, messages: Sequence[RecordMessage | None]
) -> Known:
    """`known` with what it lacks of these messages' journals read from the store: their heads and
    dealing watches, in one round trip."""
    if known is None:
        known = Known()
    missing = known.lacks(messages)
    if missing:
        async with conn.pipeline():
            heads = await conn.execute(
                "SELECT journal, table_id, head_seq, head_hash, diverged_at FROM journals"
                " WHERE journal = ANY(%s) ORDER BY journal FOR UPDATE",
                (missing,),
            )
            watches = await conn.execute(dealing_rows.WATCHES, (missing,))
        for journal, table_id, seq, digest, diverged_at in await heads.fetchall():
            known.heads[journal] = Head(table_id, seq, digest, diverged_at)
        known.watches.update(dealing_rows.restored(await watches.fetchall()))
        known.looked_up.update(missing)
    return known


async def write_records(
    conn: psycopg.AsyncConnection[TupleRow],
    messages: Sequence[RecordMessage | None],
    stream_seq: Callable[[int], int] | None = None,
    rooms: Mapping[str, str] | None = None,
) -> Outcome:
    """Judge and store one batch inside the caller's transaction (None: a refused message, skipped), on
    what the store holds now. `stream_seq(i)` is message i's place in this pit's stream (each journal's
    head keeps its own, for reading again from there); `rooms` names a new journal's room at a head
    office."""
    known = await look_up(conn, None, messages)
    held = await stored_copies(conn, known.witnessed(messages), known.heads)
    return await write_plan(conn, plan(known, messages, held, stream_seq), rooms or {})


async def write_plan(
    conn: psycopg.AsyncConnection[TupleRow],
    planned: Plan,
    rooms: Mapping[str, str],
    refused: Sequence[tuple[str, str, bytes]] = (),
    begin: bool = False,
) -> Outcome:
    """A judged batch into the store in three round trips: the new journals with the payout threshold set
    now; the records by COPY; what they tell, the heads, the alerts, the news and the messages refused
    as they are. Inside the caller's transaction, or with `begin` in one of its own, begun in the first
    round trip and committed in the last (`rolled_back` ends it when anything fails)."""
    async with conn.pipeline():
        if begin:
            await conn.execute("BEGIN")
        await _new_journals(conn, planned.told, rooms)
        asked = await conn.execute(THRESHOLD)
    await _copy_records(conn, planned.told)
    await append_closed(conn, planned.told)  # the log's leaves, stored with the records they cover (PIT.md §9)
    threshold = _threshold(await asked.fetchone())
    causes = [cause for message in planned.stored for cause in rules.record_alerts(message, threshold)]
    async with conn.pipeline():
        closed = await write_derived(conn, planned.told)
        await dealing_rows.write(conn, planned.dealing, sorted({m.journal for m in planned.stored}))
        await _move_heads(conn, planned.moving, planned.heads, closed, planned.places)
        raising = await _raising(conn, causes + planned.causes)
        await notify(conn, {table_change(m.table_id) for m in planned.stored})
        await keep_refused(conn, refused)
        if begin:
            await conn.execute("COMMIT")
    return Outcome(planned.verdicts, len(planned.stored), await _raised(raising, causes + planned.causes))


async def rolled_back(conn: psycopg.AsyncConnection[TupleRow]) -> None:
    """End a transaction `write_plan` began, after it failed (nothing to do when the session is gone)."""
    with contextlib.suppress(psycopg.Error):
        await conn.execute("ROLLBACK")


async def stored_copies(
    conn: psycopg.AsyncConnection[TupleRow], messages: Sequence[RecordMessage], heads: Mapping[str, Head]
) -> dict[tuple[str, int], RecordMessage]:
    if not messages:
        return {}
    cur = await conn.execute(
        "SELECT r.journal, r.seq, r.wall, r.mono_ns, r.round_id, r.kind, r.body, r.hash FROM records r"
        " JOIN unnest(%s::text[], %s::bigint[]) AS wanted(journal, seq) USING (journal, seq)",
        ([m.journal for m in messages], [m.seq for m in messages]),
    )
    return {
        (journal, seq): RecordMessage(
            heads[journal].table_id, journal, seq, wall, mono_ns, round_id, RecordKind(kind), body, digest
        )
        for journal, seq, wall, mono_ns, round_id, kind, body, digest in await cur.fetchall()
    }


async def _new_journals(
    conn: psycopg.AsyncConnection[TupleRow], told: Sequence[tuple[RecordMessage, list[Fact]]], rooms: Mapping[str, str]
) -> None:
    """A journal's row, from its header record, before any of its records."""
    new = [
        (
            message.journal,
            message.table_id,
            json_text(fact.body),
            fact.profile_id,
            fact.profile_hash,
            fact.software,
            message.hash,
            rooms.get(message.journal),
        )
        for message, found in told
        for fact in found
        if isinstance(fact, Header)
    ]
    if new:
        async with conn.cursor() as cur:
            await cur.executemany(
                "INSERT INTO journals (journal, table_id, header, profile_id, profile_hash, software, head_seq,"
                " head_hash, room) VALUES (%s, %s, %s, %s, %s, %s, 0, %s, %s)",
                new,
            )


async def _copy_records(
    conn: psycopg.AsyncConnection[TupleRow], told: Sequence[tuple[RecordMessage, list[Fact]]]
) -> None:
    async with conn.cursor().copy(
        "COPY records (journal, seq, wall, mono_ns, round_id, kind, body, hash) FROM STDIN"
    ) as copy:
        for m, _ in told:
            await copy.write_row((m.journal, m.seq, m.wall, m.mono_ns, m.round_id, m.kind.value, m.body, m.hash))


async def keep_refused(conn: psycopg.AsyncConnection[TupleRow], refused: Sequence[tuple[str, str, bytes]]) -> None:
    """Messages that are not what PIT.md §2 describes, each with why: kept as evidence, never stored."""
    for subject, why, data in refused:
        await conn.execute(
            "INSERT INTO refused_messages (subject, error, data) VALUES (%s, %s, %s)", (subject, why, data)
        )


async def _move_heads(
    conn: psycopg.AsyncConnection[TupleRow],
    moving: list[str],
    heads: Mapping[str, Head],
    closed: dict[str, int],
    places: dict[str, int],
) -> None:
    """A head's stream position never passes the first record of a gap's waiting ones (`journal_gaps`)."""
    if moving:
        await conn.execute(
            "UPDATE journals j SET head_seq = u.seq, head_hash = u.hash, diverged_at = u.diverged_at,"
            " rounds_closed = j.rounds_closed + u.closed,"
            " head_stream_seq = CASE WHEN u.place IS NULL THEN j.head_stream_seq ELSE LEAST(u.place,"
            "  (SELECT g.held_from - 1 FROM journal_gaps g WHERE g.journal = j.journal)) END,"
            " last_record = CASE WHEN j.head_seq <> u.seq THEN now() ELSE j.last_record END"
            " FROM unnest(%s::text[], %s::bigint[], %s::text[], %s::bigint[], %s::int[], %s::bigint[])"
            " AS u(journal, seq, hash, diverged_at, closed, place) WHERE j.journal = u.journal",
            (
                moving,
                [heads[j].seq for j in moving],
                [heads[j].hash for j in moving],
                [heads[j].diverged_at for j in moving],
                [closed.get(j, 0) for j in moving],
                [places.get(j) for j in moving],
            ),
        )


async def write_derived(
    conn: psycopg.AsyncConnection[TupleRow], told: Sequence[tuple[RecordMessage, list[Fact]]]
) -> dict[str, int]:
    """Rounds and corrections from stored records' facts, each kind in one pipelined statement (the
    rounds opened before those closed); returns the rounds closed per journal."""
    closed: dict[str, int] = {}
    opened: list[tuple[Any, ...]] = []
    closing: list[tuple[Any, ...]] = []
    corrected: list[tuple[Any, ...]] = []
    for message, found in told:
        for fact in found:
            if isinstance(fact, RoundOpen):
                opened.append((message.journal, fact.round_id, message.table_id, fact.wall))
            elif isinstance(fact, RoundClose):
                closed[message.journal] = closed.get(message.journal, 0) + 1
                closing.append(
                    (
                        message.journal,
                        fact.round_id,
                        message.table_id,
                        fact.wall,
                        fact.wall,
                        rules.wall_time(fact.wall),
                        fact.seq,
                        fact.voided,
                        fact.player_dealer_net,
                        fact.fees_players,
                        fact.fees_player_dealer,
                        json_text(fact.ledger) if fact.ledger is not None else None,
                        list(fact.dealers),
                    )
                )
            elif isinstance(fact, Correction):
                corrected.append(
                    (
                        message.journal,
                        message.seq,
                        fact.position,
                        message.table_id,
                        fact.round_id,
                        rules.wall_time(fact.wall),
                        fact.type,
                        fact.supervisor,
                        fact.reason,
                    )
                )
    async with conn.cursor() as cur:
        if opened:
            await cur.executemany(
                "INSERT INTO rounds (journal, round_id, table_id, opened) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT DO NOTHING",
                opened,
            )
        if closing:
            await cur.executemany(
                "INSERT INTO rounds (journal, round_id, table_id, opened, closed, closed_at, close_seq, voided,"
                " player_dealer_net, fees_players, fees_player_dealer, ledger, dealers)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (journal, round_id) DO UPDATE"
                " SET closed = excluded.closed, closed_at = excluded.closed_at, close_seq = excluded.close_seq,"
                " voided = excluded.voided, player_dealer_net = excluded.player_dealer_net,"
                " fees_players = excluded.fees_players, fees_player_dealer = excluded.fees_player_dealer,"
                " ledger = excluded.ledger, dealers = excluded.dealers",
                closing,
            )
        if corrected:
            await cur.executemany(
                "INSERT INTO corrections (journal, seq, position, table_id, round_id, at, type, supervisor, reason)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                corrected,
            )
    return closed


async def rebuild(conn: psycopg.AsyncConnection[TupleRow], chunk: int = 5000) -> int:
    """The derived tables again from the stored records alone (rounds, corrections, rounds closed, who
    dealt and what the wager reader found), and any alert the records raise that is missing; inside
    the caller's transaction. Returns the records read. Alerts already raised stay as they are, with
    their acknowledgements."""
    await conn.execute("DELETE FROM corrections")
    await conn.execute("DELETE FROM rounds")
    await dealing_rows.forget(conn)
    threshold = await payout_threshold(conn)
    journals = await (await conn.execute("SELECT journal, table_id FROM journals ORDER BY journal")).fetchall()
    read = 0
    for journal, table_id in journals:
        closed, since = 0, 0
        while True:
            rows = await (
                await conn.execute(
                    "SELECT seq, wall, mono_ns, round_id, kind, body, hash FROM records WHERE journal = %s AND seq > %s"
                    " ORDER BY seq LIMIT %s",
                    (journal, since, chunk),
                )
            ).fetchall()
            if not rows:
                break
            found = [
                RecordMessage(table_id, journal, seq, wall, mono_ns, round_id, RecordKind(kind), body, digest)
                for seq, wall, mono_ns, round_id, kind, body, digest in rows
            ]
            closed += sum((await write_derived(conn, [(m, facts(m)) for m in found])).values())
            await raise_alerts(
                conn,
                [cause for m in found for cause in rules.record_alerts(m, threshold)]
                + await dealing_rows.follow(conn, found),
            )
            since, read = found[-1].seq, read + len(found)
        await conn.execute("UPDATE journals SET rounds_closed = %s WHERE journal = %s", (closed, journal))
    return read

"""The store's side of `dealing`: each journal's watch read before a batch of stored records and kept
after it, with the stints and tallies the batch changed, inside the caller's transaction."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from psycopg.rows import TupleRow

from pit.service.floor.alerts import AlertCause
from pit.service.floor.dealing import Dealing, Watch
from pit.stream.wire import RecordMessage

DERIVED = ("dealer_rounds", "dealer_stints", "journal_watch")
WATCHES = "SELECT journal, state FROM journal_watch WHERE journal = ANY(%s)"


def restored(rows: Iterable[tuple[str, Any]]) -> dict[str, Watch]:
    """Each journal's watch from its rows of `WATCHES`."""
    return {journal: Watch.restored(state) for journal, state in rows}


async def follow(conn: psycopg.AsyncConnection[TupleRow], stored: Sequence[RecordMessage]) -> list[AlertCause]:
    """The records just stored, in journal order, taken from where each journal's watch stood;
    returns the alerts they raise (the store raises each cause once)."""
    journals = sorted({message.journal for message in stored})
    if not journals:
        return []
    dealing = Dealing(restored(await (await conn.execute(WATCHES, (journals,))).fetchall()))
    for message in stored:
        dealing.take(message)
    async with conn.pipeline():  # the three statements in one round trip
        await write(conn, dealing, journals)
    return dealing.alerts


async def write(conn: psycopg.AsyncConnection[TupleRow], dealing: Dealing, journals: Sequence[str]) -> None:
    """The stints and tallies `dealing` changed, and the watches of `journals` as they stand after it."""
    if not journals:
        return
    stints, tallies = list(dealing.stints.values()), list(dealing.tallies.items())
    if stints:
        await conn.execute(
            "INSERT INTO dealer_stints (journal, seq, table_id, dealer, began, ended) SELECT * FROM unnest(%s::text[],"
            " %s::bigint[], %s::text[], %s::text[], %s::timestamptz[], %s::timestamptz[])"
            " ON CONFLICT (journal, seq) DO UPDATE SET ended = excluded.ended",
            (
                [s.journal for s in stints],
                [s.seq for s in stints],
                [s.table_id for s in stints],
                [s.dealer for s in stints],
                [s.began for s in stints],
                [s.ended for s in stints],
            ),
        )
    if tallies:
        await conn.execute(
            "INSERT INTO dealer_rounds (journal, round_id, dealer, taps, late_changes, mispays, rounds) SELECT * FROM"
            " unnest(%s::text[], %s::bigint[], %s::text[], %s::int[], %s::int[], %s::int[], %s::int[])"
            " ON CONFLICT (journal, round_id, dealer) DO UPDATE SET taps = dealer_rounds.taps + excluded.taps,"
            " late_changes = dealer_rounds.late_changes + excluded.late_changes,"
            " mispays = dealer_rounds.mispays + excluded.mispays, rounds = dealer_rounds.rounds + excluded.rounds",
            (
                [key[0] for key, _ in tallies],
                [key[1] for key, _ in tallies],
                [key[2] for key, _ in tallies],
                [t.taps for _, t in tallies],
                [t.late_changes for _, t in tallies],
                [t.mispays for _, t in tallies],
                [t.rounds for _, t in tallies],
            ),
        )
    await conn.execute(
        "INSERT INTO journal_watch (journal, state) SELECT * FROM unnest(%s::text[], %s::jsonb[])"
        " ON CONFLICT (journal) DO UPDATE SET state = excluded.state",
        (list(journals), [json.dumps(dealing.watches[journal].state()) for journal in journals]),
    )


async def forget(conn: psycopg.AsyncConnection[TupleRow]) -> None:
    """Everything `follow` derived, before a rebuild walks every journal again from its first record."""
    for table in DERIVED:
        await conn.execute(f"DELETE FROM {table}")

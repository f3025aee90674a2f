"""The pit's store on PostgreSQL: `pit.service.floor.data.PitData` for the dashboard and the API, and what the
`pit` commands change (users, tokens, tables, the pit's broker identity).

Every answer is in the JSON shape of PIT.md §6, amounts in currency units. Recall and the round
file come from the table's own recall code over the stored records (`pit_records`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator
from datetime import datetime
from decimal import Decimal
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from dealer_assist.errors import Failure
from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.errors import JournalCode
from pit.errors import BadValue, PitCode, PitError
from pit.service.floor.alerts import SILENT_AFTER_S
from pit.service.floor.data import (
    AlertRow,
    Change,
    Conflict,
    DealerReport,
    NotAllowed,
    NotFound,
    RoundRow,
    ShiftReport,
    TableTile,
    User,
    Witnessed,
)
from pit.service.floor.dealing import DealerSums, Tally, dealer_report
from pit.service.store.accounts_store import StoreAccounts
from pit.service.store.changes import CHANNEL, alert_change
from pit.service.store.lease import SESSION_OPTIONS
from pit.service.store.migrate import Migration, migrate, not_applied
from pit.service.store.pit_records import PitRecords
from pit.service.store.store_base import units

__all__ = ["DB_ENV", "PitStore", "units"]

LARGEST_PAYOUTS = 10

DB_ENV = "DA_PIT_DB"  # where the pit commands find the store's DSN when no --db or --db-file is given


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


# a row of a room's journals (any room's when the room is null: a room's own pit, or no room named)
IN_ROOM = "(%s::text IS NULL OR journal IN (SELECT j.journal FROM journals j WHERE j.room = %s))"
# an alert's room at a head office: a room's own (room_behind), else its journal's
A_ROOM = "coalesce(a.room, (SELECT j.room FROM journals j WHERE j.journal = a.journal))"


class PitStore(StoreAccounts):
    """`PitData` on PostgreSQL. `set_up` migrates the store first (`pit init`, `pit serve`'s start);
    `open`, for everything else, takes it as it is and refuses one this release has not set up."""

    @classmethod
    def set_up(cls, dsn: str, max_size: int = 4) -> PitStore:
        with psycopg.connect(dsn) as conn:
            applied = migrate(conn)
        return cls._pool(dsn, max_size, applied)

    @classmethod
    def open(cls, dsn: str, max_size: int = 4) -> PitStore:
        with psycopg.connect(dsn) as conn:
            missing = not_applied(conn)
        if missing:
            raise PitError(
                PitCode.STORE_NOT_SET_UP,
                f"the store lacks migration {missing[0].version:03d}_{missing[0].name}"
                f"{f' and {len(missing) - 1} more' if len(missing) > 1 else ''}: run dealer-assist pit init",
                1,
            )
        return cls._pool(dsn, max_size, [])

    @classmethod
    def _pool(cls, dsn: str, max_size: int, applied: list[Migration]) -> PitStore:
        pool: ConnectionPool[Any] = ConnectionPool(
            dsn,
            min_size=1,
            max_size=max_size,
            open=True,
            timeout=5.0,
            check=ConnectionPool.check_connection,
            kwargs=SESSION_OPTIONS,
        )
        return cls(dsn, pool, applied)

    # --- the floor ------------------------------------------------------------------------------

    def tables(self) -> list[TableTile]:
        return [tile for tile, _ in self._tables(None)]

    def _tables(self, table_id: str | None, room: str | None = None) -> list[tuple[TableTile, str | None]]:
        rows = self._all(
            "WITH ids AS (SELECT table_id, NULL::text AS room FROM table_identities"
            "             UNION SELECT table_id, room FROM journals UNION SELECT table_id, NULL FROM table_status),"
            " latest AS (SELECT DISTINCT ON (table_id, room) table_id, journal, profile_id, room FROM journals"
            "            ORDER BY table_id, room, first_seen DESC),"
            " mine AS (SELECT ids.table_id, ids.room, j.journal FROM ids JOIN journals j"
            "          ON j.table_id = ids.table_id AND j.room IS NOT DISTINCT FROM ids.room)"
            " SELECT ids.table_id, latest.journal, latest.profile_id, s.status, s.received,"
            "  extract(epoch FROM now() - s.received),"
            "  (SELECT count(*) FROM rounds r WHERE r.table_id = ids.table_id AND r.closed_at > now() -"
            " interval '1 hour'"
            "     AND (ids.room IS NULL OR r.journal IN (SELECT m.journal FROM mine m WHERE m.table_id = ids.table_id"
            "          AND m.room = ids.room))),"
            "  (SELECT count(*) FROM alerts a WHERE a.table_id = ids.table_id"
            "     AND (ids.room IS NULL OR a.journal IN (SELECT m.journal FROM mine m WHERE m.table_id = ids.table_id"
            "          AND m.room = ids.room))"
            "     AND NOT EXISTS (SELECT 1 FROM acknowledgements k WHERE k.alert_id = a.id)),"
            "  (SELECT max(round_id) FROM rounds r WHERE r.journal = latest.journal), ids.room,"
            "  (SELECT min(g.missing_from) FROM journal_gaps g JOIN journals gj USING (journal)"
            "     WHERE g.journal = coalesce(s.journal, latest.journal) AND g.missing_from > gj.head_seq),"
            "  rs.behind_records, rs.behind_s, extract(epoch FROM now() - rs.checked)"
            " FROM ids LEFT JOIN latest ON latest.table_id = ids.table_id AND latest.room IS NOT DISTINCT FROM ids.room"
            " LEFT JOIN table_status s ON s.table_id = ids.table_id AND ids.room IS NULL"
            " LEFT JOIN room_sourcing rs ON rs.room = ids.room"
            " WHERE (%s::text IS NULL OR ids.table_id = %s) AND (%s::text IS NULL OR ids.room = %s)"
            " ORDER BY ids.table_id, ids.room",
            (table_id, table_id, room, room),
        )
        return [self._tile(*row) for row in rows]

    @staticmethod
    def _tile(
        table_id: str,
        journal: str | None,
        profile_id: str | None,
        status: dict[str, Any] | None,
        received: datetime | None,
        age: Decimal | None,
        per_hour: int,
        open_alerts: int,
        last_round: int | None,
        room: str | None,
        missing: int | None,
        room_behind: int | None,
        room_behind_s: float | None,
        room_checked_age: Decimal | None,
    ) -> tuple[TableTile, str | None]:
        """The floor's tile of a table (PIT.md §6, and its room at a head office), and the journal it is
        dealing on. At a head office the link is its copy of the room's stream: behind, never live,
        until it has caught up (and the ingesting pit has looked within the last seconds)."""
        status = status or {}
        behind = int(status.get("to_ship", 0))
        silent = age is None or float(age) > SILENT_AFTER_S
        lagging = behind > 0
        if room is not None:
            behind, silent = int(room_behind or 0), False
            fresh = room_checked_age is not None and float(room_checked_age) < SILENT_AFTER_S
            lagging = bool(room_behind_s) or not fresh  # records in flight a moment are not behind
        player_dealer = status.get("player_dealer")
        return {
            "table_id": table_id,
            "room": room,
            "profile": status.get("profile") or profile_id,
            "round_id": status.get("round_id", last_round),
            "phase": status.get("phase"),
            "player_dealer": {
                "seat": player_dealer.get("seat"),
                "bank": player_dealer.get("bank"),
                "turn": player_dealer.get("turn"),
            }
            if player_dealer
            else None,
            "rounds_per_hour": int(per_hour),
            "link": "silent" if silent else "behind" if lagging else "live",
            "behind": behind,
            "refused": status.get("cannot_store") is not None,
            "missing": int(missing) if missing is not None else None,
            "devices": status.get("devices", {}),
            "open_alerts": int(open_alerts),
            "last_seen": _iso(received),
        }, status.get("journal") or journal

    def _tile_of(self, table_id: str, room: str | None = None) -> tuple[TableTile, str | None]:
        """A table where rooms meet is (room, id): an id that two rooms use needs its room named."""
        found = self._tables(table_id, room)
        if not found:
            raise NotFound(f"no table {table_id!r}" + (f" in room {room!r}" if room else ""))
        if len(found) > 1:
            rooms = ", ".join(str(tile["room"]) for tile, _ in found)
            raise Conflict(f"table {table_id!r} is in rooms {rooms}: name its room (room=)")
        return found[0]

    def table_live(self, table_id: str, room: str | None = None) -> dict[str, Any]:
        tile, journal = self._tile_of(table_id, room)
        row = self._one("SELECT journal FROM journals WHERE journal = %s", (journal,)) if journal else None
        current = None
        if row is not None:
            source = PitRecords(self.pool, table_id, row[0])
            last = source.last_round_id()
            if last is not None:
                current = recall(source, round_id=last)[0]
        return {"table_id": table_id, "room": tile["room"], "status": tile, "round": current}

    # --- rounds ---------------------------------------------------------------------------------

    def rounds(self, table_id: str, last: int, room: str | None = None) -> list[RoundRow]:
        room = self._tile_of(table_id, room)[0]["room"]
        rows = self._all(
            "SELECT round_id, journal, opened, closed, player_dealer_net, fees_players, fees_player_dealer"
            f" FROM rounds WHERE table_id = %s AND {IN_ROOM} AND closed IS NOT NULL"
            " ORDER BY closed_at DESC, close_seq DESC LIMIT %s",
            (table_id, room, room, max(0, last)),
        )
        return [
            {
                "round_id": round_id,
                "journal": journal,
                "opened": opened,
                "closed": closed,
                "player_dealer_net": units(net),
                "fees": {"players": units(players), "player_dealer": units(pd)},
            }
            for round_id, journal, opened, closed, net, players, pd in rows
        ]

    def _round_source(self, table_id: str, round_id: int, room: str | None = None) -> PitRecords:
        room = self._tile_of(table_id, room)[0]["room"]
        row = self._one(
            f"SELECT journal FROM rounds WHERE table_id = %s AND {IN_ROOM} AND round_id = %s"
            " ORDER BY opened DESC LIMIT 1",
            (table_id, room, room, round_id),
        )
        if row is None:
            raise NotFound(f"table {table_id!r} has no round {round_id}")
        return PitRecords(self.pool, table_id, row[0])

    def round(self, table_id: str, round_id: int, room: str | None = None) -> dict[str, Any]:
        source = self._round_source(table_id, round_id, room)
        entry = recall(source, round_id=round_id)[0]
        entry["table_id"], entry["journal"] = table_id, source.journal
        entry["steps"] = steps(entry)
        return entry

    def round_file(self, table_id: str, round_id: int, room: str | None = None) -> dict[str, Any]:
        source = self._round_source(table_id, round_id, room)
        try:
            exported = export_round(source, round_id)
        except Failure as error:
            if error.code is JournalCode.ROUND_VOIDED:
                raise Conflict(error.message) from None
            raise NotFound(f"table {table_id!r}: {error.message}") from None
        exported.setdefault("meta", {})["journal"] = source.journal
        return exported

    # --- the witness ----------------------------------------------------------------------------

    def witness(self, journal: str) -> Witnessed:
        # A gap whose first missing record is stored is filled, though ingest has yet to forget it.
        row = self._one(
            "SELECT j.table_id, j.head_seq, j.head_hash, g.missing_from, g.held FROM journals j"
            " LEFT JOIN journal_gaps g ON g.journal = j.journal AND g.missing_from > j.head_seq"
            " WHERE j.journal = %s",
            (journal,),
        )
        if row is None:
            raise NotFound(f"the pit has witnessed no journal {journal!r}")
        table_id, seq, digest, missing_from, held = row
        return {
            "table_id": table_id,
            "journal": journal,
            "records": int(seq),
            "head": digest,
            "missing": {"from": int(missing_from), "held": int(held)} if missing_from is not None else None,
        }

    def witnessed_hashes(self, journal: str, since: int = 0) -> list[tuple[int, str]]:
        self.witness(journal)
        return [
            (int(seq), digest)
            for seq, digest in self._all(
                "SELECT seq, hash FROM records WHERE journal = %s AND seq > %s ORDER BY seq", (journal, since)
            )
        ]

    # --- alerts ---------------------------------------------------------------------------------

    def alerts(self, state: str | None = None, table_id: str | None = None, room: str | None = None) -> list[AlertRow]:
        if state not in (None, "open", "acked"):
            raise BadValue(f"state {state!r}: use open or acked")
        rows = self._all(
            "SELECT a.id, a.table_id, a.kind, a.round_id, a.seq, a.raised, a.text, k.by_user, k.at, k.note,"
            f" c.at, {A_ROOM}"
            " FROM alerts a LEFT JOIN acknowledgements k ON k.alert_id = a.id"
            " LEFT JOIN alerts_cleared c ON c.alert_id = a.id"
            " WHERE (%s::text IS NULL OR a.table_id = %s)"
            f" AND (%s::text IS NULL OR {A_ROOM} = %s)"
            " AND (%s::text IS NULL OR (%s = 'open') = (k.alert_id IS NULL)) ORDER BY a.id DESC",
            (table_id, table_id, room, room, state, state),
        )
        return [_alert(*row) for row in rows]

    def acknowledge(self, alert_id: int, user: User, note: str) -> AlertRow:
        if not user.may_acknowledge:
            raise NotAllowed(f"{user.name} is {user.role.value}: only a supervisor or a manager acknowledges")
        if not note.strip():
            raise BadValue("note: an acknowledgement needs a note")
        with self.pool.connection() as conn:
            with conn.transaction():
                row = conn.execute("SELECT table_id FROM alerts WHERE id = %s", (alert_id,)).fetchone()
                if row is None:
                    raise NotFound(f"no alert {alert_id}")
                done = conn.execute(
                    "INSERT INTO acknowledgements (alert_id, by_user, note) VALUES (%s, %s, %s)"
                    " ON CONFLICT DO NOTHING RETURNING alert_id",
                    (alert_id, user.name, note.strip()),
                )
                if done.fetchone() is None:
                    raise Conflict(f"alert {alert_id} is already acknowledged")
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, alert_change(row[0])))
            found = conn.execute(
                "SELECT a.id, a.table_id, a.kind, a.round_id, a.seq, a.raised, a.text, k.by_user, k.at,"
                f" k.note, c.at, {A_ROOM}"
                " FROM alerts a JOIN acknowledgements k ON k.alert_id = a.id LEFT JOIN alerts_cleared c"
                " ON c.alert_id = a.id WHERE a.id = %s",
                (alert_id,),
            ).fetchone()
        assert found is not None
        return _alert(*found)

    # --- reports --------------------------------------------------------------------------------

    def shift_report(
        self, table_id: str | None, start: datetime, end: datetime, room: str | None = None
    ) -> ShiftReport:
        if table_id is not None:
            room = self._tile_of(table_id, room)[0]["room"]
        where = f"closed_at >= %s AND closed_at < %s AND (%s::text IS NULL OR table_id = %s) AND {IN_ROOM}"
        args = (start, end, table_id, table_id, room, room)
        totals = self._one(
            f"SELECT count(*), sum(fees_players), sum(fees_player_dealer), sum(player_dealer_net)"
            f" FROM rounds WHERE {where}",
            args,
        )
        assert totals is not None
        payouts = self._all(
            "SELECT table_id, round_id, closed, line->>'seat', line->>'wager', line->>'result',"
            " (line->>'amount')::numeric"
            f" FROM rounds, jsonb_array_elements(coalesce(ledger->'settlements', '[]')) AS line"
            f" WHERE {where} AND (line->>'amount')::numeric > 0"
            f" ORDER BY (line->>'amount')::numeric DESC, closed_at LIMIT {LARGEST_PAYOUTS}",
            args,
        )
        corrections = self._all(
            "SELECT table_id, round_id, at, type, supervisor, reason FROM corrections"
            f" WHERE at >= %s AND at < %s AND (%s::text IS NULL OR table_id = %s) AND {IN_ROOM}"
            " ORDER BY at, seq, position",
            args,
        )
        return {
            "rounds": int(totals[0]),
            "fees": {"players": units(totals[1]), "player_dealer": units(totals[2])},
            "player_dealer_net": units(totals[3]),
            "largest_payouts": [
                {
                    "table_id": t,
                    "round_id": r,
                    "closed": closed,
                    "seat": int(seat),
                    "wager": wager,
                    "result": result,
                    "amount": units(amount),
                }
                for t, r, closed, seat, wager, result, amount in payouts
            ],
            "corrections": [
                {"table_id": t, "round_id": r, "at": _iso(at), "type": kind, "supervisor": supervisor, "reason": reason}
                for t, r, at, kind, supervisor, reason in corrections
            ],
        }

    def dealer_report(self, start: datetime, end: datetime) -> DealerReport:
        """Rounds closed in the range, each for the dealer signed in at its first card (`ROUNDS_COUNTED`);
        taps, late changes and mispays in those rounds by who was signed in; time at the tables from the
        stints, cut to the range."""
        sums: defaultdict[str, DealerSums] = defaultdict(DealerSums)
        for dealer, taps, late, mispays, rounds, tables in self._all(
            "SELECT t.dealer, sum(t.taps), sum(t.late_changes), sum(t.mispays), sum(t.rounds),"
            " array_agg(DISTINCT r.table_id) FROM dealer_rounds t JOIN rounds r USING (journal, round_id)"
            " WHERE r.closed_at >= %s AND r.closed_at < %s GROUP BY t.dealer",
            (start, end),
        ):
            sums[dealer].add(Tally(int(taps), int(late), int(mispays), int(rounds)))
            sums[dealer].tables.update(tables)
        for dealer, seconds, tables in self._all(
            "SELECT dealer, sum(extract(epoch FROM least(ended, %s) - greatest(began, %s))),"
            " array_agg(DISTINCT table_id)"
            " FROM dealer_stints WHERE began < %s AND ended >= %s GROUP BY dealer",
            (end, start, end, start),
        ):
            sums[dealer].seconds = float(seconds)
            sums[dealer].tables.update(tables)
        return dealer_report(sums)

    # --- changes --------------------------------------------------------------------------------

    async def changes(self) -> AsyncIterator[Change]:
        """Every change as the store commits it (LISTEN `pit_changes`); never ends."""
        async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True, **SESSION_OPTIONS) as conn:
            await conn.execute(f"LISTEN {CHANNEL}")
            async for note in conn.notifies():
                kind, _, table_id = note.payload.partition(":")
                yield Change(kind, table_id)


def _alert(
    alert_id: int,
    table_id: str,
    kind: str,
    round_id: int | None,
    seq: int | None,
    raised: datetime,
    text: str,
    by: str | None,
    at: datetime | None,
    note: str | None,
    cleared: datetime | None,
    room: str | None,
) -> AlertRow:
    return {
        "id": alert_id,
        "table_id": table_id,
        "room": room,
        "kind": kind,
        "round_id": round_id,
        "seq": seq,
        "raised": _iso(raised),
        "text": text,
        "acked": {"by": by, "at": _iso(at), "note": note or ""} if by is not None else None,
        "cleared": _iso(cleared),
    }


def steps(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The recall step-through: each input, refusal and device record of the round in journal order,
    an input with the operations it caused."""
    found: list[dict[str, Any]] = []
    for event in entry["inputs"]:
        found.append(
            {
                "seq": event["seq"],
                "wall": event["wall"],
                "kind": "input",
                "input": event,
                "operations": [op for op in entry["operations"] if op["seq"] == event["seq"]],
            }
        )
    found += [
        {"seq": item["seq"], "wall": item["wall"], "kind": "refused", "input": item["input"], "error": item["error"]}
        for item in entry["refused"]
    ]
    found += [{"seq": item["seq"], "wall": item["wall"], "kind": "device", "device": item} for item in entry["devices"]]
    return sorted(found, key=lambda step: int(step["seq"]))

"""A test double of the pit's store: `PitData` in memory over real bench journals.

Not the product's store (that is PostgreSQL). It reads each table's SQLite journal through the
domain's own recall and export, keeps alerts, users and tokens in dictionaries, and lets a test set
what the status messages would say and announce changes, so the web layer is tested on real rounds.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from dealer_assist.errors import Failure
from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.journal.record_source import SqliteRecords, closing_record
from dealer_assist.table.header import table_config
from dealer_assist.table.journaled_table import replay
from dealer_assist.table.session import TableConfig
from pit.service.floor.alerts import wall_time
from pit.service.floor.data import Change, Conflict, LoginRefused, NotFound, Role, User
from pit.service.floor.dealing import DealerSums, Dealing, dealer_report
from pit.stream.wire import RecordMessage, journal_identity

TRIES = 5
LOCK_S = 60.0


@dataclass
class _Table:
    table_id: str
    path: Path
    journal: str
    status: dict[str, Any] = field(default_factory=dict)


class MemoryPitData:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._tables: dict[str, _Table] = {}
        self._alerts: list[dict[str, Any]] = []
        self._users: dict[str, tuple[str, Role]] = {}
        self._tokens: dict[str, User] = {}
        self._failures: dict[str, int] = {}
        self._locked_until: dict[str, float] = {}
        self.logins: list[tuple[str, str, bool]] = []  # (name, source, accepted), as the store keeps them
        self._subscribers: list[tuple[asyncio.AbstractEventLoop, asyncio.Queue[Change]]] = []
        self._lock = threading.Lock()

    # --- what a test sets up ----------------------------------------------------------------------
    def add_table(self, table_id: str, path: Path, **status: Any) -> str:
        journal = journal_identity(next(read_records(path)))
        self._tables[table_id] = _Table(table_id, path, journal, {"link": "live", "behind": 0, "devices": {}, **status})
        return journal

    def set_status(self, table_id: str, **status: Any) -> None:
        self._tables[table_id].status.update(status)
        self.announce(Change("table", table_id))

    def add_user(self, name: str, password: str, role: Role) -> None:
        self._users[name] = (password, role)

    def add_token(self, token: str, name: str, role: Role) -> None:
        self._tokens[token] = User(name, role)

    def raise_alert(
        self, table_id: str, kind: str, text: str, round_id: int | None = None, seq: int | None = None
    ) -> dict[str, Any]:
        alert = {
            "id": len(self._alerts) + 1,
            "table_id": table_id,
            "kind": kind,
            "round_id": round_id,
            "seq": seq,
            "raised": self._now().isoformat(),
            "text": text,
            "acked": None,
            "cleared": None,
        }
        self._alerts.append(alert)
        self.announce(Change("alert", table_id))
        return alert

    def announce(self, change: Change) -> None:
        with self._lock:
            subscribers = list(self._subscribers)
        for loop, queue in subscribers:
            loop.call_soon_threadsafe(queue.put_nowait, change)

    # --- PitData ----------------------------------------------------------------------------------
    def tables(self) -> list[dict[str, Any]]:
        return [self._row(table) for table in self._tables.values()]

    def table_live(self, table_id: str, room: str | None = None) -> dict[str, Any]:
        table = self._table(table_id)
        newest = recall(table.path, last=1)
        return {"table_id": table_id, "status": self._row(table), "round": newest[-1] if newest else None}

    def rounds(self, table_id: str, last: int, room: str | None = None) -> list[dict[str, Any]]:
        table = self._table(table_id)
        closed = [entry for entry in recall(table.path, last=last + 1) if entry["closed"]][-last:]
        return [
            {
                "round_id": entry["round_id"],
                "journal": table.journal,
                "opened": entry["started"],
                "closed": entry["ended"],
                "player_dealer_net": _pd_net(entry),
                "fees": entry["ledger"]["fees"] if entry["ledger"] else {"players": 0, "player_dealer": 0},
            }
            for entry in reversed(closed)
        ]

    def round(self, table_id: str, round_id: int, room: str | None = None) -> dict[str, Any]:
        table = self._table(table_id)
        try:
            entry = recall(table.path, round_id=round_id)[0]
        except Failure:
            raise NotFound(f"table {table_id} has no round {round_id}") from None
        return {"table_id": table_id, "journal": table.journal, **entry}

    def round_file(self, table_id: str, round_id: int, room: str | None = None) -> dict[str, Any]:
        table = self._table(table_id)
        try:
            return export_round(table.path, round_id)
        except Failure as error:
            if error.code == "round_voided":
                raise Conflict(error.message) from None
            raise NotFound(f"table {table_id}: {error.message}") from None

    def witness(self, journal: str) -> dict[str, Any]:
        table = self._by_journal(journal)
        records = list(read_records(table.path))
        return {
            "table_id": table.table_id,
            "journal": journal,
            "records": records[-1].seq,
            "head": records[-1].hash.hex(),
            "missing": None,
        }

    def witnessed_hashes(self, journal: str, since: int = 0) -> list[tuple[int, str]]:
        return [(record.seq, record.hash.hex()) for record in read_records(self._by_journal(journal).path, since)]

    def alerts(
        self, state: str | None = None, table_id: str | None = None, room: str | None = None
    ) -> list[dict[str, Any]]:
        return [
            dict(alert)
            for alert in reversed(self._alerts)
            if (state is None or (state == "acked") == (alert["acked"] is not None))
            and (table_id is None or alert["table_id"] == table_id)
        ]

    def shift_report(
        self, table_id: str | None, start: datetime, end: datetime, room: str | None = None
    ) -> dict[str, Any]:
        tables = [self._table(table_id)] if table_id else list(self._tables.values())
        report: dict[str, Any] = {
            "rounds": 0,
            "fees": {"players": 0.0, "player_dealer": 0.0},
            "player_dealer_net": 0.0,
            "largest_payouts": [],
            "corrections": [],
        }
        payouts = []
        for table in tables:
            for entry in recall(table.path):
                if not entry["closed"] or not start <= datetime.fromisoformat(entry["ended"]) < end:
                    continue
                report["rounds"] += 1
                report["corrections"] += [
                    {
                        "table_id": table.table_id,
                        "round_id": entry["round_id"],
                        "at": fix["wall"],
                        "type": fix["type"],
                        "supervisor": fix.get("supervisor"),
                        "reason": fix.get("reason"),
                    }
                    for fix in entry["corrections"]
                ]
                ledger = entry["ledger"]
                if ledger is None:
                    continue
                report["fees"]["players"] += ledger["fees"]["players"]
                report["fees"]["player_dealer"] += ledger["fees"]["player_dealer"]
                report["player_dealer_net"] += _pd_net(entry) or 0
                payouts += [
                    {
                        "table_id": table.table_id,
                        "round_id": entry["round_id"],
                        "closed": entry["ended"],
                        "seat": row["seat"],
                        "wager": row["wager"],
                        "result": row["result"],
                        "amount": row["amount"],
                    }
                    for row in ledger["settlements"]
                    if row["amount"] > 0
                ]
        report["largest_payouts"] = sorted(payouts, key=lambda row: -row["amount"])[:10]
        report["fees"] = {key: round(value, 2) for key, value in report["fees"].items()}
        report["player_dealer_net"] = round(report["player_dealer_net"], 2)
        return report

    def dealer_report(self, start: datetime, end: datetime) -> dict[str, Any]:
        """Each journal followed by the pit's own `Dealing`, and added up as the store's queries do."""
        sums: defaultdict[str, DealerSums] = defaultdict(DealerSums)
        for table in self._tables.values():
            found = [RecordMessage.of(table.table_id, table.journal, record) for record in read_records(table.path)]
            dealing = Dealing()
            for message in found:
                dealing.take(message)
            closed = {m.round_id for m in found if m.kind is RecordKind.CLOSE and start <= wall_time(m.wall) < end}
            for (_, round_id, dealer), tally in dealing.tallies.items():
                if round_id in closed:
                    sums[dealer].add(tally)
                    sums[dealer].tables.add(table.table_id)
            for stint in dealing.stints.values():
                if stint.began < end and stint.ended >= start:
                    sums[stint.dealer].seconds += (min(stint.ended, end) - max(stint.began, start)).total_seconds()
                    sums[stint.dealer].tables.add(table.table_id)
        return dict(dealer_report(sums))

    async def changes(self) -> AsyncIterator[Change]:
        queue: asyncio.Queue[Change] = asyncio.Queue()
        subscriber = (asyncio.get_running_loop(), queue)
        with self._lock:
            self._subscribers.append(subscriber)
        try:
            while True:
                yield await queue.get()
        finally:
            with self._lock:
                self._subscribers.remove(subscriber)

    def acknowledge(self, alert_id: int, user: User, note: str) -> dict[str, Any]:
        alert = next((alert for alert in self._alerts if alert["id"] == alert_id), None)
        if alert is None:
            raise NotFound(f"no alert {alert_id}")
        if alert["acked"] is not None:
            raise Conflict(f"alert {alert_id} was acknowledged by {alert['acked']['by']} at {alert['acked']['at']}")
        alert["acked"] = {"by": user.name, "at": self._now().isoformat(), "note": note}
        self.announce(Change("alert", alert["table_id"]))
        return dict(alert)

    def login(self, name: str, password: str, source: str) -> User:
        locked = self._locked_until.get(name, 0.0) - self.clock()
        if locked > 0:
            self.logins.append((name, source, False))
            raise LoginRefused(f"{name} is locked", locked_for=locked)
        known = self._users.get(name)
        if known is None or known[0] != password:
            self.logins.append((name, source, False))
            self._failures[name] = self._failures.get(name, 0) + 1
            if self._failures[name] >= TRIES:
                self._failures[name] = 0
                self._locked_until[name] = self.clock() + LOCK_S
                raise LoginRefused(f"{name} is locked", locked_for=LOCK_S)
            raise LoginRefused("wrong name or password")
        self._failures[name] = 0
        self.logins.append((name, source, True))
        return User(name, known[1])

    def token_user(self, token: str) -> User | None:
        return self._tokens.get(token)

    # --- inside -----------------------------------------------------------------------------------
    def _now(self) -> datetime:
        return datetime.fromtimestamp(self.clock(), UTC)

    def _table(self, table_id: str) -> _Table:
        if table_id not in self._tables:
            raise NotFound(f"no table {table_id!r}")
        return self._tables[table_id]

    def _by_journal(self, journal: str) -> _Table:
        for table in self._tables.values():
            if table.journal == journal:
                return table
        raise NotFound(f"no journal {journal!r}")

    def _row(self, table: _Table) -> dict[str, Any]:
        config = table_config(table.path)
        entries = recall(table.path, last=1)
        entry = entries[-1] if entries else None
        hour_ago = self.clock() - 3600
        closed_last_hour = sum(
            1
            for record in read_records(table.path)
            if record.kind.value == "close" and datetime.fromisoformat(record.wall).timestamp() >= hour_ago
        )
        row = {
            "table_id": table.table_id,
            "room": None,
            "profile": config.profile,
            "round_id": entry["round_id"] if entry else None,
            "phase": "closed" if entry and entry["closed"] else "open" if entry else "idle",
            "player_dealer": _banker(table.path, config, entry["round_id"] if entry else None),
            "rounds_per_hour": closed_last_hour,
            "link": "live",
            "behind": 0,
            "refused": False,
            "missing": None,
            "devices": {},
            "open_alerts": sum(
                1 for alert in self._alerts if alert["table_id"] == table.table_id and not alert["acked"]
            ),
            "last_seen": self._now().isoformat(),
        }
        return {**row, **table.status}


def _banker(path: Path, config: TableConfig, round_id: int | None) -> dict[str, Any] | None:
    """Who banks the newest round, replayed from the journal as the table would recover it."""
    if round_id is None:
        return None
    before = closing_record(SqliteRecords(path), round_id - 1) if round_id > 1 else None
    s = replay(path, config, before).s
    return None if s.pd_seat is None else {"seat": s.pd_seat, "bank": s.pd_bank / 100, "turn": s.pd_turn}


def _pd_net(entry: dict[str, Any]) -> float | None:
    ledger = entry["ledger"]
    return None if not ledger or ledger["player_dealer"] is None else ledger["player_dealer"]["net"]

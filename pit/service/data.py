"""What the dashboard and the JSON API read and change: one interface over the pit's store.

The PostgreSQL store implements it; the web layer (pages, API, server-sent events) knows nothing
else. Every answer is already in the JSON shape of PIT.md §6, amounts in currency units.
"""
from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol


class Role(StrEnum):
    SUPERVISOR = "supervisor"  # reads everything, acknowledges alerts
    SURVEILLANCE = "surveillance"  # reads only
    MANAGER = "manager"  # also reports and users


@dataclass(frozen=True, slots=True)
class User:
    name: str
    role: Role

    @property
    def may_acknowledge(self) -> bool:
        return self.role in (Role.SUPERVISOR, Role.MANAGER)

    @property
    def may_see_reports(self) -> bool:
        return self.role is Role.MANAGER


class LoginRefused(Exception):
    """A wrong name or password, or a name locked after five wrong tries; `locked_for` in seconds."""

    def __init__(self, message: str, locked_for: float = 0.0) -> None:
        super().__init__(message)
        self.message = message
        self.locked_for = locked_for


class NotFound(LookupError):
    """No such table, round, journal or alert; the text names which."""


class Conflict(Exception):
    """A change that cannot be made as asked (409): an alert acknowledged already, a user or a table
    that exists, a voided round's round file; the text says which."""


@dataclass(frozen=True, slots=True)
class Change:
    """Something the floor shows changed: a table's status or records, or an alert."""

    kind: str  # "table" | "alert"
    table_id: str


class PitData(Protocol):
    # --- reading (every role) -------------------------------------------------------------------
    def tables(self) -> list[dict[str, Any]]:
        """GET /api/tables."""
        ...

    def table_live(self, table_id: str) -> dict[str, Any]:
        """The table's current round as the dealer sees it (hole card hidden until revealed)."""
        ...

    def rounds(self, table_id: str, last: int) -> list[dict[str, Any]]:
        """GET /api/tables/<id>/rounds?last=N, newest first."""
        ...

    def round(self, table_id: str, round_id: int) -> dict[str, Any]:
        """GET /api/tables/<id>/rounds/<round_id>: inputs, operations, device records, corrections,
        and the ledger under "ledger"; plus "steps" for the recall step-through."""
        ...

    def round_file(self, table_id: str, round_id: int) -> dict[str, Any]:
        """The round as a round-v1 file."""
        ...

    def witness(self, journal: str) -> dict[str, Any]:
        """GET /api/witness/<journal>: {"table_id", "journal", "records", "head"}."""
        ...

    def witnessed_hashes(self, journal: str, since: int = 0) -> list[tuple[int, str]]:
        """(seq, hex hash) of every record witnessed after `since`, in order: `journal verify --pit`."""
        ...

    def alerts(self, state: str | None = None, table_id: str | None = None) -> list[dict[str, Any]]:
        """GET /api/alerts?state=open|acked&table=<id>."""
        ...

    def shift_report(self, table_id: str | None, start: datetime, end: datetime) -> dict[str, Any]:
        """GET /api/reports/shift: rounds, fees, player_dealer_net, largest_payouts, corrections."""
        ...

    def changes(self) -> AsyncIterator[Change]:
        """Every change as it is stored, for server-sent events (never ends)."""
        ...

    # --- changing -------------------------------------------------------------------------------
    def acknowledge(self, alert_id: int, user: User, note: str) -> dict[str, Any]:
        """POST /api/alerts/<id>/ack: kept forever, never edited. Raises NotFound (404), Conflict for a
        second ack (409), PermissionError for a surveillance user (403), ValueError for no note (400)."""
        ...

    # --- access ---------------------------------------------------------------------------------
    def login(self, name: str, password: str, source: str) -> User:
        """Check a password (salted slow hash); every try is kept; five wrong lock the name 60 s."""
        ...

    def token_user(self, token: str) -> User | None:
        """The user an API token stands for, or None."""
        ...

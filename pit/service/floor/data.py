"""What the dashboard and the JSON API read and change: one interface over the pit's store.

The PostgreSQL store implements it; the web layer (pages, API, server-sent events) knows nothing
else. Every answer is already in the JSON shape of PIT.md §6, amounts in currency units.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, TypedDict

from pit.errors import PitCode, PitError

__all__ = [
    "ACKNOWLEDGE",
    "ANYONE",
    "AlertRow",
    "Allowed",
    "Change",
    "Conflict",
    "DealerReport",
    "LoginRefused",
    "NotAllowed",
    "NotFound",
    "PitData",
    "REPORTS",
    "Role",
    "RoundRow",
    "ShiftReport",
    "TableTile",
    "User",
    "Witnessed",
]


class Role(StrEnum):
    SUPERVISOR = "supervisor"  # reads everything, acknowledges alerts
    SURVEILLANCE = "surveillance"  # reads only
    MANAGER = "manager"  # also reports and users


@dataclass(frozen=True, slots=True)
class Allowed:
    """The roles a route serves, and what it tells anyone else (403)."""

    roles: frozenset[Role]
    says: str


ANYONE = Allowed(frozenset(Role), "")
ACKNOWLEDGE = Allowed(frozenset({Role.SUPERVISOR, Role.MANAGER}), "only a supervisor or a manager acknowledges alerts")
REPORTS = Allowed(frozenset({Role.MANAGER}), "reports are for managers")


@dataclass(frozen=True, slots=True)
class User:
    name: str
    role: Role

    @property
    def may_acknowledge(self) -> bool:
        return self.role in ACKNOWLEDGE.roles

    @property
    def may_see_reports(self) -> bool:
        return self.role in REPORTS.roles


class LoginRefused(PitError):
    """A wrong name or password, or a name locked after too many wrong tries; `locked_for` in seconds."""

    def __init__(self, message: str, locked_for: float = 0.0) -> None:
        super().__init__(PitCode.LOGIN_REFUSED, message)
        self.locked_for = locked_for


class NotFound(PitError):
    """No such table, round, journal or alert; the text names which (404)."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.NOT_FOUND, message, 1)


class Conflict(PitError):
    """A change that cannot be made as asked (409): an alert acknowledged already, a user or a table
    that exists, a voided round's round file; the text says which."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.ALREADY_EXISTS, message, 1)


class NotAllowed(PitError):
    """What the user's role may not do (403); the text names the user and the role."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.NOT_ALLOWED, message, 1)


Amount = int | float  # currency units, whole amounts as integers, as the ledger writes them


class PlayerDealerTile(TypedDict):
    seat: int | None
    bank: Amount | None
    turn: int | None


class TableTile(TypedDict):
    """A row of GET /api/tables: a table's tile on the floor."""

    table_id: str
    room: str | None  # at a head office, the room the table is in
    profile: str | None
    round_id: int | None
    phase: str | None
    player_dealer: PlayerDealerTile | None
    rounds_per_hour: int
    link: str  # live | behind | silent
    behind: int
    refused: bool  # the table's status says the stream refuses its publishes: it cannot store what it sends
    missing: int | None  # the first seq the pit lacks of the table's journal while later ones wait, or None
    devices: dict[str, str]
    open_alerts: int
    last_seen: str | None


class Fees(TypedDict):
    players: Amount
    player_dealer: Amount


class RoundRow(TypedDict):
    """A row of GET /api/tables/<id>/rounds."""

    round_id: int
    journal: str
    opened: str | None
    closed: str | None
    player_dealer_net: Amount
    fees: Fees


# A gap in a journal: its first missing seq, and how many records wait past it ("from" is a keyword).
Missing = TypedDict("Missing", {"from": int, "held": int})


class Witnessed(TypedDict):
    """GET /api/witness/<journal>."""

    table_id: str
    journal: str
    records: int
    head: str
    missing: Missing | None


class Acknowledgement(TypedDict):
    by: str
    at: str | None
    note: str


class AlertRow(TypedDict):
    """A row of GET /api/alerts, and the answer to an acknowledgement."""

    id: int
    table_id: str
    room: str | None  # at a head office: the table's room, or the room an alert is about
    kind: str
    round_id: int | None
    seq: int | None
    raised: str | None
    text: str
    acked: Acknowledgement | None
    cleared: str | None  # when its cause ended (a gap filled); it stays open until acknowledged


class Payout(TypedDict):
    table_id: str
    round_id: int
    closed: str | None
    seat: int
    wager: str
    result: str
    amount: Amount


class CorrectionRow(TypedDict):
    table_id: str
    round_id: int | None
    at: str | None
    type: str
    supervisor: str
    reason: str


class ShiftReport(TypedDict):
    """GET /api/reports/shift."""

    rounds: int
    fees: Fees
    player_dealer_net: Amount
    largest_payouts: list[Payout]
    corrections: list[CorrectionRow]


class DealerRow(TypedDict):
    """A row of GET /api/reports/dealers: one house dealer over the range (RULES.md §8.25), or, with
    `dealer` None, the rounds dealt with no dealer signed in."""

    dealer: str | None
    tables: list[str]  # the tables dealt
    hours: float | None  # time at them: from each sign-in to its sign-out, or to the last record of the stint
    rounds: int  # rounds closed in the range that count for the dealer (`rounds_counted`)
    rounds_per_hour: float | None
    taps: int  # the dealer's own inputs in those rounds (`taps_counted`)
    taps_per_round: float | None
    late_changes: int
    mispays: int


class DealerReport(TypedDict):
    """GET /api/reports/dealers."""

    dealers: list[DealerRow]  # by name, the rounds with no dealer signed in last
    taps_counted: list[str]  # the inputs counted as the dealer's taps, accepted or refused
    rounds_counted: str  # whose a round is: the dealer signed in when its first card was dealt


@dataclass(frozen=True, slots=True)
class Change:
    """Something the floor shows changed: a table's status or records, or an alert."""

    kind: str  # "table" | "alert"
    table_id: str


class PitData(Protocol):
    # --- reading (every role) -------------------------------------------------------------------
    def tables(self) -> list[TableTile]:
        """GET /api/tables."""
        ...

    # Where rooms meet (a head office) a table is (room, id): `room` names it when two rooms use the id.
    def table_live(self, table_id: str, room: str | None = None) -> dict[str, Any]:
        """The table's current round as the dealer sees it (hole card hidden until revealed)."""
        ...

    def rounds(self, table_id: str, last: int, room: str | None = None) -> list[RoundRow]:
        """GET /api/tables/<id>/rounds?last=N, newest first."""
        ...

    def round(self, table_id: str, round_id: int, room: str | None = None) -> dict[str, Any]:
        """GET /api/tables/<id>/rounds/<round_id>: inputs, operations, device records, corrections,
        and the ledger under "ledger"; plus "steps" for the recall step-through."""
        ...

    def round_file(self, table_id: str, round_id: int, room: str | None = None) -> dict[str, Any]:
        """The round as a round-v1 file."""
        ...

    def witness(self, journal: str) -> Witnessed:
        """GET /api/witness/<journal>: {"table_id", "journal", "records", "head"}."""
        ...

    def witnessed_hashes(self, journal: str, since: int = 0) -> list[tuple[int, str]]:
        """(seq, hex hash) of every record witnessed after `since`, in order: `journal verify --pit`."""
        ...

    def alerts(self, state: str | None = None, table_id: str | None = None, room: str | None = None) -> list[AlertRow]:
        """GET /api/alerts?state=open|acked&table=<id>&room=<room>."""
        ...

    def shift_report(
        self, table_id: str | None, start: datetime, end: datetime, room: str | None = None
    ) -> ShiftReport:
        """GET /api/reports/shift: rounds, fees, player_dealer_net, largest_payouts, corrections."""
        ...

    def dealer_report(self, start: datetime, end: datetime) -> DealerReport:
        """GET /api/reports/dealers: per house dealer, the rounds closed in the range and the time at the tables."""
        ...

    def changes(self) -> AsyncIterator[Change]:
        """Every change as it is stored, for server-sent events (never ends)."""
        ...

    # --- changing -------------------------------------------------------------------------------
    def acknowledge(self, alert_id: int, user: User, note: str) -> AlertRow:
        """POST /api/alerts/<id>/ack: kept forever, never edited. Raises NotFound (404), Conflict for a
        second ack (409), NotAllowed for a surveillance user (403), BadValue for no note (400)."""
        ...

    # --- access ---------------------------------------------------------------------------------
    def login(self, name: str, password: str, source: str) -> User:
        """Check a password (salted slow hash); every try is kept; wrong tries lock the name (`lockout`)."""
        ...

    def token_user(self, token: str) -> User | None:
        """The user an API token stands for, or None."""
        ...

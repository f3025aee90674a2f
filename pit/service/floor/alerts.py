"""The alerts of PIT.md §5: a record, a status message or the passing of time in, alert causes out.

Pure. Each cause carries a key that names what it is about (the record, the round, the episode),
so the store raises it once however often the broker redelivers or the table repeats itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from typing import Any

from dealer_assist.journal.journal_file import RecordKind
from dealer_assist.rules.counts import count
from dealer_assist.rules.money import format_money
from dealer_assist.table.lockout import LOCKED_FOR, wrong_tries
from dealer_assist.table.spots import parse_spot
from dealer_assist.text.reader_words import mispay
from pit.stream.wire import RecordMessage, StatusMessage, body_of

__all__ = ["AlertCause", "AlertKind", "SILENT_AFTER_S"]

SILENT_AFTER_S = 15.0  # no status for this long: the table is silent
LINK_DOWN_AFTER_S = 10.0  # a device link down longer than this
BEHIND_LIMIT = 1000  # records still to ship
APPEND_GRACE_S = 1.0  # a record's wall clock is taken this much before it can be counted as journaled, at most
DEFAULT_PAYOUT_THRESHOLD = Decimal(1000)  # currency units; the room's setting `payout_threshold`
READER = "wagers"  # the wager reader's name in the journal and the status: its outage is alerted from its record
CORRECTIONS = {"RoundVoided": "void", "CardRekeyed": "re-key", "MisdealDiscarded": "discard"}


class AlertKind(StrEnum):
    MISDEAL_HOLD = "misdeal_hold"
    CAMERA_MISMATCH = "camera_mismatch"
    PEEK_BY_HAND = "peek_by_hand"
    DEVICE_FAULT = "device_fault"
    LINK_DOWN = "link_down"
    CORRECTION = "correction"
    PIN_LOCKOUT = "pin_lockout"
    LARGE_PAYOUT = "large_payout"
    ROTATION_WARNING = "rotation_warning"
    ROTATION_VIOLATION = "rotation_violation"
    TABLE_SILENT = "table_silent"
    SHIPPING_BEHIND = "shipping_behind"
    DIVERGENCE = "divergence"
    LATE_CHANGE = "late_change"
    MISPAY = "mispay"
    SPOT_FAULT = "spot_fault"
    READER_DOWN = "reader_down"
    RECORDS_MISSING = "records_missing"
    LOG_UNPUBLISHED = "log_unpublished"  # a round no published checkpoint covers after 5 minutes (PIT.md §9)
    LOG_REFUSED = "log_refused"  # a witness refused a checkpoint, the leaves no longer rebuild one, a standby gone
    ROOM_BEHIND = "room_behind"  # at a head office: its copy of a room's stream more than 60 s behind


@dataclass(frozen=True, slots=True)
class AlertCause:
    cause: str  # unique: the same cause is raised once
    kind: AlertKind
    table_id: str
    journal: str | None
    round_id: int | None
    seq: int | None
    at: datetime
    text: str


def wall_time(wall: str) -> datetime:
    """A record's or status's ISO 8601 wall clock; an unreadable one counts as now."""
    try:
        moment = datetime.fromisoformat(wall)
    except ValueError:
        return datetime.now(UTC)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def divergence(
    table_id: str, journal: str, seq: int | None, round_id: int | None, text: str, at: datetime
) -> AlertCause:
    """One divergence alert per journal, whichever way it was found first."""
    return AlertCause(f"divergence:{journal}", AlertKind.DIVERGENCE, table_id, journal, round_id, seq, at, text)


def records_missing(table_id: str, journal: str, missing_from: int, held: int, at: datetime) -> AlertCause:
    """One alert per gap: a journal's first missing seq, while later records wait (PIT.md §5)."""
    return AlertCause(
        missing_cause(journal, missing_from),
        AlertKind.RECORDS_MISSING,
        table_id,
        journal,
        None,
        missing_from,
        at,
        f"records missing: journal {journal} lacks record {missing_from}, with"
        f" {held} later record{'' if held == 1 else 's'} waiting in the stream",
    )


def missing_cause(journal: str, missing_from: int) -> str:
    return f"missing:{journal}:{missing_from}"


def _money(units: Decimal) -> str:
    """An amount in currency units as the dealer's screen writes it: $1,500.00."""
    return format_money(int(units * 100))


def _misdeal(op: dict[str, Any]) -> tuple[str, AlertKind, str]:
    return "misdeal", AlertKind.MISDEAL_HOLD, f"misdeal hold: {op.get('card')}: {op.get('message')}"


def _peek(op: dict[str, Any]) -> tuple[str, AlertKind, str]:
    natural = "a natural" if op.get("natural") else "no natural"
    return (
        "peek",
        AlertKind.PEEK_BY_HAND,
        f"peek checked by hand: {natural}, confirmed by {op.get('supervisor')} ({op.get('reason')})",
    )


def _correction(op: dict[str, Any]) -> tuple[str, AlertKind, str]:
    return (
        "correction",
        AlertKind.CORRECTION,
        f"supervisor correction ({CORRECTIONS[str(op.get('type'))]}) by {op.get('supervisor')}: {op.get('reason')}",
    )


def _mispay(op: dict[str, Any]) -> tuple[str, AlertKind, str]:
    return (
        "mispay",
        AlertKind.MISPAY,
        "mispay: "
        + mispay(
            parse_spot(str(op.get("spot"))),
            int(op.get("held", 0)),
            int(op.get("due", 0)),
            str(op.get("supervisor")),
            str(op.get("reason")),
        ),
    )


def _rotation_warning(op: dict[str, Any]) -> tuple[str, AlertKind, str]:
    return (
        "rotation-warning",
        AlertKind.ROTATION_WARNING,
        f"bank rotation: {count(int(op.get('minutes_left', 0)), 'minute')} left before two other"
        " player-dealers must bank",
    )


# The ops of an input or a close that raise an alert: the cause's name, the alert's kind and text.
_OP_ALERTS: dict[Any, Callable[[dict[str, Any]], tuple[str, AlertKind, str]]] = {
    "MisdealHeld": _misdeal,
    "PeekConfirmed": _peek,
    **{name: _correction for name in CORRECTIONS},
    "MispayAccepted": _mispay,
    "RotationWarning": _rotation_warning,
}


def record_alerts(message: RecordMessage, payout_threshold: Decimal = DEFAULT_PAYOUT_THRESHOLD) -> list[AlertCause]:
    """The alerts one stored record raises."""
    body: dict[str, Any] = body_of(message.body)
    if message.kind is RecordKind.INPUT:
        for op in body.get("ops", ()):
            if op.get("type") in _OP_ALERTS:
                break
        else:
            return []  # most records: a card, a wager, a decision
    key = f"{message.journal}:{message.seq}"
    round_id = message.round_id

    def cause(name: str, kind: AlertKind, text: str) -> AlertCause:
        return AlertCause(
            name, kind, message.table_id, message.journal, round_id, message.seq, wall_time(message.wall), text
        )

    found: list[AlertCause] = []
    if message.kind in (RecordKind.INPUT, RecordKind.CLOSE):
        for position, op in enumerate(body.get("ops", [])):
            told = _OP_ALERTS.get(op.get("type"))
            if told is not None:
                name, kind, text = told(op)
                found.append(cause(f"{name}:{key}:{position}", kind, text))
    if message.kind is RecordKind.CLOSE:
        settlements = (body.get("ledger") or {}).get("settlements", [])
        for position, line in enumerate(settlements):
            amount = Decimal(str(line.get("amount", 0)))
            if amount >= payout_threshold:
                found.append(
                    cause(
                        f"payout:{key}:{position}",
                        AlertKind.LARGE_PAYOUT,
                        f"payout of {_money(amount)} to seat {line.get('seat')} ({line.get('wager')},"
                        f" {line.get('result')}) at or above the threshold of {_money(payout_threshold)}",
                    )
                )
    elif message.kind is RecordKind.REFUSED:
        error = body.get("error", {})
        if error.get("code") == "rotation":
            found.append(
                cause(
                    f"rotation-violation:{key}",
                    AlertKind.ROTATION_VIOLATION,
                    f"bank rotation violation refused: {error.get('message')}",
                )
            )
    elif message.kind is RecordKind.SECURITY and body.get("event") == "pin_locked":
        found.append(
            cause(f"pin-lockout:{key}", AlertKind.PIN_LOCKOUT, f"supervisor PIN {LOCKED_FOR} after {wrong_tries()}")
        )
    elif message.kind is RecordKind.DEVICE:
        place = f"round {round_id}" if round_id is not None else f"record {message.seq}"
        if body.get("type") == "CameraMismatch":
            found.append(
                cause(
                    f"camera:{message.journal}:{place}",
                    AlertKind.CAMERA_MISMATCH,
                    f"camera mismatch: {body.get('message')}",
                )
            )
        elif body.get("device") == READER and body.get("type") == "LinkChanged" and body.get("state") == "down":
            found.append(
                cause(
                    f"reader-down:{key}",
                    AlertKind.READER_DOWN,
                    "wager reader down: its link went down; the dealer keys the wagers, confirms them at "
                    "No more bets, and payouts go unchecked until it is back",
                )
            )
        elif body.get("type") in ("DeviceFault", "fault"):
            found.append(
                cause(
                    f"fault:{message.journal}:{body.get('device')}:{body.get('code')}:{place}",
                    AlertKind.DEVICE_FAULT,
                    f"device fault on the {body.get('device')}: {body.get('code')} {body.get('text', '')}".rstrip(),
                )
            )
    return found


@dataclass(frozen=True, slots=True)
class WitnessedPast:
    """What the pit witnessed of a journal beyond a status's last journaled seq: its head, and the
    table's own wall clock on the first record the status does not count."""

    head_seq: int
    head_hash: str
    first_wall: str


def status_alerts(
    previous: StatusMessage | None, status: StatusMessage, witnessed: WitnessedPast | None, at: datetime
) -> list[AlertCause]:
    """The alerts a status message raises.

    A status that counts fewer records than the pit witnessed is a divergence only when the first record
    it lacks was journaled well before the status was sent (both by the table's clock): a status sent
    earlier and delivered late (the store was away while records queued in the stream) is merely old.
    A status without its send time cannot be ordered against the records and raises no such alert.
    """
    found: list[AlertCause] = []
    table = status.table_id
    if status.to_ship > BEHIND_LIMIT and (previous is None or previous.to_ship <= BEHIND_LIMIT):
        shipped = status.last_seq - status.to_ship
        found.append(
            AlertCause(
                f"behind:{table}:{status.journal}:{shipped}",
                AlertKind.SHIPPING_BEHIND,
                table,
                status.journal,
                status.round_id,
                shipped,
                at,
                f"shipping behind: {status.to_ship} records still to ship (more than {BEHIND_LIMIT})",
            )
        )
    if (
        witnessed is not None
        and status.last_seq < witnessed.head_seq
        and status.sent
        and wall_time(status.sent) - wall_time(witnessed.first_wall) > timedelta(seconds=APPEND_GRACE_S)
    ):
        found.append(
            divergence(
                table,
                status.journal,
                status.last_seq,
                status.round_id,
                f"table {table} journal {status.journal} is behind the witness: its last record is"
                f" {status.last_seq}, the pit witnessed {witnessed.head_seq}"
                f" (hash {witnessed.head_hash})",
                at,
            )
        )
    elif status.divergence:
        found.append(
            divergence(
                table,
                status.journal,
                status.last_seq,
                status.round_id,
                f"table {table} journal {status.journal}: {status.divergence}",
                at,
            )
        )
    return found


def links_down(down_since: dict[str, float], devices: dict[str, str], now: float) -> dict[str, float]:
    """Since when each device's link has been down, as the new status tells it."""
    return {name: down_since.get(name, now) for name, state in devices.items() if state != "up"}


def timed_alerts(
    table_id: str, journal: str, round_id: int | None, last_status: float, down_since: dict[str, float], now: float
) -> list[AlertCause]:
    """What the passing of time raises: a silent table, a device link down longer than 10 s (the wager
    reader's outage is raised at once from its journal record, one alert per outage)."""
    found: list[AlertCause] = []
    at = datetime.fromtimestamp(now, UTC)
    if now - last_status > SILENT_AFTER_S:
        since = datetime.fromtimestamp(last_status, UTC)
        found.append(
            AlertCause(
                f"silent:{table_id}:{last_status:.3f}",
                AlertKind.TABLE_SILENT,
                table_id,
                journal,
                round_id,
                None,
                at,
                f"table silent: no status since {since.isoformat(timespec='seconds')}",
            )
        )
    for device, since_s in sorted(down_since.items()):
        if now - since_s > LINK_DOWN_AFTER_S and device != READER:
            found.append(
                AlertCause(
                    f"link:{table_id}:{device}:{since_s:.3f}",
                    AlertKind.LINK_DOWN,
                    table_id,
                    journal,
                    round_id,
                    None,
                    at,
                    f"{device} link down for more than {LINK_DOWN_AFTER_S:.0f} s",
                )
            )
    return found

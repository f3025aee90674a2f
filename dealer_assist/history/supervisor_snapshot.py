"""An immutable picture of the table for the floor supervisor's screens.

The supervisor's screens read this, never the table: the open round and its cards (hole card
masked, as recall masks it), the rotation, the PIN's state, the last rounds as recall tells
them, and where the journal and the roster of supervisors are. Built on the thread that owns the
table, after any change.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.history.recall import recall, round_cards
from dealer_assist.journal.record_source import SqliteRecords
from dealer_assist.rules.cards import Card
from dealer_assist.rules.money import Cents
from dealer_assist.rules.phases import Phase
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.lockout import MAX_TRIES
from dealer_assist.table.pins import PinSetter
from dealer_assist.table.session import TableState
from dealer_assist.table.session_operations import PayoutDifference

__all__ = ["RotationFacts", "SupervisorSnapshot", "build_supervisor_snapshot"]


@dataclass(frozen=True, slots=True)
class RotationFacts:
    """Who banks, who the bank is offered to, and California's rotation limits (RULES.md §5.6)."""

    profile_id: str
    player_dealer: bool
    round_open: bool
    pd_seat: int | None
    pd_bank: Cents
    pd_turn: int
    pd_proposition: bool
    pd_ready: bool
    offer_seat: int | None
    offer_turn: int
    declined: tuple[int, ...]
    rotation_rules: bool
    prop_seat: int | None
    window_pds: tuple[int, ...]
    deadline: float | None  # when two other player-dealers must have banked
    now: float


@dataclass(frozen=True, slots=True)
class SupervisorSnapshot:
    table_id: str
    rounds_closed: int
    has_pin: bool
    pin_lock_left: float  # seconds until the PIN lock ends; 0 when it is not locked
    state: TableState
    round_id: int
    phase: Phase | None  # None between rounds
    misdeal: Card | None
    unread: tuple[int, ...]
    round_cards: tuple[dict[str, Any], ...]  # the open round's cards, numbered as a re-key counts them (recall's)
    rotation: RotationFacts
    rounds: tuple[dict[str, Any], ...]  # the last rounds as recall gives them, oldest first
    stopped: str | None  # why the table stopped taking inputs, if it has
    journal_path: Path  # the dispute reports go beside it
    roster: tuple[str, ...]  # the floor supervisors' names the corrections offer (`roster.py`)
    pin_tries_left: int = MAX_TRIES  # wrong PINs the pad takes before the next lock
    pin_set_by: PinSetter | None = None
    payout_differences: tuple[PayoutDifference, ...] = ()  # what the payout check found, for the supervisor to accept


def build_supervisor_snapshot(table: Table, roster: tuple[str, ...], recent: int) -> SupervisorSnapshot:
    """The table now, offering `roster`'s names, with the last `recent` rounds read from its
    journal; with none (`recent` 0) the journal is not read and the open round's cards are left out."""
    session, s, now = table.session, table.session.s, table.clock()
    rounds = tuple(recall(SqliteRecords(table.path), last=recent)) if recent else ()
    tracker = session.tracker
    # a round opened by its first input has no record yet
    open_entry = rounds[-1] if tracker is not None and rounds and rounds[-1]["round_id"] == session.round_id else None
    rotation = RotationFacts(
        session.profile.id,
        session.profile.player_dealer,
        tracker is not None,
        s.pd_seat,
        s.pd_bank,
        s.pd_turn,
        s.pd_proposition,
        s.pd_ready,
        s.offer_seat,
        s.offer_turn,
        tuple(s.declined),
        session.config.rotation_rules,
        s.prop_seat,
        tuple(s.window_pds),
        session.rotation_deadline(),
        now,
    )
    return SupervisorSnapshot(
        session.config.table_id,
        table.rounds_closed,
        table.pins.digest is not None,
        max(0.0, table.pins.locked_until - now),
        session.state,
        session.round_id,
        tracker.phase if tracker is not None else None,
        session.misdeal,
        tuple(session.unread),
        tuple(round_cards(open_entry)) if open_entry is not None else (),
        rotation,
        rounds,
        table.stopped,
        table.path,
        roster,
        MAX_TRIES - table.pins.wrong % MAX_TRIES,
        table.pins.set_by,
        tuple(session.reader.round.differences.values()),
    )

"""Who may bank how often: a table's rotation policy, chosen by its `rotation_rules` setting.

A card room without limits lets anyone bank whose turn it is. California's limits for a
proposition player (RULES.md §5.6) allow one per table, never two rounds in a row, and, within
40 minutes of the proposition player first banking, two other player-dealers before it banks
again, with warnings 5 and 1 minutes before. The counts live in the session's carried state
(`RotationState`), so a restarted table keeps them.
"""

from __future__ import annotations

from typing import Protocol

from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.session_inputs import BankAccepted
from dealer_assist.table.session_operations import RotationWarning

ROTATION_WINDOW_S = 40 * 60
ROTATION_WARNINGS_MIN = (5, 1)


class RotationState(Protocol):
    """The carried fields a rotation policy reads and keeps (the session's between-rounds data)."""

    pd_seat: int | None
    pd_proposition: bool
    prop_seat: int | None
    window_start: float | None
    window_pds: list[int]
    warned: list[int]


class RotationPolicy(Protocol):
    def check(self, s: RotationState, event: BankAccepted, now: float) -> None:
        """Raise the refusal if `event` may not take the bank now."""

    def count(self, s: RotationState, event: BankAccepted, now: float) -> None:
        """Record a bank taken."""

    def deadline(self, s: RotationState) -> float | None:
        """When two other player-dealers must have banked; None when nothing is due."""

    def warnings(self, s: RotationState, now: float) -> list[RotationWarning]:
        """The warnings due at `now` that were not given yet (recorded as given)."""


class NoLimits:
    """Anyone whose turn it is may bank."""

    def check(self, s: RotationState, event: BankAccepted, now: float) -> None:
        return None

    def count(self, s: RotationState, event: BankAccepted, now: float) -> None:
        return None

    def deadline(self, s: RotationState) -> float | None:
        return None

    def warnings(self, s: RotationState, now: float) -> list[RotationWarning]:
        return []


class CaliforniaRotation:
    """The proposition player's limits of RULES.md §5.6."""

    def check(self, s: RotationState, event: BankAccepted, now: float) -> None:
        if not event.proposition:
            return
        if s.prop_seat is not None and event.seat != s.prop_seat:
            raise RuleError(
                Refusal.ROTATION, f"seat {s.prop_seat} is this table's proposition player: one per table", "5.6"
            )
        if s.pd_proposition and s.pd_seat == event.seat:
            raise RuleError(Refusal.ROTATION, "a proposition player never banks two rounds in a row", "5.6")
        deadline = self.deadline(s)
        if deadline is not None and now >= deadline and len(s.window_pds) < 2:
            raise RuleError(
                Refusal.ROTATION, "two other player-dealers must bank before the proposition player banks again", "5.6"
            )

    def count(self, s: RotationState, event: BankAccepted, now: float) -> None:
        if event.proposition:
            s.prop_seat = event.seat
            if s.window_start is None:
                s.window_start = now
            return
        if event.seat not in s.window_pds:
            s.window_pds.append(event.seat)
        if len(s.window_pds) >= 2 and s.window_start is not None:
            s.window_start, s.window_pds, s.warned = now, [], []

    def deadline(self, s: RotationState) -> float | None:
        if s.prop_seat is None or s.window_start is None:
            return None
        return s.window_start + ROTATION_WINDOW_S

    def warnings(self, s: RotationState, now: float) -> list[RotationWarning]:
        deadline = self.deadline(s)
        if deadline is None or len(s.window_pds) >= 2:
            return []
        due = []
        for minutes in ROTATION_WARNINGS_MIN:
            if now >= deadline - minutes * 60 and minutes not in s.warned:
                s.warned.append(minutes)
                due.append(RotationWarning(minutes))
        return due


def rotation_policy(rotation_rules: bool) -> RotationPolicy:
    """The policy a table's `rotation_rules` setting chooses."""
    return CaliforniaRotation() if rotation_rules else NoLimits()

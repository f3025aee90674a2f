"""The rotation policy a table's `rotation_rules` setting chooses (RULES.md §5.6)."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.rotation import ROTATION_WINDOW_S, CaliforniaRotation, NoLimits, rotation_policy
from dealer_assist.table.session_inputs import BankAccepted

T0 = 1_800_000_000.0


@dataclass
class Carried:
    pd_seat: int | None = None
    pd_proposition: bool = False
    prop_seat: int | None = None
    window_start: float | None = None
    window_pds: list[int] = field(default_factory=list)
    warned: list[int] = field(default_factory=list)


def _banked(policy: CaliforniaRotation | NoLimits, s: Carried, event: BankAccepted, now: float) -> None:
    policy.check(s, event, now)
    s.pd_seat, s.pd_proposition = event.seat, event.proposition
    policy.count(s, event, now)


def test_the_setting_chooses_the_policy():
    assert isinstance(rotation_policy(True), CaliforniaRotation)
    assert isinstance(rotation_policy(False), NoLimits)


def test_without_limits_a_proposition_player_banks_again_and_nothing_is_counted():
    policy, s = NoLimits(), Carried()
    for now in (T0, T0 + 1, T0 + 2 * ROTATION_WINDOW_S):
        _banked(policy, s, BankAccepted(3, 50_000, proposition=True), now)
    assert s == Carried(pd_seat=3, pd_proposition=True)
    assert policy.deadline(s) is None and policy.warnings(s, T0 + 3 * ROTATION_WINDOW_S) == []


def test_california_counts_the_window_and_warns_once_per_mark():
    policy, s = CaliforniaRotation(), Carried()
    _banked(policy, s, BankAccepted(3, 50_000, proposition=True), T0)
    assert policy.deadline(s) == T0 + ROTATION_WINDOW_S
    with pytest.raises(RuleError) as twice:
        policy.check(s, BankAccepted(3, 50_000, proposition=True), T0 + 60)
    assert twice.value.code is Refusal.ROTATION and twice.value.rule == "5.6"
    late = T0 + ROTATION_WINDOW_S - 4 * 60
    assert [w.minutes_left for w in policy.warnings(s, late)] == [5]
    assert policy.warnings(s, late) == []
    _banked(policy, s, BankAccepted(1, 50_000), late)
    _banked(policy, s, BankAccepted(2, 50_000), late + 1)
    assert s.window_start == late + 1 and s.window_pds == [] and s.warned == [], "two others banked: a new window"

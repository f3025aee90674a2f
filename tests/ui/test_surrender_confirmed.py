"""Surrender cannot be taken back, so the dealer's screen asks once more before it is sent."""

from __future__ import annotations

from dealer_assist.rules.inputs import Action, Decide, WagerKind
from ui.common.confirm_overlay import open_confirmation


def test_surrender_is_asked_once_more_and_going_back_keeps_the_hand(table):
    t = table("nobust-4.0", ["9H", "KD", "7H", "5D"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)
    assert Action.SURRENDER in t.enabled_decisions()
    t.decide(Action.SURRENDER)
    question = open_confirmation(t.view)
    assert question is not None and question.question.text() == "Surrender seat 1?"
    assert question.geometry() == t.window.rect(), "the question covers the whole window"
    t.tap(question.back)
    assert open_confirmation(t.view) is None
    hand = t.snap.seat(1).hands[0]
    assert not hand.surrendered and t.snap.decisions.seat == 1, "going back decides nothing"
    t.decide(Action.SURRENDER)
    t.tap(open_confirmation(t.view).yes)
    assert t.snap.seat(1).hands[0].surrendered


def test_a_surrender_question_goes_away_when_the_decision_is_no_longer_due(table):
    t = table("nobust-4.0", ["9H", "KD", "7H", "5D"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)
    t.decide(Action.SURRENDER)
    assert open_confirmation(t.view) is not None
    assert t.controller.submit(Decide(1, 0, Action.STAND)) is None  # decided meanwhile, another way
    assert open_confirmation(t.view) is None, "a question about a decision no longer due is withdrawn"
    assert not t.snap.seat(1).hands[0].surrendered

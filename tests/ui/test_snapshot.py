"""The table snapshot against the tracker, input by input, over random rounds of every profile (no Qt)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dealer_assist.play.random_play import play_random_round
from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, PlaceWager, WagerKind
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.rules.profile import load_profile, profile_names
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.session import TableConfig, TableSession
from dealer_assist.table.session_inputs import BankAccepted, DiscardMisdeal, ShoeLoaded
from dealer_assist.table.snapshot import build_snapshot, build_table_snapshot


def _check(tracker: RoundTracker) -> None:
    snap = build_snapshot(tracker)
    wait = tracker.awaiting()
    assert snap.prompt == tracker.prompt() and snap.need is wait.need and snap.takes_card == tracker.takes_card()
    assert snap.dealer.cards == tuple(tracker.visible_dealer_cards())
    if (
        tracker.profile.dealer_hole_card
        and len(tracker.dealer) == 2
        and tracker.phase not in (Phase.DEALER, Phase.SETTLED)
    ):
        assert None in snap.dealer.cards and snap.dealer.hole_hidden
        hole = tracker.dealer[tracker.profile.hole_index]
        assert hole not in snap.dealer.cards or tracker.dealer.count(hole) > 1
    for action in Action:
        legal = wait.need is Need.DECISION and tracker.can(Decide(wait.seat, wait.hand, action))
        assert snap.decisions.enabled(action) == legal
    for seat in snap.seats:
        hands = tracker.hands.get(seat.seat, [])
        assert [h.cards for h in seat.hands] == [tuple(h.cards) for h in hands]
    assert [(line.seat, line.wager, line.amount) for line in snap.settlement] == [
        (row.seat, row.wager, row.amount) for row in tracker.rows
    ]


@pytest.mark.parametrize("name", profile_names())
def test_the_snapshot_says_what_the_tracker_says_at_every_input(name):
    profile = load_profile(name)
    rng = random.Random(name)
    shoe = Shoe(profile.decks, rng)
    for _ in range(25):
        if shoe.cut_reached:
            shoe.shuffle()
        tracker = play_random_round(profile, rng, shoe.draw, on_input=lambda t, e: _check(t))
        _check(tracker)
        snap = build_snapshot(tracker)
        assert sum(seat.net or 0 for seat in snap.seats) == sum(row.amount for row in tracker.rows)
        if snap.bank is not None:
            assert snap.bank.net == -sum(row.amount for row in tracker.rows)


def test_a_snapshot_cannot_be_changed():
    tracker = RoundTracker(load_profile("sd-buster-a"))
    snap = build_snapshot(tracker)
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.prompt = "anything"  # type: ignore[misc]


def test_a_held_round_names_the_hold_and_who_acts_and_offers_the_dealer_nothing():
    session = TableSession(TableConfig("T-1", "nobust-4.0"))
    for event in (
        ShoeLoaded("S-1", 6),
        BankAccepted(1, 50_000),
        PlaceWager(2, WagerKind.BASE, 1_000),
        CardDrawn(parse_card("5S")),
    ):
        session.apply(event, 0.0)
    snap = build_table_snapshot(session)
    assert snap.prompt == "Hold 5♠ aside and call a floor supervisor" and snap.held
    assert snap.need is Need.WAGERS and not snap.closes_betting, 'no "No more bets" while the misdeal holds'
    assert snap.attention is not None and "betting is open" not in snap.attention.message
    session.apply(DiscardMisdeal("floor-1", "card before no more bets"), 0.0)
    snap = build_table_snapshot(session)
    assert snap.prompt == "Place wagers, then tap No more bets; shoe locked" and not snap.held and snap.closes_betting

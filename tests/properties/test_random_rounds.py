"""Properties over random legal rounds of every profile (RULES.md §5.3, ROUND-FILE.md)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from dealer_assist.history.round_record import RoundRecorder
from dealer_assist.play.random_play import RandomPolicy, play_random_round, random_player_dealer, random_wagers
from dealer_assist.play.round_driver import next_input
from dealer_assist.play.round_file import settle_round
from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.cards import RANKS, SUITS, Card
from dealer_assist.rules.inputs import (
    Action,
    CardDrawn,
    CheckedByHand,
    CloseInsurance,
    Decide,
    Insure,
    NoMoreBets,
    PaymentsMade,
    PeekAnswered,
    PeekResult,
    PlaceWager,
    WagerKind,
)
from dealer_assist.rules.ledger import ledger
from dealer_assist.rules.operations import PaymentDue
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.profile import Coverage, load_profile, profile_names
from dealer_assist.rules.refusals import RuleError
from dealer_assist.rules.tracker import RoundTracker

PROFILES = st.sampled_from(profile_names())
COVERAGE = st.sampled_from([Coverage.RUNNING, Coverage.STAKE])
SEEDS = st.integers(0, 2**32 - 1)
FEW = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _play(name: str, seed: int, coverage: Coverage, full: bool) -> tuple[RoundTracker, dict, dict]:
    overrides = {"coverage": coverage.value} if load_profile(name).player_dealer else {}
    profile = load_profile(name, overrides)
    rng = random.Random(seed)
    shoe = Shoe(profile.decks, rng)
    recorder: list = []
    tracker = play_random_round(profile, rng, shoe.draw, full_table=full, on_input=lambda t, e: recorder.append(e))
    replay = RoundRecorder(name, overrides, tracker.seats, tracker.player_dealer)
    fresh = RoundTracker(profile, tracker.seats, tracker.player_dealer)
    for event in recorder:
        replay.record(event, fresh.apply(event))
    return tracker, ledger(tracker), replay.round_file()


@FEW
@given(PROFILES, SEEDS, COVERAGE, st.booleans())
def test_5_3_amounts_sum_to_minus_the_player_dealers_net(name, seed, coverage, full):
    _, result, _ = _play(name, seed, coverage, full)
    total = round(sum(row["amount"] for row in result["settlements"]), 2)
    seat_total = round(sum(entry["net"] for entry in result["seats"].values()), 2)
    assert seat_total == total
    if result["player_dealer"] is not None:
        assert round(result["player_dealer"]["net"], 2) == -total


@FEW
@given(PROFILES, SEEDS, st.booleans())
def test_5_3_running_coverage_keeps_the_bank_within_its_limits(name, seed, full):
    tracker, result, _ = _play(name, seed, Coverage.RUNNING, full)
    pd = result["player_dealer"]
    if pd is not None:
        assert -pd["bank"] <= pd["net"] <= pd["bank"]


@FEW
@given(PROFILES, SEEDS, COVERAGE, st.booleans())
def test_every_random_round_exports_to_a_round_file_that_settles_to_the_same_ledger(name, seed, coverage, full):
    _, result, round_file = _play(name, seed, coverage, full)
    assert settle_round(round_file) == result


def _candidates(tracker: RoundTracker, rng: random.Random) -> list:
    """Inputs of every kind, most of them illegal at any given moment."""
    seat = rng.randint(0, tracker.seats + 1)
    card = Card(rng.choice(RANKS), rng.choice(SUITS))
    amount = rng.choice([0, 100, 250, 500, 1000, 2500, 50_000, 100_000])
    return [
        CardDrawn(card),
        PlaceWager(seat, rng.choice(list(WagerKind)), amount),
        Decide(seat, rng.randint(0, 3), rng.choice(list(Action)), rng.choice([None, 500, 100])),
        Insure(seat, amount),
        CloseInsurance(),
        PeekAnswered(rng.choice(list(PeekResult))),
        CheckedByHand(rng.random() < 0.5),
        NoMoreBets(),
        PaymentsMade(),
    ]


@settings(max_examples=150, deadline=None)
@given(PROFILES, SEEDS, st.booleans())
def test_what_the_tracker_says_it_would_accept_it_accepts_and_the_reverse(name, seed, live):
    """Half the inputs are random (mostly illegal), half move a legal round on, so every phase is
    probed, of a round file's round and of a live table's (No more bets, what is settled early)."""
    rng = random.Random(seed)
    profile = load_profile(name)
    shoe = Shoe(profile.decks, rng)
    tracker = RoundTracker(
        profile,
        None,
        random_player_dealer(profile, rng, profile.seats),
        dealer_closes_betting=live,
        dealer_settles_early=live,
    )
    legal = random_wagers(tracker, rng)
    for _ in range(300):
        if tracker.phase is Phase.SETTLED:
            break
        if rng.random() < 0.5:
            event = rng.choice(_candidates(tracker, rng))
        elif legal:
            event = legal.pop()
        else:
            event = next_input(tracker, RandomPolicy(rng, shoe.draw))
        said = tracker.verify(event)
        before = _fingerprint(tracker)
        try:
            tracker.apply(event)
        except RuleError as error:
            assert said is not None and error.code == said.code
            assert _fingerprint(tracker) == before, "a refused input changed the round"
        else:
            assert said is None, f"{event} was refused beforehand ({said}) but accepted"


def _fingerprint(tracker: RoundTracker) -> tuple:
    hands = tuple(
        (seat, tuple((tuple(h.cards), h.double, h.ended, h.confirmed) for h in seat_hands))
        for seat, seat_hands in tracker.hands.items()
    )
    return (
        tracker.phase,
        repr(tracker.wagers),
        repr(tracker.insurance),
        tuple(tracker.dealer),
        hands,
        tracker.cards_seen,
        tracker.rows,
        tracker.due,
        repr(tracker.settled_early),
    )


@FEW
@given(PROFILES, SEEDS, COVERAGE, st.booleans())
def test_what_a_live_table_settles_early_is_exactly_what_the_settlement_shows(name, seed, coverage, full):
    """RULES.md §2.15, §2.17, §5.4: every row paid or collected before the round ends equals its
    row in the settlement, whatever the bank (banks as small as $50) and the hands after it; and
    the live table's steps change no row of the settlement."""
    overrides = {"coverage": coverage.value} if load_profile(name).player_dealer else {}
    profile = load_profile(name, overrides)
    rng = random.Random(seed)
    shoe = Shoe(profile.decks, rng)
    live = RoundTracker(
        profile,
        None,
        random_player_dealer(profile, rng, profile.seats),
        dealer_closes_betting=True,
        dealer_settles_early=True,
    )
    policy = RandomPolicy(rng, shoe.draw, random_wagers(live, rng, full_table=full))
    plain = RoundTracker(profile, None, live.player_dealer)
    told: list = []
    while (event := next_input(live, policy)) is not None:
        told += [op for op in live.apply(event) if isinstance(op, PaymentDue)]
        if not isinstance(event, (NoMoreBets, PaymentsMade)):
            plain.apply(event)
    final = {(row.seat, row.hand, row.wager): (row.result, row.amount) for row in live.rows}
    assert all(final[(op.seat, op.hand, op.wager)] == (op.result, op.amount) for op in told)
    assert {key: amount for key, (_, amount) in final.items() if key in live.settled_early} == live.settled_early
    assert live.rows == plain.rows
    note(f"settled early: {len(told)}")

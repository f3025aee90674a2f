"""The Monte Carlo of whole rounds: legal play through the tracker, reproducible, and in line with
the exact odds where those are known."""

from __future__ import annotations

import pytest

from dealer_assist.analysis.buster_odds import buster_odds
from dealer_assist.analysis.game_sim import simulate
from dealer_assist.analysis.lucky_odds import lucky_odds
from dealer_assist.analysis.options import Move
from dealer_assist.analysis.player_strategy import preferred_moves
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.profile import load_profile, profile_names
from dealer_assist.rules.refusals import RuleError
from dealer_assist.rules.settlement import Wager

Z_95, Z_999 = 1.96, 3.29


def _moves(cards: str, up: str) -> tuple[Move, ...]:
    return preferred_moves([parse_card(c) for c in cards.split()], parse_card(up))


@pytest.mark.parametrize(
    ("cards", "up", "first"),
    [
        ("8S 8H", "TC", Move.SPLIT),
        ("AS AD", "6C", Move.SPLIT),
        ("5S 6H", "6C", Move.DOUBLE),
        ("4S 6H", "9C", Move.DOUBLE),
        ("4S 6H", "TC", Move.HIT),
        ("4S 7H 2D", "6C", Move.STAND),
        ("TS 3H", "4C", Move.STAND),
        ("TS 6H", "7C", Move.HIT),
        ("AS 6H", "5C", Move.HIT),
        ("AS 7H", "TC", Move.STAND),
        ("TS 7H", "AC", Move.STAND),
        ("2S 3H", "5C", Move.HIT),
    ],
)
def test_player_strategy_plays_as_documented(cards: str, up: str, first: Move) -> None:
    moves = _moves(cards, up)
    assert moves[0] is first
    assert set(moves[-2:]) == {Move.HIT, Move.STAND}  # a refused move always has somewhere to go


@pytest.mark.parametrize("name", profile_names())
def test_8_4_every_profile_plays_whole_rounds_through_the_tracker(name: str) -> None:
    profile = load_profile(name)
    players = profile.seats - profile.player_dealer
    estimate = simulate(profile, 150, 11, players)
    expected = {Wager.BASE, Wager.BUSTER} | ({Wager.LUCKY_LUCKY} if profile.lucky_lucky else set())
    assert {edge.wager for edge in estimate.edges} == expected
    assert (estimate.rounds, estimate.players) == (150, players)
    assert all(edge.low < edge.edge < edge.high for edge in estimate.edges)


def test_the_same_seed_plays_the_same_rounds() -> None:
    profile = load_profile("c21-8.0")
    assert simulate(profile, 200, 5, 3) == simulate(profile, 200, 5, 3)
    assert simulate(profile, 200, 5, 3) != simulate(profile, 200, 6, 3)


@pytest.mark.slow  # four thousand rounds
def test_2_18_2_19_simulated_side_bets_agree_with_the_exact_odds() -> None:
    """The side bets' exact full-shoe edges lie inside the simulation's 99.9% intervals."""
    profile = load_profile("nobust-4.0")
    estimate = simulate(profile, 4_000, 2026, 3)
    exact = {
        Wager.BUSTER: buster_odds(6, True, profile.buster_pays).house_edge,
        Wager.LUCKY_LUCKY: lucky_odds(6).house_edge,
    }
    for edge in estimate.edges:
        if edge.wager in exact:
            half_999 = (edge.high - edge.low) / 2 * Z_999 / Z_95
            assert abs(edge.edge - float(exact[edge.wager])) < half_999


@pytest.mark.parametrize(
    ("rounds", "players", "code"), [(1, 3, "bad_rounds"), (10, 0, "bad_players"), (10, 8, "bad_players")]
)
def test_a_simulation_needs_two_rounds_and_seated_players(rounds: int, players: int, code: str) -> None:
    with pytest.raises(RuleError) as refused:
        simulate(load_profile("nobust-4.0"), rounds, 1, players)
    assert refused.value.code == code

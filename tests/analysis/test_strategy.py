"""The optimal strategy of the base game: the published standard figure, the command, the table's
properties against the tracker, and (slow) the tracker's own rounds agreeing with the EV."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.analysis.base_game import BaseGame, analyze
from dealer_assist.analysis.optimal_play import OptimalPlayer
from dealer_assist.analysis.options import Move
from dealer_assist.analysis.strategy_check import play_table
from dealer_assist.analysis.strategy_table import VALUE_LABEL
from dealer_assist.rules.cards import RANKS, SUITS, Card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.tracker import RoundTracker
from tests.analysis.strategy_rounds import exact_result, to_decision
from ui.cli import main

GAMES = ("nobust-4.0", "c21-8.0", "sd-buster-a")
_ACTION = {
    Move.STAND: Action.STAND,
    Move.DOUBLE: Action.DOUBLE,
    Move.SPLIT: Action.SPLIT,
    Move.SURRENDER: Action.SURRENDER,
}


@cache
def game(name: str, decks: int | None = None) -> BaseGame:
    return analyze(load_profile(name), decks)


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["analyze", "strategy", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_standard_blackjack_infinite_deck_house_edge_is_the_published_0_51_percent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """sd-buster-a's base game is standard blackjack: S17, 3:2, double any two, double after split,
    split to 4 hands, Aces once, no surrender, peek. Its infinite-deck house edge is published as
    0.51 % (the figure quoted in the card room's request for this analysis, "house edge about
    0.51 %"); the exact finite-deck tables of the Wizard of Odds are checked in the next test, and
    the finite model's limit in the one after."""
    data = _json(capsys, "--profile", "sd-buster-a", "--infinite")
    assert (data["profile"], data["decks"]) == ("sd-buster-a", "infinite")
    assert f"{-data['ev']:.2%}" == "0.51%"
    assert list(data["by_up_card"]) == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T"]
    assert "infinite deck" in data["model"]
    assert data["insurance"] == pytest.approx(-1 / 13), "insurance: 2 to 1 on a 4/13 chance"


@pytest.mark.parametrize(("decks", "published"), [(2, -0.003797), (5, -0.005918)])
def test_the_finite_shoe_approximation_is_near_the_published_exact_figures(decks: int, published: float) -> None:
    """Dealer hits soft 17, double any two and after a split, re-split to 4 hands but not Aces, one
    card on split Aces, peek, no surrender: the Wizard of Odds, Blackjack Appendix 9,
    wizardofodds.com/games/blackjack/appendix/9/2dh17r4/ (-0.003797) and .../5dh17r4/ (-0.005918),
    computed with the exact composition at every step. Our approximation is within 0.03 %."""
    profile = load_profile("sd-buster-a", {"decks": decks, "dealer_hits_soft_17": True})
    assert analyze(profile, decks).ev == pytest.approx(published, abs=0.0003)


def test_the_finite_model_tends_to_the_infinite_deck() -> None:
    profile = load_profile("sd-buster-a")
    assert analyze(profile, 2_000).ev == pytest.approx(game("sd-buster-a").ev, abs=2e-5)


def test_fewer_decks_are_better_for_the_player_and_the_finite_model_is_stated(
    capsys: pytest.CaptureFixture[str],
) -> None:
    one, six = game("sd-buster-a", 1), game("sd-buster-a", 6)
    assert one.ev > six.ev > game("sd-buster-a").ev
    data = _json(capsys, "--profile", "sd-buster-a", "--decks", "2")
    assert data["decks"] == 2 and "approximated" in data["model"]


def test_nobust_is_decided_against_the_player_dealers_two_cards(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "--profile", "nobust-4.0", "--infinite")
    hands = data["by_player_dealer_hand"]
    assert set(hands) == {f"hard {t}" for t in range(4, 21)} | {f"soft {t}" for t in range(12, 21)} | {"natural"}
    # a known player-dealer Natural ends play: everything loses but a player Natural, which pushes
    natural = 2 * (1 / 13) * (4 / 13)
    assert hands["natural"] == pytest.approx(-(1 - natural))
    assert data["strategy"]["natural"]["start"] == {}
    # the player-dealer's hard 16 must draw and is the player's best column; soft 20 the worst drawn-to
    assert hands["hard 16"] == max(hands.values())
    assert data["ev"] > 0.05, "seeing both of the player-dealer's cards is a large edge"
    assert data["insurance"] is None and "not offered" in data["model"]
    assert data["strategy"]["hard 20"]["start"]["hard 11"]["ev"].keys() >= {"hit", "double", "surrender"}
    assert "stand" not in data["strategy"]["hard 20"]["start"]["hard 11"]["ev"], "hard 11 must hit (RULES.md §2.10)"


def test_the_chart_is_a_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "card.png"
    assert main(["analyze", "strategy", "--profile", "c21-8.0", "--infinite", "--chart", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "chart written to" in capsys.readouterr().out


def test_decks_the_profile_does_not_allow_are_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "strategy", "--profile", "c21-8.0", "--decks", "4"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert "decks" in error["message"]
    assert main(["analyze", "strategy", "--profile", "c21-8.0", "--infinite", "--decks", "6"]) == 2
    assert "not allowed with argument" in json.loads(capsys.readouterr().out)["error"]["message"]


# --- properties ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "shoe", [("--infinite",), pytest.param(("--decks", "6"), marks=pytest.mark.slow)], ids=["infinite", "6 decks"]
)
@pytest.mark.parametrize("name", GAMES)
def test_the_printed_best_move_has_the_largest_ev_of_the_allowed_moves(
    name: str, shoe: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    """With a finite shoe a starting cell averages its deals' EVs: the best is still the largest."""
    data = _json(capsys, "--profile", name, *shoe)
    cells = 0
    for label, column in data["strategy"].items():
        for table in ("start", "after_split", "later"):
            for key, cell in column[table].items():
                assert cell["ev"], f"{name} {label} {table} {key}: no move"
                assert cell["ev"][cell["best"]] == max(cell["ev"].values()), f"{name} {label} {table} {key}"
                cells += 1
    assert cells > 500


cards = st.sampled_from([Card(rank, suit) for rank in RANKS for suit in SUITS])


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    player=st.lists(cards, min_size=2, max_size=2),
    dealer=st.lists(cards, min_size=2, max_size=2),
    shoe=st.lists(cards, min_size=12, max_size=12),
)
def test_the_table_only_names_moves_the_tracker_accepts_and_has_a_cell_for_every_decision(
    name: str, player: list[Card], dealer: list[Card], shoe: list[Card]
) -> None:
    """Seat 1 plays the table from the deal to its last hand; at every decision the cell read exists
    and holds exactly the moves the tracker accepts (a split hand's re-split is its own choice)."""
    tracker = to_decision(load_profile(name), [str(c) for c in player], [str(c) for c in dealer])
    if tracker is None:
        return
    optimal = OptimalPlayer(game(name))
    cards_left = list(shoe)
    while cards_left and tracker.phase is Phase.PLAYING:
        wait = tracker.awaiting()
        if wait.need is Need.DECISION:
            assert wait.seat == 1 and wait.hand is not None
            accepted = {move for move, action in _ACTION.items() if tracker.can(Decide(1, wait.hand, action))}
            if tracker.takes_card():
                accepted.add(Move.HIT)
            assert set(_moves_now(optimal, tracker)) == accepted, f"{name}: {tracker.hands[1][wait.hand].cards}"
            decision = optimal.decide(tracker, 1, wait.hand)
            tracker.apply(CardDrawn(cards_left.pop()) if decision is None else decision)
        else:
            tracker.apply(CardDrawn(cards_left.pop()))


def _moves_now(optimal: OptimalPlayer, tracker: Any) -> set[Move]:
    """The moves the table weighs for the hand awaiting a decision: its cell, and a re-split
    where the column has the choice for this split hand."""
    wait = tracker.awaiting()
    moves = set(optimal.cell(tracker, wait.seat, wait.hand))
    hands = tracker.hands[wait.seat]
    hand = hands[wait.hand]
    pair = f"pair {VALUE_LABEL[hand.cards[0].value]}"
    if (
        hand.from_split
        and len(hand.cards) == 2
        and (len(hands), len(hands) - wait.hand) in optimal.column(tracker).resplit.get(pair, {})
    ):
        if optimal._is_pair(hand.cards):
            moves.add(Move.SPLIT)
    return moves


@pytest.mark.parametrize("name", [pytest.param(GAMES[0], marks=pytest.mark.slow), *GAMES[1:]])
def test_every_two_card_deal_against_every_dealer_hand_has_its_starting_cell(name: str) -> None:
    optimal = OptimalPlayer(game(name))
    profile = load_profile(name)
    checked = 0
    for a in RANKS:
        for b in RANKS:
            for d in RANKS:
                for e in ("2", "7", "T", "A") if profile.dealer_hole_card else RANKS:
                    tracker = to_decision(profile, [a + "S", b + "H"], [d + "D", e + "C"])
                    if tracker is None:
                        continue
                    optimal.move(tracker, 1, 0)
                    checked += 1
    assert checked > 1000


# --- the tracker's own rounds ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "column", "cell", "moves"),
    [
        # the player-dealer draws exactly one card: over totals 22-26, the three-card 25 and equal overs push
        (("5S", "6H", "TD", "TC"), "hard 16", "hard 15", "stand hit double surrender"),
        # split Aces: one card each, never a Natural, never re-split; the player-dealer stands
        (("AS", "TH", "AD", "QC"), "hard 20", "pair A", "split double stand surrender"),
        # the player-dealer draws to several cards against a pair played as a hand
        (("8S", "7H", "8D", "5C"), "hard 12", "pair 8", "stand hit double"),
    ],
)
def test_a_player_dealer_hands_moves_are_worth_exactly_their_ev_through_the_tracker(
    deal: tuple[str, ...], column: str, cell: str, moves: str
) -> None:
    """In nobust-4.0 the player sees both of the player-dealer's cards: for one deal, each first
    move followed by the table is summed over every card that can come (infinite deck), each branch
    a whole round through the tracker, and equals the model's EV of that move. (The moves left out
    grow trees of 50,000 rounds and more; splitting T-T against hard 16, 1.7 million rounds, agrees
    to 2e-16.)"""
    profile = load_profile("nobust-4.0")
    optimal = OptimalPlayer(game("nobust-4.0"))
    values = game("nobust-4.0").columns[column].start[cell]
    for first in map(Move, moves.split()):

        def choose(tracker: RoundTracker, seat: int, hand: int, first: Move = first) -> Decide | None:
            hands = tracker.hands[seat]
            if len(hands) == 1 and len(hands[0].cards) == 2:
                return None if first is Move.HIT else Decide(seat, hand, _ACTION[first])
            return optimal.decide(tracker, seat, hand)

        assert exact_result(profile, list(deal), choose) == pytest.approx(values[first], abs=1e-12), f"{cell} {first}"


def test_the_trackers_rounds_are_also_counted_by_the_dealer_column_they_were_played_against() -> None:
    g = game("nobust-4.0")
    sample = play_table(g, 2_000, 7)
    assert set(sample.by_column) <= set(g.columns) and len(sample.by_column) > 20
    assert sum(column.rounds for column in sample.by_column.values()) == 2_000
    assert sum(column.rounds * column.mean for column in sample.by_column.values()) == pytest.approx(
        2_000 * sample.mean
    )
    natural = sample.by_column["natural"]
    assert -1 <= natural.mean < -0.8, "against a player-dealer Natural everything loses but a Natural, which pushes"


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_the_trackers_rounds_played_by_the_table_agree_with_the_ev(name: str) -> None:
    g = game(name)
    sample = play_table(g, 200_000, 2026)
    assert abs(sample.distance(g.ev)) < 3, (
        f"{name}: mean {sample.mean:+.4%} vs EV {g.ev:+.4%}, SE {sample.standard_error:.4%}"
    )


def test_eights_against_a_six_are_split_and_split_again_to_four_hands() -> None:
    tracker = to_decision(load_profile("sd-buster-a"), ["8S", "8H"], ["6D", "9C"])
    assert tracker is not None
    optimal = OptimalPlayer(game("sd-buster-a"))
    shoe = [Card(rank, "C") for rank in "TTTT8888"]
    while tracker.phase is Phase.PLAYING:
        wait = tracker.awaiting()
        if wait.need is Need.DECISION:
            assert wait.hand is not None
            decision = optimal.decide(tracker, 1, wait.hand)
            tracker.apply(CardDrawn(shoe.pop()) if decision is None else decision)
        else:
            tracker.apply(CardDrawn(shoe.pop()))
    assert [len(hand.cards) for hand in tracker.hands[1]] == [2, 2, 2, 2]

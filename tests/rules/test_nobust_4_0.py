"""RULES.md §2: No Bust 21st Century Buster Blackjack 4.0 with Lucky Lucky (profile `nobust-4.0`).

Every round is a stacked shoe; every expected row is worked out by hand from the rule it cites.
Unless a test says otherwise the player-dealer sits in seat 4 with a 500 bank and seat 1 bets 10.
"""

from __future__ import annotations

import pytest
from rulebook import (
    PD_SEAT4,
    buster_rows,
    button_round,
    hand,
    heads_up,
    make_round,
    refused,
    rotated,
    rows,
    settle,
    stack,
)

from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, PlaceWager, WagerKind
from dealer_assist.rules.operations import NaturalPaidEarly
from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.refusals import RuleError
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker

NB = "nobust-4.0"


def base_row(ledger: dict) -> tuple:
    """The only base row of a heads-up round."""
    (row,) = rows(ledger, "base")
    return row


# --- table and deal -----------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [2, 8])
def test_4_0_rule_1_two_to_eight_decks_load(decks):
    assert load_profile(NB, {"decks": decks}).decks == decks


@pytest.mark.parametrize("decks", [1, 9])
def test_4_0_rule_1_decks_outside_two_to_eight_are_refused(decks):
    with pytest.raises(RuleError) as caught:
        load_profile(NB, {"decks": decks})
    assert caught.value.code == "bad_setting" and "decks" in caught.value.message


def test_4_0_rule_1_eight_seats_one_of_them_the_player_dealer():
    assert load_profile(NB).seats == 8
    cards = stack({1: ["TS", "8H"], 8: ["TD", "8C"]}, ["9C", "8D"])
    ledger = settle(
        make_round(NB, cards, {1: {"base": 10}, 8: {"base": 10}}, actions={1: ["stand"], 8: ["stand"]}, pd=PD_SEAT4)
    )
    assert [r[3] for r in rows(ledger)] == ["win", "win"]  # 18 beats 17
    error = refused(make_round(NB, cards, {4: {"base": 10}, 8: {"base": 10}}, pd=PD_SEAT4))
    assert error.code == "player_dealer_seat" and "seat 4" in error.message


def test_4_0_rule_2_deal_one_card_each_seat_then_pd_twice_all_face_up():
    """Seats 1 and 6 bet, the PD is seat 4: 1, 6, PD, 1, 6, PD."""
    cards = ["TS", "9H", "8D", "7C", "8S", "9C"]
    ledger = settle(
        make_round(NB, cards, {1: {"base": 10}, 6: {"base": 10}}, actions={1: ["stand"], 6: ["stand"]}, pd=PD_SEAT4)
    )
    assert hand(ledger, 1)["cards"] == ["TS", "7C"]
    assert hand(ledger, 6)["cards"] == ["9H", "8S"]
    assert ledger["dealer"] == {"cards": ["8D", "9C"], "total": 17, "status": "under"}
    assert [r[3] for r in rows(ledger)] == ["push", "push"]


def test_4_0_rule_2_no_hole_card_means_no_insurance_even_with_an_ace_up():
    error = refused(
        make_round(
            NB,
            stack({1: ["TS", "8H"]}, ["AS", "9H"]),
            {1: {"base": 10}},
            actions={1: ["stand"]},
            pd=PD_SEAT4,
            insurance={1: 5},
        )
    )
    assert error.code == "insurance_not_offered" and error.rule == "8.8"


def test_4_0_rule_3_lucky_lucky_uses_the_pds_first_card():
    """7-7 with the PD's first card 7D is 7-7-7 (50:1); the second card KC would make 24, a loss."""
    ledger = heads_up(NB, ["7S", "7H"], ["7D", "KC"], ["stand"], wagers={"base": 10, "lucky_lucky": 5})
    assert rows(ledger, "lucky_lucky") == [(1, 0, "lucky_lucky", "win", 5, 250)]


def test_4_0_rule_3_lucky_lucky_follows_the_up_card_setting():
    """With a hole card and `dealer_up_card = 2` the second card (7D) is up: 7-7-7 again."""
    ledger = heads_up(
        NB,
        ["7S", "7H"],
        ["KC", "7D"],
        ["stand"],
        wagers={"base": 10, "lucky_lucky": 5},
        settings={"dealer_hole_card": True, "dealer_up_card": 2},
    )
    assert rows(ledger, "lucky_lucky") == [(1, 0, "lucky_lucky", "win", 5, 250)]


# --- hand ranking and outcomes -------------------------------------------------------------------


def test_4_0_rule_4_natural_pays_3_to_2_and_totals_22():
    ledger = heads_up(NB, ["AS", "KH"], ["9D", "8C"])
    assert base_row(ledger) == (1, 0, "base", "win", 10, 15)
    assert hand(ledger, 1)["status"] == "natural" and hand(ledger, 1)["total"] == 22


def test_4_0_rule_4_natural_against_natural_pushes_and_every_other_hand_loses():
    """PD AS KD: the K puts the button 6 seats on from seat 4 (seat 2), so seat 2 settles first."""
    cards = stack({1: ["AH", "QC"], 2: ["TS", "9S"]}, ["AS", "KD"])
    ledger = settle(make_round(NB, cards, {1: {"base": 10}, 2: {"base": 10}}, pd=PD_SEAT4))
    assert ledger["action_seat"] == 2
    assert rows(ledger) == [(2, 0, "base", "lose", 10, -10), (1, 0, "base", "push", 10, 0)]
    assert ledger["dealer"] == {"cards": ["AS", "KD"], "total": 22, "status": "natural"}


def test_4_0_rule_4_ace_and_ten_after_a_split_is_21_paid_even_money():
    cards = stack({1: ["AS", "AH"]}, ["TD", "TC"], "KD", "5C")
    ledger = settle(make_round(NB, cards, {1: {"base": 10}}, actions={1: ["split"]}, pd=PD_SEAT4))
    assert hand(ledger, 1, 0) == {
        "seat": 1,
        "hand": 0,
        "cards": ["AS", "KD"],
        "total": 21,
        "status": "under",
        "doubled": False,
        "surrendered": False,
    }
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10), (1, 1, "base", "lose", 10, -10)]


def test_4_0_rule_5_under_beats_an_over_pd():
    ledger = heads_up(NB, ["TS", "8H"], ["TD", "6C", "KH"], ["stand"])
    assert ledger["dealer"]["status"] == "over"
    assert base_row(ledger) == (1, 0, "base", "win", 10, 10)


def test_4_0_rule_5_both_under_higher_wins_equal_pushes():
    """PD 9-9 = 18; seats 19, 17, 18. The second 9 counts 2 seats on to seat 6, empty, so seat 1 leads."""
    cards = stack({1: ["TS", "9S"], 2: ["TH", "7H"], 3: ["TD", "8D"]}, ["9C", "9D"])
    ledger = settle(
        make_round(
            NB, cards, {s: {"base": 10} for s in (1, 2, 3)}, actions={s: ["stand"] for s in (1, 2, 3)}, pd=PD_SEAT4
        )
    )
    assert rows(ledger) == [
        (1, 0, "base", "win", 10, 10),
        (2, 0, "base", "lose", 10, -10),
        (3, 0, "base", "push", 10, 0),
    ]


def test_4_0_rule_6_over_player_loses_to_an_under_pd():
    ledger = heads_up(NB, ["TS", "5H", "8D"], ["TD", "7C"], ["hit"])
    assert hand(ledger, 1)["status"] == "over"
    assert base_row(ledger) == (1, 0, "base", "lose", 10, -10)


@pytest.mark.parametrize(
    "player, dealer, settings, result",
    [
        pytest.param(["TS", "6H", "9D"], ["TD", "6C", "7H"], {}, "lose", id="pd-23-closer-than-25"),
        pytest.param(["TS", "5H", "8D"], ["TD", "6C", "9H"], {}, "lose", id="player-23-closer-no-push-total"),
        pytest.param(["5S", "4H", "6D", "KD"], ["TD", "6C", "KH"], {}, "lose", id="four-card-25-loses"),
        pytest.param(["TS", "4H", "KD"], ["TD", "6C", "8H"], {}, "push", id="equal-24-pushes"),
        pytest.param(["TS", "4H", "KD"], ["TD", "6C", "8H"], {"over_tie": "dealer"}, "lose", id="over-tie-dealer"),
        pytest.param(
            ["TS", "5H", "8D"],
            ["TD", "6C", "9H"],
            {"no_bust_push_totals": [23, 24, 25]},
            "push",
            id="push-totals-setting-23",
        ),
    ],
)
def test_4_0_rule_7_both_over(player, dealer, settings, result):
    """A Buster makes the PD complete its hand even where the base wager is already lost (§2.9)."""
    ledger = heads_up(
        NB, player, dealer, ["hit"] * (len(player) - 2), settings=settings, wagers={"base": 10, "buster": 1}
    )
    assert ledger["dealer"]["status"] == hand(ledger, 1)["status"] == "over"
    assert base_row(ledger) == (1, 0, "base", result, 10, -10 if result == "lose" else 0)


def test_4_0_rule_7_three_card_25_pushes():
    """P 10-5-K = 25 (three cards) is closer than the PD's 26: the No Bust push."""
    ledger = heads_up(NB, ["TS", "5H", "KD"], ["TD", "6C", "KH"], ["hit"])
    assert (hand(ledger, 1)["total"], ledger["dealer"]["total"]) == (25, 26)
    assert base_row(ledger) == (1, 0, "base", "push", 10, 0)


# --- the PD's drawing ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "dealer, total",
    [
        pytest.param(["AS", "6H", "2D"], 19, id="hits-soft-17"),
        pytest.param(["TS", "6H", "5D"], 21, id="hits-hard-16"),
        pytest.param(["TS", "7H"], 17, id="stands-hard-17"),
        pytest.param(["AS", "7H"], 18, id="stands-soft-18"),
        pytest.param(["9S", "7H", "AC"], 17, id="ace-as-one-makes-hard-17"),
        pytest.param(["AS", "5H", "AD", "KD"], 17, id="soft-16-soft-17-hard-17"),
    ],
)
def test_4_0_rule_8_pd_hits_soft_17_stands_hard_17(dealer, total):
    """A spare 2C follows the PD's cards: it must stay in the shoe."""
    ledger = heads_up(NB, ["TS", "8H"], [*dealer, "2C"], ["stand"])
    assert ledger["dealer"]["cards"] == dealer and ledger["dealer"]["total"] == total
    assert ledger["unused_cards"] == 1


def test_4_0_rule_9_pd_completes_for_a_buster_even_if_every_player_has_a_natural():
    """Seat 1 has a Natural and a Buster: the PD draws 15 + 9 = 24, a 3-card bust (2:1)."""
    ledger = heads_up(NB, ["AS", "KH"], ["TD", "5C", "9H"], wagers={"base": 10, "buster": 5})
    assert ledger["dealer"]["cards"] == ["TD", "5C", "9H"]
    assert rows(ledger) == [(1, 0, "base", "win", 10, 15), (1, 0, "buster", "win", 5, 10)]


@pytest.mark.parametrize(
    "player, actions, result, amount",
    [
        pytest.param(["AS", "KH"], [], "win", 15, id="natural"),
        pytest.param(["TS", "6H"], ["surrender"], "surrender", -5, id="surrender"),
    ],
)
def test_4_0_rule_9_pd_does_not_draw_when_nothing_depends_on_it(player, actions, result, amount):
    ledger = heads_up(NB, [*player], ["TD", "5C", "9H"], actions)
    assert ledger["dealer"] == {"cards": ["TD", "5C"], "total": 15, "status": "under"}
    assert ledger["unused_cards"] == 1
    assert base_row(ledger) == (1, 0, "base", result, 10, amount)


# --- player options ------------------------------------------------------------------------------


def test_4_0_rule_10_stand_on_hard_11_is_refused():
    error = refused(
        make_round(NB, stack({1: ["5S", "6H"]}, ["TD", "7C"]), {1: {"base": 10}}, actions={1: ["stand"]}, pd=PD_SEAT4)
    )
    assert error.code == "must_hit" and error.rule == "2.10" and "11" in error.message


def test_4_0_rule_10_hit_on_hard_17_is_refused():
    error = refused(
        make_round(
            NB, stack({1: ["TS", "7H"]}, ["TD", "8C"], "2D"), {1: {"base": 10}}, actions={1: ["hit"]}, pd=PD_SEAT4
        )
    )
    assert error.rule == "2.10" and "must stand" in error.message


def test_4_0_rule_10_hard_17_after_a_hit_stands_by_itself():
    """10-4 hits a 3: hard 17 ends the hand; the PD's 18 wins; the redundant stand is accepted."""
    for actions in (["hit"], ["hit", "stand"]):
        ledger = heads_up(NB, ["TS", "4H", "3D"], ["TC", "8C"], actions)
        assert hand(ledger, 1)["cards"] == ["TS", "4H", "3D"]
        assert base_row(ledger) == (1, 0, "base", "lose", 10, -10)


@pytest.mark.parametrize(
    "first, second, prompt",
    [
        ("KS", "QH", "Seat 1 must stand on hard 20 (or surrender)"),
        ("9S", "9H", "Seat 1 must stand on hard 18 (or split / surrender)"),
    ],
)
def test_4_0_rule_10_a_must_stand_prompt_names_only_the_moves_still_allowed(first, second, prompt):
    tracker = RoundTracker(load_profile(NB), None, PlayerDealer(4, 50_000))
    tracker.apply(PlaceWager(1, WagerKind.BASE, 1_000))
    for code in (first, "TD", second, "7C"):
        tracker.apply(CardDrawn(parse_card(code)))
    assert tracker.prompt() == prompt


def test_4_0_a_player_dealers_natural_is_named_as_the_settlement_opens():
    tracker = RoundTracker(load_profile(NB), None, PlayerDealer(4, 50_000))
    tracker.apply(PlaceWager(1, WagerKind.BASE, 1_000))
    for code in ("TS", "AD", "9H", "KC"):
        tracker.apply(CardDrawn(parse_card(code)))
    assert tracker.prompt() == "The player-dealer has a Natural — settle in order"


def test_4_0_rule_10_soft_17_may_hit_and_12_may_stand():
    soft = heads_up(NB, ["AS", "6H", "TD"], ["TC", "8C"], ["hit"])
    assert hand(soft, 1)["total"] == 17 and base_row(soft)[3] == "lose"
    twelve = heads_up(NB, ["TS", "2H"], ["TC", "6C", "KD"], ["stand"])
    assert hand(twelve, 1)["cards"] == ["TS", "2H"] and base_row(twelve) == (1, 0, "base", "win", 10, 10)


def test_4_0_rule_11_double_gets_one_card_for_an_equal_wager():
    """5-6 doubles and gets only the 2 (13); the K goes to the PD (15 + K = 25): the player wins 20."""
    ledger = heads_up(NB, ["5S", "6H", "2D"], ["TD", "5C", "KH"], ["double"])
    assert hand(ledger, 1)["cards"] == ["5S", "6H", "2D"] and hand(ledger, 1)["doubled"] is True
    assert ledger["dealer"]["cards"] == ["TD", "5C", "KH"]
    assert base_row(ledger) == (1, 0, "base", "win", 20, 20)


def test_4_0_rule_11_double_for_less_at_least_the_table_minimum():
    ledger = heads_up(NB, ["5S", "6H", "9D"], ["TD", "8C"], ["double:5"])
    assert base_row(ledger) == (1, 0, "base", "win", 15, 15)


@pytest.mark.parametrize("token", ["double:4", "double:15"])
def test_4_0_rule_11_double_outside_minimum_to_original_is_refused(token):
    error = refused(
        make_round(
            NB, stack({1: ["5S", "6H"]}, ["TD", "8C"], "9D"), {1: {"base": 10}}, actions={1: [token]}, pd=PD_SEAT4
        )
    )
    assert error.code == "wager_limit" and "double" in error.message


def test_4_0_rule_11_double_after_a_split():
    """8-8 splits: hand 0 gets T (18, stands), hand 1 gets 3 (11), doubles and gets K: 21 on 20."""
    cards = stack({1: ["8S", "8H"]}, ["TC", "9C"], "TD", "3D", "KD")
    ledger = settle(make_round(NB, cards, {1: {"base": 10}}, actions={1: ["split", "stand", "double"]}, pd=PD_SEAT4))
    assert hand(ledger, 1, 1)["cards"] == ["8H", "3D", "KD"] and hand(ledger, 1, 1)["doubled"] is True
    assert rows(ledger) == [(1, 0, "base", "lose", 10, -10), (1, 1, "base", "win", 20, 20)]


def test_4_0_rule_11_no_double_on_split_aces():
    """Split Aces take one card each and end: a double token has no hand to answer."""
    cards = stack({1: ["AS", "AH"]}, ["TC", "9C"], "5D", "6D")
    error = refused(make_round(NB, cards, {1: {"base": 10}}, actions={1: ["split", "double"]}, pd=PD_SEAT4))
    assert error.code == "leftover_decision" and "double" in error.message


def test_4_0_rule_12_split_to_four_hands_each_with_the_original_wager():
    """8-8, re-split twice: hands in play order 8S+8C.., 8C.., 8D.., 8H..; each 18 beats the PD's 17."""
    cards = stack({1: ["8S", "8H"]}, ["7S", "KH"], "8D", "8C", "TS", "TH", "TD", "TC")
    ledger = settle(
        make_round(
            NB,
            cards,
            {1: {"base": 10}},
            actions={1: ["split", "split", "split", "stand", "stand", "stand", "stand"]},
            pd=PD_SEAT4,
        )
    )
    assert [h["cards"] for h in ledger["hands"]] == [["8S", "TS"], ["8C", "TH"], ["8D", "TD"], ["8H", "TC"]]
    assert rows(ledger) == [(1, i, "base", "win", 10, 10) for i in range(4)]
    assert ledger["seats"]["1"]["net"] == 40


def test_4_0_rule_12_no_fifth_hand():
    cards = stack({1: ["8S", "8H"]}, ["7S", "KH"], "8D", "8C", "8S")
    error = refused(
        make_round(NB, cards, {1: {"base": 10}}, actions={1: ["split", "split", "split", "split"]}, pd=PD_SEAT4)
    )
    assert error.code == "illegal_action" and error.rule == "2.12" and "4 hands" in error.message


def test_4_0_rule_12_ten_value_cards_of_different_rank_are_no_pair():
    error = refused(
        make_round(
            NB, stack({1: ["KS", "QH"]}, ["7S", "KH"], "5D"), {1: {"base": 10}}, actions={1: ["split"]}, pd=PD_SEAT4
        )
    )
    assert error.code == "illegal_action" and error.rule == "2.12"


def test_4_0_rule_12_aces_split_once():
    """A-A split, the first hand draws another Ace: it has its one card and is not split again."""
    cards = stack({1: ["AS", "AH"]}, ["TC", "9C"], "AD", "6D")
    ledger = settle(make_round(NB, cards, {1: {"base": 10}}, actions={1: ["split"]}, pd=PD_SEAT4))
    assert [h["cards"] for h in ledger["hands"]] == [["AS", "AD"], ["AH", "6D"]]
    error = refused(make_round(NB, cards, {1: {"base": 10}}, actions={1: ["split", "split"]}, pd=PD_SEAT4))
    assert error.code == "leftover_decision" and "split" in error.message


def test_4_0_rule_13_surrender_loses_half_the_wager():
    ledger = heads_up(NB, ["TS", "6H"], ["TD", "7C"], ["surrender"])
    assert hand(ledger, 1)["surrendered"] is True
    assert base_row(ledger) == (1, 0, "base", "surrender", 10, -5)


def test_4_0_rule_13_no_surrender_against_a_pd_natural():
    error = refused(
        make_round(
            NB, stack({1: ["TS", "6H"]}, ["AD", "KC"]), {1: {"base": 10}}, actions={1: ["surrender"]}, pd=PD_SEAT4
        )
    )
    assert error.code == "leftover_decision" and "surrender" in error.message


HOLE = {"dealer_hole_card": True}


def test_4_0_rule_14_insurance_with_a_hole_card_loses_without_a_natural():
    """PD AS up, 9H hole: insurance is offered; no Natural, so it loses; 18 loses to soft 20."""
    ledger = heads_up(NB, ["TS", "8H"], ["AS", "9H"], ["stand"], settings=HOLE, insurance={1: 5})
    assert rows(ledger) == [(1, 0, "insurance", "lose", 5, -5), (1, 0, "base", "lose", 10, -10)]


def test_4_0_rule_14_insurance_pays_2_to_1_on_a_pd_natural():
    ledger = heads_up(NB, ["TS", "8H"], ["AS", "KD"], settings=HOLE, insurance={1: 5})
    assert rows(ledger) == [(1, 0, "insurance", "win", 5, 10), (1, 0, "base", "lose", 10, -10)]


def test_4_0_rule_14_insurance_at_most_half_the_wager():
    error = refused(
        make_round(
            NB,
            stack({1: ["TS", "8H"]}, ["AS", "9H"]),
            {1: {"base": 10}},
            actions={1: ["stand"]},
            pd=PD_SEAT4,
            settings=HOLE,
            insurance={1: 6},
        )
    )
    assert error.code == "wager_limit" and "half" in error.message


def test_4_0_rule_15_a_natural_is_paid_before_play_and_settled_in_its_place():
    """Seat 1's Natural is announced when the deal ends, while seat 2 still has to act."""
    tracker = RoundTracker(load_profile(NB), None, PlayerDealer(4, 50_000))
    for seat in (1, 2):
        tracker.apply(PlaceWager(seat, WagerKind.BASE, 1_000))
    ops = [op for code in ["AS", "TH", "9D", "KH", "5C", "8C"] for op in tracker.apply(CardDrawn(parse_card(code)))]
    assert NaturalPaidEarly(1, 0) in ops
    assert (tracker.awaiting().seat, tracker.awaiting().hand) == (2, 0)
    tracker.apply(Decide(2, 0, Action.STAND))
    assert [(r.seat, r.result.value, r.amount) for r in tracker.rows] == [(1, "win", 1_500), (2, "lose", -1_000)]


# --- action button ------------------------------------------------------------------------------

PLAYERS = [1, 2, 3, 5, 6, 7, 8]


@pytest.mark.parametrize(
    "card, seat",
    [
        ("AC", 5),
        ("2C", 6),
        ("7C", 3),
        ("8C", 5),
        ("TC", 7),
        ("JC", 8),
        ("QC", 1),
        ("KC", 2),
    ],
)
def test_4_0_rule_16_action_button_counts_the_pds_second_card(card, seat):
    """PD in seat 4 of 8: positions 1..7 are seats 5,6,7,8,1,2,3; ((value - 1) mod 7) + 1."""
    ledger = button_round(NB, PLAYERS, ["9C", card], "9D", "9H")
    assert ledger["action_seat"] == seat
    assert [r[0] for r in rows(ledger, "base")] == rotated(PLAYERS, seat)


@pytest.mark.parametrize("card, seat", [("KC", 3), ("6C", 1), ("JC", 1), ("4C", 4)])
def test_4_0_rule_16_button_wraps_over_a_smaller_table(card, seat):
    """Six seats, the PD in seat 6: positions 1..5 are seats 1..5; ((value - 1) mod 5) + 1."""
    players = [1, 2, 3, 4, 5]
    ledger = button_round(NB, players, ["9C", card], "9D", "9H", pd={"seat": 6, "bank": 500}, seats=6)
    assert ledger["action_seat"] == seat
    assert [r[0] for r in rows(ledger, "base")] == rotated(players, seat)


def test_4_0_rule_16_button_on_an_empty_seat_moves_to_the_next_wager():
    """Second card 3 from seat 4: seat 7, empty; then 8, empty; then seat 1."""
    cards = stack({1: ["TS", "8H"], 6: ["TD", "8C"]}, ["9C", "3D"], "5S")
    ledger = settle(
        make_round(NB, cards, {1: {"base": 10}, 6: {"base": 10}}, actions={1: ["stand"], 6: ["stand"]}, pd=PD_SEAT4)
    )
    assert ledger["action_seat"] == 1
    assert [r[0] for r in rows(ledger)] == [1, 6]


# --- Lucky Lucky -----------------------------------------------------------------------------------


def test_4_0_rule_17_lucky_lucky_needs_a_base_wager():
    error = refused(make_round(NB, stack({1: ["TS", "8H"]}, ["9C", "8D"]), {1: {"lucky_lucky": 5}}, pd=PD_SEAT4))
    assert error.code == "side_bet_without_base" and error.rule == "2.17"


def test_4_0_rule_17_lucky_lucky_is_judged_on_the_deal_and_settled_first():
    """7-7 and the PD's 7: 50:1 whatever the player draws next (7 more makes 21)."""
    ledger = heads_up(
        NB, ["7S", "7H", "7C"], ["7D", "5C", "TS"], ["hit"], wagers={"base": 10, "lucky_lucky": 2, "buster": 1}
    )
    assert rows(ledger)[0] == (1, 0, "lucky_lucky", "win", 2, 100)
    assert [r[2] for r in rows(ledger)] == ["lucky_lucky", "base", "buster"]


@pytest.mark.parametrize(
    "player, up, pays",
    [
        pytest.param(["7S", "7S"], "7S", 200, id="suited-777"),
        pytest.param(["6H", "8H"], "7H", 100, id="suited-678"),
        pytest.param(["7S", "7H"], "7D", 50, id="777"),
        pytest.param(["6S", "8H"], "7D", 30, id="678"),
        pytest.param(["9D", "5D"], "7D", 10, id="suited-21"),
        pytest.param(["AS", "3H"], "7D", 3, id="21-ace-as-11"),
        pytest.param(["AS", "KH"], "TD", 3, id="21-natural-ace-as-1"),
        pytest.param(["AS", "AH"], "9D", 3, id="21-two-aces"),
        pytest.param(["TS", "3H"], "7D", 2, id="20"),
        pytest.param(["9S", "3H"], "7D", 2, id="19"),
        pytest.param(["TS", "2H"], "6D", -1, id="18-loses"),
    ],
)
def test_4_0_rule_18_lucky_lucky_pay_table(player, up, pays):
    """A 1 Lucky Lucky: the highest single line, the three-card total with Ace 1 or 11 (DECISION)."""
    actions = [] if player == ["AS", "KH"] else ["stand"]
    ledger = heads_up(NB, player, [up, "KC", "2C"], actions, wagers={"base": 10, "lucky_lucky": 1})
    assert rows(ledger, "lucky_lucky") == [(1, 0, "lucky_lucky", "win" if pays > 0 else "lose", 1, pays)]


# --- Buster ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("count, pays", [(3, 2), (4, 2), (5, 4), (6, 15), (7, 50), (8, 300), (9, 300)])
def test_4_0_rule_19_buster_pays_by_the_pds_bust_cards(count, pays):
    assert rows(buster_rows(NB, count), "buster") == [(1, 0, "buster", "win", 1, pays)]


def test_4_0_rule_19_buster_loses_when_the_pd_does_not_bust():
    ledger = heads_up(NB, ["TS", "8H"], ["TD", "7C"], ["stand"], wagers={"base": 10, "buster": 3})
    assert rows(ledger, "buster") == [(1, 0, "buster", "lose", 3, -3)]


def test_4_0_rule_19_buster_stays_in_action_when_the_player_busts():
    """Player 24 (three cards, no push total in 4.0) loses to the PD's 26; the 3-card bust pays 2:1."""
    ledger = heads_up(NB, ["TS", "5H", "9D"], ["TD", "6C", "KH"], ["hit"], wagers={"base": 10, "buster": 5})
    assert rows(ledger) == [(1, 0, "base", "lose", 10, -10), (1, 0, "buster", "win", 5, 10)]

"""RULES.md §3: 21st Century Blackjack 8.0 (profile `c21-8.0`).

The PD's first card is the hole card and its second the up card (§3.2). Unless a test says
otherwise the PD sits in seat 4 of 7 with a 500 bank and seat 1 bets 10.
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
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.refusals import RuleError
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker

C21 = "c21-8.0"


def base_rows(ledger: dict) -> list[tuple]:
    return rows(ledger, "base")


def test_8_0_rule_1_six_or_two_decks_seven_seats():
    profile = load_profile(C21)
    assert (profile.decks, profile.seats) == (6, 7)
    assert load_profile(C21, {"decks": 2}).decks == 2
    with pytest.raises(RuleError) as caught:
        load_profile(C21, {"decks": 4})
    assert caught.value.code == "bad_setting" and "decks" in caught.value.message
    error = refused(make_round(C21, stack({8: ["TS", "8H"]}, ["9C", "8D"]), {8: {"base": 10}}, pd=PD_SEAT4))
    assert error.code == "bad_seat" and "seat 8" in error.message


def test_8_0_rule_2_hands_only_to_seats_with_a_wager():
    """Seats 1 and 6 bet: the deal is 1, 6, PD (hole), 1, 6, PD (up)."""
    cards = ["TS", "9H", "8D", "7C", "8S", "9C"]
    ledger = settle(
        make_round(C21, cards, {1: {"base": 10}, 6: {"base": 10}}, actions={1: ["stand"], 6: ["stand"]}, pd=PD_SEAT4)
    )
    assert [(h["seat"], h["cards"]) for h in ledger["hands"]] == [(1, ["TS", "7C"]), (6, ["9H", "8S"])]
    assert ledger["dealer"]["cards"] == ["8D", "9C"]


def test_8_0_rule_2_the_second_pd_card_is_the_up_card():
    """An Ace second is up (insurance is offered); an Ace first is the hole card (no insurance)."""
    up = heads_up(C21, ["TS", "8H"], ["9H", "AS"], ["stand"], insurance={1: 5})
    assert rows(up) == [(1, 0, "insurance", "lose", 5, -5), (1, 0, "base", "lose", 10, -10)]
    error = refused(
        make_round(
            C21,
            stack({1: ["TS", "8H"]}, ["AS", "9H"]),
            {1: {"base": 10}},
            actions={1: ["stand"]},
            pd=PD_SEAT4,
            insurance={1: 5},
        )
    )
    assert error.code == "insurance_not_offered"


@pytest.mark.parametrize("base, paid", [(10, 12), (7, 8.4), (25, 30)])
def test_8_0_rule_3_natural_pays_6_to_5(base, paid):
    ledger = heads_up(C21, ["AS", "KH"], ["9D", "8C"], wagers={"base": base})
    assert hand(ledger, 1)["total"] == 21 and hand(ledger, 1)["status"] == "natural"
    assert base_rows(ledger) == [(1, 0, "base", "win", base, paid)]


@pytest.mark.parametrize(
    "player, dealer, result",
    [
        pytest.param(["TS", "8H"], ["TD", "6C", "KH"], "win", id="under-beats-over"),
        pytest.param(["TS", "9H"], ["TD", "8C"], "win", id="19-beats-18"),
        pytest.param(["TS", "7H"], ["TD", "8C"], "lose", id="17-loses-to-18"),
        pytest.param(["TS", "8H"], ["TD", "8C"], "push", id="18-pushes-18"),
        pytest.param(["TS", "5H", "8D"], ["TD", "7C"], "lose", id="over-loses-to-under"),
        pytest.param(["TS", "6H", "9D"], ["TD", "6C", "7H"], "lose", id="pd-23-closer-than-25"),
        pytest.param(["TS", "3H", "KD"], ["TD", "6C", "8H"], "push", id="three-card-23-vs-24"),
        pytest.param(["TS", "4H", "KD"], ["TD", "6C", "KH"], "push", id="three-card-24-vs-26"),
        pytest.param(["TS", "5H", "KD"], ["TD", "6C", "KH"], "push", id="three-card-25-vs-26"),
        pytest.param(["TS", "6H", "KD"], ["TD", "6C", "KH"], "push", id="equal-26-pushes"),
        pytest.param(["TS", "2H", "KD"], ["TD", "6C", "KH"], "lose", id="three-card-22-not-a-push-total"),
        pytest.param(["5S", "4H", "4D", "KD"], ["TD", "6C", "KH"], "lose", id="four-card-23-loses"),
    ],
)
def test_8_0_rule_4_outcomes(player, dealer, result):
    """DECISIONS of §3.4: equal over totals push; a closer over hand without a push total loses.
    A Buster makes the PD complete its hand in every case; every hand that draws ends over."""
    actions = ["stand"] if len(player) == 2 else ["hit"] * (len(player) - 2)
    ledger = heads_up(C21, player, dealer, actions, wagers={"base": 10, "buster": 1})
    assert base_rows(ledger) == [(1, 0, "base", result, 10, {"win": 10, "lose": -10, "push": 0}[result])]


@pytest.mark.parametrize(
    "dealer, total",
    [
        pytest.param(["AH", "6C", "2D"], 19, id="hits-soft-17"),
        pytest.param(["TH", "6C", "5D"], 21, id="hits-16"),
        pytest.param(["TH", "7C"], 17, id="stands-hard-17"),
    ],
)
def test_8_0_rule_5_pd_hits_soft_17_stands_hard_17(dealer, total):
    ledger = heads_up(C21, ["TS", "8H"], [*dealer, "2C"], ["stand"])
    assert ledger["dealer"]["cards"] == dealer and ledger["dealer"]["total"] == total
    assert ledger["unused_cards"] == 1


def test_8_0_rule_6_stand_on_11_is_refused():
    error = refused(
        make_round(C21, stack({1: ["5S", "6H"]}, ["TD", "7C"]), {1: {"base": 10}}, actions={1: ["stand"]}, pd=PD_SEAT4)
    )
    assert error.code == "must_hit" and error.rule == "3.6"


def test_8_0_rule_6_may_hit_hard_18_and_21_stands():
    """No must-stand in 8.0: 18 hits a 2 (20), hits an A (21), and 21 stands without a decision."""
    ledger = heads_up(C21, ["TS", "8H", "2D", "AD"], ["TC", "9C"], ["hit", "hit"])
    assert hand(ledger, 1)["total"] == 21
    assert base_rows(ledger) == [(1, 0, "base", "win", 10, 10)]
    error = refused(
        make_round(
            C21,
            stack({1: ["TS", "8H"]}, ["TC", "9C"], "2D", "AD", "5S"),
            {1: {"base": 10}},
            actions={1: ["hit", "hit", "hit"]},
            pd=PD_SEAT4,
        )
    )
    assert error.code == "leftover_decision" and "hit" in error.message


def test_8_0_rule_7_double_gets_one_card():
    ledger = heads_up(C21, ["5S", "6H", "9D"], ["TD", "8C"], ["double"])
    assert hand(ledger, 1)["doubled"] is True
    assert base_rows(ledger) == [(1, 0, "base", "win", 20, 20)]


def test_8_0_rule_7_double_after_a_split():
    """4-4 splits: hand 0 gets 7 (11), doubles and gets T (21); hand 1 gets 6, hits 9 (19); PD 18."""
    cards = stack({1: ["4S", "4H"]}, ["TC", "8C"], "7D", "TD", "6C", "9C")
    ledger = settle(
        make_round(C21, cards, {1: {"base": 10}}, actions={1: ["split", "double", "hit", "stand"]}, pd=PD_SEAT4)
    )
    assert [h["cards"] for h in ledger["hands"]] == [["4S", "7D", "TD"], ["4H", "6C", "9C"]]
    assert base_rows(ledger) == [(1, 0, "base", "win", 20, 20), (1, 1, "base", "win", 10, 10)]


def test_8_0_rule_7_no_double_on_a_natural():
    error = refused(
        make_round(
            C21, stack({1: ["AS", "KH"]}, ["9D", "8C"], "5S"), {1: {"base": 10}}, actions={1: ["double"]}, pd=PD_SEAT4
        )
    )
    assert error.code == "leftover_decision" and "double" in error.message


def test_8_0_rule_8_split_two_cards_of_the_same_value():
    """K-Q is a pair: 19 pushes the PD's 19, 18 loses."""
    cards = stack({1: ["KS", "QH"]}, ["TC", "9C"], "9D", "8D")
    ledger = settle(make_round(C21, cards, {1: {"base": 10}}, actions={1: ["split", "stand", "stand"]}, pd=PD_SEAT4))
    assert [h["cards"] for h in ledger["hands"]] == [["KS", "9D"], ["QH", "8D"]]
    assert base_rows(ledger) == [(1, 0, "base", "push", 10, 0), (1, 1, "base", "lose", 10, -10)]


def test_8_0_rule_8_at_most_three_splits():
    cards = stack({1: ["TS", "KH"]}, ["7S", "9H"], "QD", "JC", "KD")
    error = refused(make_round(C21, cards, {1: {"base": 10}}, actions={1: ["split"] * 4}, pd=PD_SEAT4))
    assert error.code == "illegal_action" and error.rule == "3.8" and "4 hands" in error.message


def test_8_0_rule_9_surrender_12_or_more_without_an_ace():
    ledger = heads_up(C21, ["TS", "2H"], ["TD", "7C"], ["surrender"])
    assert base_rows(ledger) == [(1, 0, "base", "surrender", 10, -5)]


@pytest.mark.parametrize("player", [["AS", "6H"], ["6S", "5H"]], ids=["with-an-ace", "total-11"])
def test_8_0_rule_9_surrender_refused(player):
    error = refused(
        make_round(C21, stack({1: player}, ["TD", "7C"]), {1: {"base": 10}}, actions={1: ["surrender"]}, pd=PD_SEAT4)
    )
    assert error.code == "illegal_action" and error.rule == "3.9"


TWO_SEATS = {1: ["AH", "QC"], 2: ["TS", "9S"]}


def test_8_0_rule_10_ace_up_insurance_then_peek_natural_ends_play():
    """PD KD hole, AS up: seat 2 insures 5 and wins 10; the Natural pushes seat 1's Natural and beats
    seat 2's 19; no decision is taken. The Ace puts the button on seat 5, so action starts at seat 1."""
    cards = stack(TWO_SEATS, ["KD", "AS"])
    ledger = settle(make_round(C21, cards, {1: {"base": 10}, 2: {"base": 10}}, pd=PD_SEAT4, insurance={2: 5}))
    assert rows(ledger) == [
        (2, 0, "insurance", "win", 5, 10),
        (1, 0, "base", "push", 10, 0),
        (2, 0, "base", "lose", 10, -10),
    ]


def test_8_0_rule_10_peek_natural_ends_play():
    """Ten up: the device is read at once; a Natural ends play, so a hit is left over. (A redundant
    stand would be accepted: the dealer's Natural is a forced end of the hand, §8.4, §8.13.)"""
    cards = stack(TWO_SEATS, ["AS", "KD"], "5C")
    data = make_round(C21, cards, {1: {"base": 10}, 2: {"base": 10}}, pd=PD_SEAT4)
    ledger = settle(data)
    assert base_rows(ledger) == [(1, 0, "base", "push", 10, 0), (2, 0, "base", "lose", 10, -10)]
    assert ledger["unused_cards"] == 1
    assert rows(settle(data | {"actions": {"2": ["stand"]}})) == rows(ledger)
    error = refused(data | {"actions": {"2": ["hit"]}})
    assert error.code == "leftover_decision" and "hit" in error.message
    error = refused(data | {"insurance": {"2": 5}})
    assert error.code == "insurance_not_offered"


def test_8_0_rule_10_ten_up_without_natural_play_goes_on():
    ledger = heads_up(C21, ["TS", "9S"], ["9D", "KD"], ["stand"])
    assert base_rows(ledger) == [(1, 0, "base", "push", 10, 0)]


@pytest.mark.parametrize("amount, ok", [(4, False), (5, True), (6, False)])
def test_8_0_rule_10_insurance_at_least_5_at_most_half(amount, ok):
    data = make_round(
        C21,
        stack({1: ["TS", "8H"]}, ["9H", "AS"]),
        {1: {"base": 10}},
        actions={1: ["stand"]},
        pd=PD_SEAT4,
        insurance={1: amount},
    )
    if ok:
        assert rows(settle(data), "insurance") == [(1, 0, "insurance", "lose", 5, -5)]
    else:
        error = refused(data)
        assert error.code == "wager_limit" and error.rule == "3.10"


@pytest.mark.parametrize("count, pays", [(3, 2), (4, 2), (5, 4), (6, 15), (7, 50), (8, 200), (9, 200)])
def test_8_0_rule_11_buster_pays_by_the_pds_bust_cards(count, pays):
    assert rows(buster_rows(C21, count), "buster") == [(1, 0, "buster", "win", 1, pays)]


@pytest.mark.parametrize("buster", [0.5, 101])
def test_8_0_rule_11_buster_from_1_to_100(buster):
    error = refused(
        make_round(
            C21,
            stack({1: ["TS", "8H"]}, ["TD", "7C"]),
            {1: {"base": 10, "buster": buster}},
            actions={1: ["stand"]},
            pd=PD_SEAT4,
        )
    )
    assert error.code == "wager_limit" and "Buster" in error.message


def test_8_0_rule_11_the_pds_hand_decides_the_buster():
    """The player's own bust does not matter: the PD's 3-card bust pays 2:1."""
    ledger = heads_up(C21, ["TS", "2H", "KD"], ["TD", "6C", "KH"], ["hit"], wagers={"base": 10, "buster": 5})
    assert rows(ledger) == [(1, 0, "base", "lose", 10, -10), (1, 0, "buster", "win", 5, 10)]


def test_8_0_rule_12_maximum_table_payout_20000():
    """Bank 25,000. Base wins pay 500 and 10; seat 1's 8-card Buster is owed 20,000 but 19,490 is left
    under the cap (in action 100 x 19,490 / 20,000 = 97.45); seat 2's Buster gets nothing: no_action."""
    cards = stack({1: ["TS", "8H"], 2: ["TH", "8D"]}, ["2D", "2H"], "2C", "2S", "3D", "3H", "2D", "KD")
    ledger = settle(
        make_round(
            C21,
            cards,
            {1: {"base": 500, "buster": 100}, 2: {"base": 10, "buster": 1}},
            actions={1: ["stand"], 2: ["stand"]},
            pd={"seat": 4, "bank": 25_000},
        )
    )
    assert rows(ledger) == [
        (1, 0, "base", "win", 500, 500),
        (2, 0, "base", "win", 10, 10),
        (1, 0, "buster", "win", 97.45, 19_490),
        (2, 0, "buster", "no_action", 0, 0),
    ]
    assert ledger["player_dealer"]["net"] == -20_000


@pytest.mark.parametrize("card, seat", [("3C", 7), ("6C", 3), ("7C", 5), ("9C", 7), ("KC", 5), ("AC", 5)])
def test_8_0_rule_13_action_button_from_the_pds_up_card(card, seat):
    """PD in seat 4 of 7: positions 1..6 are seats 5,6,7,1,2,3; ((value - 1) mod 6) + 1."""
    players = [1, 2, 3, 5, 6, 7]
    ledger = button_round(C21, players, ["9D", card], "9H", "9S")
    assert ledger["action_seat"] == seat
    assert [r[0] for r in base_rows(ledger)] == rotated(players, seat)


@pytest.mark.parametrize(
    "draw, said",
    [
        ("6H", "The player-dealer is over at 22 — settle in order"),
        ("3H", "The player-dealer stands on 19 — settle in order"),
    ],
)
def test_8_0_the_settlement_prompt_says_what_the_player_dealers_hand_came_to(draw, said):
    """Seat 1 stands on 9-7; the PD's TD (hole) and 6C (up) draw one card."""
    tracker = RoundTracker(load_profile(C21), None, PlayerDealer(4, 50_000))
    tracker.apply(PlaceWager(1, WagerKind.BASE, 1_000))
    for code in ("9S", "TD", "7D", "6C"):
        tracker.apply(CardDrawn(parse_card(code)))
    tracker.apply(Decide(1, 0, Action.STAND))
    tracker.apply(CardDrawn(parse_card(draw)))
    assert tracker.phase is Phase.SETTLED and tracker.prompt() == said

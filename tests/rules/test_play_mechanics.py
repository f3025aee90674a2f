"""RULES.md §8: the play mechanics the documents leave open, as the tracker must apply them.

PD games put the player-dealer in seat 4 with a 500 bank; every seat bets 10 unless a test says
otherwise.
"""

from __future__ import annotations

import pytest
from rulebook import PD_SEAT4, hand, heads_up, make_round, refused, rows, settle, stack

from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.refusals import RuleError

NB, C21, SD = "nobust-4.0", "c21-8.0", "sd-buster-a"
ALL = [NB, C21, SD]


def pd_for(profile: str) -> dict | None:
    return None if profile.startswith("sd-") else PD_SEAT4


def one_seat(profile: str, cards: list[str], actions: list[str], base: float = 10, **extra) -> dict:
    """Seat 1 alone, with the cards already in shoe order."""
    return make_round(profile, cards, {1: {"base": base}}, actions={1: actions}, pd=pd_for(profile), **extra)


# --- §8.1 dealing and play order ------------------------------------------------------------------


@pytest.mark.parametrize("profile, first_to_play", [(NB, 2), (C21, 6)])
def test_8_1_deal_from_seat_1_play_from_seat_1_or_after_the_pd(profile, first_to_play):
    """Seats 2 and 6 hold 10-2 and each hit once; the first to play gets the 5 (17), the other the 6."""
    cards = ["TS", "TH", "9C", "2S", "2H", "8C", "5D", "6D"]
    ledger = settle(
        make_round(
            profile,
            cards,
            {2: {"base": 10}, 6: {"base": 10}},
            actions={2: ["hit", "stand"], 6: ["hit", "stand"]},
            pd=PD_SEAT4,
        )
    )
    second = 6 if first_to_play == 2 else 2
    assert hand(ledger, first_to_play)["cards"][2] == "5D" and hand(ledger, second)["cards"][2] == "6D"
    assert ledger["dealer"]["cards"] == ["9C", "8C"]


# --- §8.2 a dealer Natural ends play ---------------------------------------------------------------


def test_8_2_pd_natural_ends_play_side_bets_still_settle():
    """PD AS KD face up: 9-T with the PD's Ace is 20 (Lucky 2:1); the hand loses; no bust: Buster loses."""
    ledger = heads_up(NB, ["9S", "TH"], ["AS", "KD", "5C"], wagers={"base": 10, "lucky_lucky": 1, "buster": 1})
    assert rows(ledger) == [
        (1, 0, "lucky_lucky", "win", 1, 2),
        (1, 0, "base", "lose", 10, -10),
        (1, 0, "buster", "lose", 1, -1),
    ]
    assert ledger["dealer"]["cards"] == ["AS", "KD"] and ledger["unused_cards"] == 1


# --- §8.3 21 stands ---------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_8_3_soft_21_stands_without_a_decision(profile):
    """A-5 hits a 5: soft 21 ends the hand; the spare 9 stays in the shoe (the dealer has 17)."""
    ledger = settle(one_seat(profile, stack({1: ["AS", "5H"]}, ["TD", "7C"], "5D", "9C"), ["hit"]))
    assert hand(ledger, 1)["cards"] == ["AS", "5H", "5D"] and ledger["unused_cards"] == 1
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10)]


# --- §8.4 forced moves, missing and leftover decisions ------------------------------------------------


def test_8_4_a_decision_due_but_missing_is_an_error():
    error = refused(one_seat(NB, stack({1: ["TS", "5H"]}, ["TD", "7C"]), []))
    assert error.code == "missing_decision" and error.rule == "8.4" and "seat 1" in error.message


def test_8_4_a_must_hit_still_takes_a_hit_token():
    """Reading: ROUND-FILE.md lists the moves made without a token (a forced stand, one card on split
    Aces, the end of a double); a must-hit is not among them, so 2-3-4 (9) waits for its `hit`."""
    cards = stack({1: ["2S", "3H"]}, ["TD", "7C"], "4D", "KD")
    error = refused(one_seat(NB, cards, ["hit"]))
    assert error.code == "missing_decision" and "must hit" in error.message
    assert rows(settle(one_seat(NB, cards, ["hit", "hit"]))) == [(1, 0, "base", "win", 10, 10)]


def test_8_4_a_decision_left_over_is_an_error():
    error = refused(one_seat(NB, stack({1: ["TS", "5H"]}, ["TD", "7C"]), ["stand", "hit"]))
    assert error.code == "leftover_decision" and error.rule == "8.4" and "'hit'" in error.message


def test_8_4_a_decision_where_none_is_due_is_an_error():
    """Seat 3 has no wager, so nothing it decides is due."""
    data = one_seat(NB, stack({1: ["TS", "8H"]}, ["TD", "7C"]), ["stand"])
    error = refused(data | {"actions": {"1": ["stand"], "3": ["stand"]}})
    assert error.code == "leftover_decision" and "actions.3" in error.message


# --- §8.5 must-stand against the other options (4.0) ----------------------------------------------


def test_8_5_hard_17_on_two_cards_still_waits_for_stand_or_surrender():
    cards = stack({1: ["TS", "7H"]}, ["TD", "8C"])
    error = refused(one_seat(NB, cards, []))
    assert error.code == "missing_decision"
    assert rows(settle(one_seat(NB, cards, ["surrender"]))) == [(1, 0, "base", "surrender", 10, -5)]


def test_8_5_split_pair_on_18_may_split_then_hands_stand_by_themselves():
    """9-9 is hard 18 but a pair: split. 9+T = 19 and 9+8 = 17 after a split cannot be split or
    surrendered, so each stands without a token. The PD's 18 loses to 19 and beats 17."""
    ledger = settle(one_seat(NB, stack({1: ["9S", "9H"]}, ["TC", "8C"], "TD", "8D"), ["split"]))
    assert [h["cards"] for h in ledger["hands"]] == [["9S", "TD"], ["9H", "8D"]]
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10), (1, 1, "base", "lose", 10, -10)]


# --- §8.6 splits -------------------------------------------------------------------------------------


def test_8_6_resplit_hand_is_played_next_and_numbered_in_play_order():
    """8-8 splits; the first hand draws 8 and splits again. In play order: 8S+T, then the re-split 8D+T,
    then 8H, which gets 3 (11) and hits K (21). All three beat the dealer's 17."""
    cards = stack({1: ["8S", "8H"]}, ["7S", "KH"], "8D", "TS", "TH", "3C", "KC")
    ledger = settle(one_seat(SD, cards, ["split", "split", "stand", "stand", "hit"]))
    assert [h["cards"] for h in ledger["hands"]] == [["8S", "TS"], ["8D", "TH"], ["8H", "3C", "KC"]]
    assert rows(ledger) == [(1, i, "base", "win", 10, 10) for i in range(3)]


def test_8_6_three_card_push_total_counts_a_split_hand():
    """c21: hand 0 is 8-5-K = 23 (three cards) against the PD's 24: push. Hand 1 is 8-3-9 = 20: win."""
    cards = stack({1: ["8S", "8H"]}, ["TC", "6C"], "5D", "KD", "3H", "9H", "8C")
    ledger = settle(one_seat(C21, cards, ["split", "hit", "hit", "stand"]))
    assert ledger["dealer"]["total"] == 24
    assert rows(ledger) == [(1, 0, "base", "push", 10, 0), (1, 1, "base", "win", 10, 10)]


def test_8_6_three_card_push_total_counts_a_doubled_hand():
    ledger = heads_up(C21, ["TS", "4H", "9D"], ["TC", "6C", "8C"], ["double"])
    assert rows(ledger) == [(1, 0, "base", "push", 20, 0)]


# --- §8.7 Deadwood options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "player, actions, expected",
    [
        pytest.param(["5S", "6H"], ["stand"], (1, 0, "base", "lose", 10, -10), id="stand-on-11"),
        pytest.param(["TS", "9H", "2D"], ["hit"], (1, 0, "base", "win", 10, 10), id="hit-hard-19"),
        pytest.param(["TS", "6H", "4D"], ["double:5"], (1, 0, "base", "win", 15, 15), id="double-16-for-less"),
    ],
)
def test_8_7_deadwood_stand_anything_hit_below_21_double_any_two(player, actions, expected):
    assert rows(heads_up(SD, player, ["TD", "7C"], actions)) == [expected]


# --- §8.8 insurance and surrender -------------------------------------------------------------------


def test_8_8_insurance_on_the_players_own_natural():
    """c21, Ace up: the Natural may be insured; no PD Natural, so insurance loses and 6:5 is paid."""
    ledger = heads_up(C21, ["AS", "KH"], ["9D", "AC"], insurance={1: 5})
    assert rows(ledger) == [(1, 0, "insurance", "lose", 5, -5), (1, 0, "base", "win", 10, 12)]


@pytest.mark.parametrize("profile", [NB, C21])
def test_8_8_no_surrender_after_a_split(profile):
    cards = stack({1: ["8S", "8H"]}, ["TC", "9C"], "6D", "TD")
    error = refused(one_seat(profile, cards, ["split", "surrender"]))
    assert error.code == "illegal_action" and error.rule == "8.8" and "split" in error.message


# --- §8.10 house-banked ledgers ---------------------------------------------------------------------


def test_8_10_house_banked_passes_insurance_base_buster_from_seat_1():
    """AS up, 5 in the hole (soft 16), T (hard 16), K: a 4-card bust (2:1 on table A)."""
    cards = stack({1: ["TS", "8S"], 3: ["TH", "9H"]}, ["AS", "5H"], "TD", "KD")
    ledger = settle(
        make_round(
            SD,
            cards,
            {1: {"base": 10, "buster": 1}, 3: {"base": 10, "buster": 1}},
            actions={1: ["stand"], 3: ["stand"]},
            insurance={1: 5, 3: 5},
        )
    )
    assert rows(ledger) == [
        (1, 0, "insurance", "lose", 5, -5),
        (3, 0, "insurance", "lose", 5, -5),
        (1, 0, "base", "win", 10, 10),
        (3, 0, "base", "win", 10, 10),
        (1, 0, "buster", "win", 1, 2),
        (3, 0, "buster", "win", 1, 2),
    ]
    assert ledger["action_seat"] is None and ledger["player_dealer"] is None


# --- §8.11 a Natural's total ------------------------------------------------------------------------


@pytest.mark.parametrize("profile, total", [(NB, 22), (C21, 21), (SD, 21)])
def test_8_11_natural_total(profile, total):
    ledger = heads_up(profile, ["AS", "KH"], ["9D", "8C"])
    assert (hand(ledger, 1)["status"], hand(ledger, 1)["total"]) == ("natural", total)


# --- §8.12 impossible cards --------------------------------------------------------------------------


@pytest.mark.parametrize("profile, settings, copies", [(NB, {}, 7), (SD, {"decks": 1}, 2)])
def test_8_12_more_copies_than_the_shoe_holds(profile, settings, copies):
    cards = stack({1: ["TS", "8H"]}, ["TD", "7C"], *["AS"] * copies)
    error = refused(one_seat(profile, cards, ["stand"], settings=settings))
    assert error.code == "impossible_card" and error.rule == "8.12" and "AS" in error.message


# --- §8.13 which decision a token answers -------------------------------------------------------------

SPLIT_DOUBLE = stack({1: ["8S", "8H"]}, ["7S", "KH"], "2D", "5D", "TH")


def test_8_13_stand_after_double_is_consumed():
    """Hand 0 is 8-2, doubled to 15 and ended; the stand after it confirms hand 0 and does not carry
    over, so hand 1 (8-T) still needs its own stand."""
    error = refused(one_seat(SD, SPLIT_DOUBLE, ["split", "double", "stand"]))
    assert error.code == "missing_decision" and "seat 1 hand 2: " in error.message, (
        "hands counted from 1, as the prompt counts them"
    )
    ledger = settle(one_seat(SD, SPLIT_DOUBLE, ["split", "double", "stand", "stand"]))
    assert rows(ledger) == [(1, 0, "base", "lose", 20, -20), (1, 1, "base", "win", 10, 10)]


def test_8_13_a_token_other_than_stand_answers_the_next_hand():
    """After hand 0's double ends it, a hit is not a confirmation: it is hand 1's (8-T hits 2: 20)."""
    cards = stack({1: ["8S", "8H"]}, ["7S", "KH"], "2D", "5D", "TH", "2C")
    ledger = settle(one_seat(SD, cards, ["split", "double", "hit", "stand"]))
    assert hand(ledger, 1, 1)["cards"] == ["8H", "TH", "2C"]
    assert rows(ledger) == [(1, 0, "base", "lose", 20, -20), (1, 1, "base", "win", 10, 10)]


@pytest.mark.parametrize("actions", [[], ["stand"]])
def test_8_13_stand_after_a_natural_is_consumed(actions):
    ledger = heads_up(NB, ["AS", "KH"], ["9D", "8C"], actions)
    assert rows(ledger) == [(1, 0, "base", "win", 10, 15)]


def test_8_13_stand_after_split_aces_confirms_each_hand_once():
    cards = stack({1: ["AS", "AH"]}, ["TC", "8C"], "9D", "KD")
    assert len(rows(settle(one_seat(C21, cards, ["split", "stand", "stand"])))) == 2
    error = refused(one_seat(C21, cards, ["split", "stand", "stand", "stand"]))
    assert error.code == "leftover_decision"


# --- §8.14 surrender in 4.0 ---------------------------------------------------------------------------


@pytest.mark.parametrize("player", [["5S", "6H"], ["2S", "3H"], ["AS", "6H"]], ids=["hard-11", "hard-5", "soft-17"])
def test_8_14_nobust_surrender_on_any_first_two_cards(player):
    ledger = heads_up(NB, player, ["TD", "8C"], ["surrender"])
    assert rows(ledger) == [(1, 0, "base", "surrender", 10, -5)]


# --- §8.15 double for less, split Aces ----------------------------------------------------------------


@pytest.mark.parametrize("profile", ALL)
def test_8_15_double_for_less_in_every_profile(profile):
    ledger = heads_up(profile, ["5S", "6H", "9D"], ["9C", "8C"], ["double:5"])
    assert hand(ledger, 1)["doubled"] is True
    assert rows(ledger) == [(1, 0, "base", "win", 15, 15)]


@pytest.mark.parametrize("profile", ALL)
def test_8_15_split_aces_one_card_each_never_resplit(profile):
    """A-A splits; hand 0 draws an Ace (soft 12) and ends; hand 1 draws 9 (soft 20). The dealer has 18."""
    cards = stack({1: ["AS", "AH"]}, ["TC", "8C"], "AD", "9D")
    ledger = settle(one_seat(profile, cards, ["split"]))
    assert [h["cards"] for h in ledger["hands"]] == [["AS", "AD"], ["AH", "9D"]]
    assert rows(ledger) == [(1, 0, "base", "lose", 10, -10), (1, 1, "base", "win", 10, 10)]
    error = refused(one_seat(profile, cards, ["split", "split"]))
    assert error.code == "leftover_decision" and "'split'" in error.message


# --- §8.16 unresolved wagers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "player, settings, dealer, draws, result",
    [
        pytest.param(["TS", "4H", "KD"], {}, ["TD", "6C", "8H"], True, "push", id="over-tie-push-can-still-push"),
        pytest.param(
            ["TS", "4H", "KD"], {"over_tie": "dealer"}, ["TD", "6C", "8H"], False, "lose", id="over-tie-dealer-resolved"
        ),
        pytest.param(
            ["TS", "5H", "KD"], {"over_tie": "dealer"}, ["TD", "6C", "KH"], True, "push", id="three-card-25-unresolved"
        ),
        pytest.param(
            ["5S", "4H", "6D", "KD"],
            {"over_tie": "dealer"},
            ["TD", "6C", "KH"],
            False,
            "lose",
            id="four-card-25-resolved",
        ),
    ],
)
def test_8_16_pd_draws_only_while_a_base_wager_is_unresolved(player, settings, dealer, draws, result):
    """The PD holds 10-6 with one more card in the shoe for it; it takes it only while the player's
    over hand could still push (§2.7: over_tie, or a three-card push total)."""
    ledger = heads_up(NB, player, dealer, ["hit"] * (len(player) - 2), settings=settings)
    assert ledger["dealer"]["cards"] == (dealer if draws else dealer[:2])
    assert rows(ledger) == [(1, 0, "base", result, 10, {"push": 0, "lose": -10}[result])]


def test_8_16_over_tie_push_keeps_every_over_hand_unresolved():
    """Reading of §8.16's parenthesis: with `over_tie = push` any over hand counts as one that could
    still push, even 28, which no dealer hand can tie (the dealer never passes 26). In 8.0 (no
    must-stand) 18 hits a K; the PD still completes 16 with the 5."""
    ledger = heads_up(C21, ["TS", "8H", "KD"], ["TD", "6C", "5D"], ["hit"])
    assert ledger["dealer"]["cards"] == ["TD", "6C", "5D"]
    assert rows(ledger) == [(1, 0, "base", "lose", 10, -10)]


# --- §8.17 the action button -----------------------------------------------------------------------------


def test_8_17_button_set_by_the_second_card_even_when_it_is_the_hole_card():
    """4.0 with a hole card: the first card (9) is up, the second (2, the hole card) counts two seats
    on from seat 4: seat 6."""
    cards = stack({1: ["TS", "8H"], 6: ["TD", "8C"]}, ["9C", "2D"], "7S")
    ledger = settle(
        make_round(
            NB,
            cards,
            {1: {"base": 10}, 6: {"base": 10}},
            actions={1: ["stand"], 6: ["stand"]},
            pd=PD_SEAT4,
            settings={"dealer_hole_card": True},
        )
    )
    assert ledger["action_seat"] == 6
    assert [r[0] for r in rows(ledger)] == [6, 1]


# --- §8.19 settings that do not fit ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "profile, setting, value",
    [
        (SD, "play_starts", "after_player_dealer"),
        (NB, "free_bonus", "B1"),
        (C21, "free_bonus", "B3"),
        (SD, "lucky_lucky", True),
    ],
)
def test_8_19_settings_that_do_not_fit_the_game_are_refused_on_load(profile, setting, value):
    with pytest.raises(RuleError) as caught:
        load_profile(profile, {setting: value})
    assert caught.value.code == "bad_setting" and caught.value.rule == "8.19" and setting in caught.value.message


@pytest.mark.parametrize("profile", [C21, SD])
def test_8_19_lucky_lucky_wager_without_lucky_lucky_is_refused(profile):
    data = one_seat(profile, stack({1: ["TS", "8H"]}, ["TD", "7C"]), ["stand"])
    error = refused(data | {"wagers": {"1": {"base": 10, "lucky_lucky": 5}}})
    assert error.code == "not_offered" and error.rule == "8.19" and "Lucky Lucky" in error.message


# --- §8.20 zero amounts -----------------------------------------------------------------------------------


def test_8_20_zero_wagers_make_no_rows():
    """Seat 2's base of 0 is no wager: it gets no cards; zero side bets have no rows."""
    cards = stack({1: ["TS", "8H"]}, ["TD", "7C"])
    ledger = settle(
        make_round(
            NB,
            cards,
            {1: {"base": 10, "lucky_lucky": 0, "buster": 0}, 2: {"base": 0}},
            actions={1: ["stand"]},
            pd=PD_SEAT4,
        )
    )
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10)]
    assert [h["seat"] for h in ledger["hands"]] == [1]


@pytest.mark.parametrize("profile, dealer", [(NB, ["TD", "7C"]), (C21, ["9D", "AC"])], ids=["not-offered", "offered"])
def test_8_20_zero_insurance_is_no_insurance(profile, dealer):
    ledger = heads_up(profile, ["TS", "8H"], dealer, ["stand"], insurance={1: 0})
    assert [r[2] for r in rows(ledger)] == ["base"]


def test_8_20_zero_lucky_lucky_where_none_is_offered_is_no_wager():
    ledger = heads_up(C21, ["TS", "8H"], ["TD", "7C"], ["stand"], wagers={"base": 10, "lucky_lucky": 0})
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10)]

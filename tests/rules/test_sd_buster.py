"""RULES.md §4: Deadwood Buster Blackjack (profiles `sd-buster-a` ... `sd-buster-f`).

House-banked: no player-dealer, no coverage, no fees. The dealer's first card is up (§4.1 DECISION).
Unless a test says otherwise seat 1 bets 10.
"""

from __future__ import annotations

import pytest
from rulebook import BUSTS, buster_rows, hand, heads_up, make_round, refused, rows, settle, stack

from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.refusals import RuleError

SD = "sd-buster-a"

# RULES.md §4.4 as printed: rows are the dealer's bust cards, columns the tables A-F.
PAY_TABLE = {
    8: {"a": 250, "b": 200, "c": 250, "d": 200, "e": 250, "f": 250},
    7: {"a": 50, "b": 50, "c": 50, "d": 50, "e": 50, "f": 50},
    6: {"a": 15, "b": 15, "c": 12, "d": 12, "e": 12, "f": 20},
    5: {"a": 4, "b": 4, "c": 4, "d": 4, "e": 3, "f": 8},
    4: {"a": 2, "b": 2, "c": 2, "d": 2, "e": 2, "f": 2},
    3: {"a": 2, "b": 2, "c": 2, "d": 2, "e": 2, "f": 1},
}


def test_sd_rule_1_house_banked_no_player_dealer():
    cards = stack({1: ["TS", "8H"]}, ["TD", "7C"])
    error = refused(make_round(SD, cards, {1: {"base": 10}}, actions={1: ["stand"]}, pd={"seat": 4, "bank": 500}))
    assert error.code == "unexpected_player_dealer"
    ledger = settle(make_round(SD, cards, {1: {"base": 10}}, actions={1: ["stand"]}))
    assert ledger["player_dealer"] is None and ledger["action_seat"] is None
    assert ledger["fees"] == {"players": 0, "player_dealer": 0}
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10)]


def test_sd_rule_1_one_to_eight_decks_at_most_seven_players():
    assert load_profile(SD, {"decks": 1}).decks == 1
    with pytest.raises(RuleError) as caught:
        load_profile(SD, {"decks": 9})
    assert caught.value.code == "bad_setting" and "decks" in caught.value.message
    error = refused(make_round(SD, stack({8: ["TS", "8H"]}, ["TD", "7C"]), {8: {"base": 10}}))
    assert error.code == "bad_seat"


def test_sd_rule_1_the_dealers_first_card_is_up():
    """Ace first: insurance is offered (and loses to A-9); Ace second is the hole card: no insurance."""
    up = heads_up(SD, ["TS", "8H"], ["AS", "9H"], ["stand"], insurance={1: 5})
    assert rows(up) == [(1, 0, "insurance", "lose", 5, -5), (1, 0, "base", "lose", 10, -10)]
    error = refused(
        make_round(
            SD, stack({1: ["TS", "8H"]}, ["9H", "AS"]), {1: {"base": 10}}, actions={1: ["stand"]}, insurance={1: 5}
        )
    )
    assert error.code == "insurance_not_offered"


def test_sd_rule_1_blackjack_pays_3_to_2():
    ledger = heads_up(SD, ["AS", "KH"], ["9D", "8C"])
    assert hand(ledger, 1)["total"] == 21 and hand(ledger, 1)["status"] == "natural"
    assert rows(ledger) == [(1, 0, "base", "win", 10, 15)]


def test_sd_rule_1_dealer_stands_on_soft_17():
    ledger = heads_up(SD, ["TS", "8H"], ["AS", "6H", "4C"], ["stand"])
    assert ledger["dealer"]["cards"] == ["AS", "6H"] and ledger["unused_cards"] == 1
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10)]


def test_sd_rule_1_peek_with_a_ten_up_blackjack_ends_play():
    """KD up, AS hole: the Natural pushes a Natural and beats everything else; nobody acts."""
    cards = stack({1: ["AH", "QC"], 2: ["TS", "9S"]}, ["KD", "AS"])
    ledger = settle(make_round(SD, cards, {1: {"base": 10}, 2: {"base": 10}}))
    assert rows(ledger) == [(1, 0, "base", "push", 10, 0), (2, 0, "base", "lose", 10, -10)]


def test_sd_rule_1_double_on_any_two_cards():
    ledger = heads_up(SD, ["TS", "5H", "6D"], ["TD", "8C"], ["double"])
    assert rows(ledger) == [(1, 0, "base", "win", 20, 20)]


def test_sd_rule_1_no_surrender():
    error = refused(
        make_round(SD, stack({1: ["TS", "6H"]}, ["TD", "7C"]), {1: {"base": 10}}, actions={1: ["surrender"]})
    )
    assert error.code == "illegal_action" and error.rule == "4.1"


@pytest.mark.parametrize(
    "player, dealer",
    [
        pytest.param(["TS", "5H", "8D"], ["TD", "6C", "KH"], id="23-vs-26"),
        pytest.param(["TS", "6H", "7D"], ["TD", "6C", "7H"], id="23-vs-23"),
        pytest.param(["TS", "5H", "KD"], ["TD", "6C", "KH"], id="three-card-25-vs-26"),
    ],
)
def test_sd_rule_1_an_over_player_loses_whatever_the_dealer_does(player, dealer):
    ledger = heads_up(SD, player, dealer, ["hit"], wagers={"base": 10, "buster": 1})
    assert ledger["dealer"]["status"] == "over"
    assert rows(ledger, "base") == [(1, 0, "base", "lose", 10, -10)]


def test_sd_rule_2_blackjack_paid_and_buster_stays_in_action():
    ledger = heads_up(SD, ["AS", "KH"], ["9D", "7C", "KH"], wagers={"base": 10, "buster": 5})
    assert rows(ledger) == [(1, 0, "base", "win", 10, 15), (1, 0, "buster", "win", 5, 10)]


@pytest.mark.parametrize(
    "wagers, dealer, buster",
    [
        pytest.param({"base": 10, "buster": 5}, ["TD", "6C", "7H"], [(1, 0, "buster", "win", 5, 10)], id="buster"),
        pytest.param({"base": 10}, ["TD", "6C"], [], id="no-buster"),
    ],
)
def test_sd_rule_3_dealer_completes_only_for_a_buster_when_every_player_busted(wagers, dealer, buster):
    ledger = heads_up(SD, ["TS", "5H", "8D"], ["TD", "6C", "7H"], ["hit"], wagers=wagers)
    assert ledger["dealer"]["cards"] == dealer
    assert rows(ledger) == [(1, 0, "base", "lose", 10, -10), *buster]


@pytest.mark.parametrize("table", "abcdef")
@pytest.mark.parametrize("count", [3, 4, 5, 6, 7, 8, 9])
def test_sd_rule_4_buster_pay_tables(table, count):
    pays = PAY_TABLE[min(count, 8)][table]
    assert rows(buster_rows(f"sd-buster-{table}", count), "buster") == [(1, 0, "buster", "win", 1, pays)]


@pytest.mark.parametrize(
    "kind, count, prize",
    [
        ("B1", 8, 8_000),
        ("B1", 9, 8_000),
        ("B1", 7, 1_000),
        ("B3", 8, 5_000),
        ("B3", 7, 1_000),
    ],
)
def test_sd_rule_5_free_bonus_pays_a_fixed_sum(kind, count, prize):
    ledger = buster_rows(SD, count, settings={"free_bonus": kind})
    assert rows(ledger, "free_bonus") == [(1, 0, "free_bonus", "win", 0, prize)]


def test_sd_rule_5_free_bonus_b1_pays_8000():
    """Seat 1 (Buster 1) and seat 3 (Buster 2) get one free bonus each; seat 2 has no Buster. The
    passes run base, Buster, free bonus, each from seat 1 (§8.10)."""
    hands = {1: ["TS", "8H"], 2: ["TH", "8D"], 3: ["TC", "8C"]}
    cards = stack(hands, BUSTS[8][:2], *BUSTS[8][2:])
    ledger = settle(
        make_round(
            SD,
            cards,
            {1: {"base": 10, "buster": 1}, 2: {"base": 10}, 3: {"base": 10, "buster": 2}},
            actions={s: ["stand"] for s in hands},
            settings={"free_bonus": "B1"},
        )
    )
    assert rows(ledger) == [
        (1, 0, "base", "win", 10, 10),
        (2, 0, "base", "win", 10, 10),
        (3, 0, "base", "win", 10, 10),
        (1, 0, "buster", "win", 1, 250),
        (3, 0, "buster", "win", 2, 500),
        (1, 0, "free_bonus", "win", 0, 8_000),
        (3, 0, "free_bonus", "win", 0, 8_000),
    ]
    assert ledger["seats"] == {"1": {"net": 8_260}, "2": {"net": 10}, "3": {"net": 8_510}}


@pytest.mark.parametrize("settings, count", [({"free_bonus": "B1"}, 6), ({}, 8)], ids=["six-cards", "no-free-bonus"])
def test_sd_rule_5_no_free_bonus_row_otherwise(settings, count):
    assert rows(buster_rows(SD, count, settings=settings), "free_bonus") == []


def test_sd_rule_6_lammers_compute_nothing():
    """Lammers only mark side bets on the layout: the ledger has wager rows and nothing else."""
    ledger = buster_rows(SD, 3)
    assert [r[2] for r in rows(ledger)] == ["base", "buster"]
    assert set(ledger) == {
        "format",
        "profile",
        "action_seat",
        "dealer",
        "hands",
        "settlements",
        "seats",
        "player_dealer",
        "fees",
        "unused_cards",
    }

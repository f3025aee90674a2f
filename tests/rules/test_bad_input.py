"""Bad round files through the real command (ROUND-FILE.md): `python -m ui.cli settle FILE` exits 2
and prints exactly one JSON error object, `{"error": {"code", "message", "rule"}}`, naming the problem.

The starting point is a valid 4.0 round: seat 1 holds 10-5 against the PD's 10-7 and stands."""

from __future__ import annotations

from typing import Any

import pytest
from rulebook import PD_SEAT4, Cli, make_round, stack

GOOD = make_round(
    "nobust-4.0", stack({1: ["TS", "5H"]}, ["TD", "7C"]), {1: {"base": 10}}, actions={1: ["stand"]}, pd=PD_SEAT4
)


def doc(**changes: Any) -> dict[str, Any]:
    """The good round with some fields replaced (None removes a field)."""
    data = GOOD | changes
    return {key: value for key, value in data.items() if value is not None}


def seat1(
    profile: str,
    player: list[str],
    dealer: list[str],
    actions: list[str],
    *draws: str,
    pd: dict | None = PD_SEAT4,
    **changes: Any,
) -> dict[str, Any]:
    """Seat 1 alone with 10 on the base; `draws` follow the deal."""
    return doc(
        profile=profile, cards=stack({1: player}, dealer, *draws), actions={"1": actions}, player_dealer=pd, **changes
    )


def assert_refused(cli: Cli, data: object, code: str, rule: str | None, *words: str, text: str | None = None) -> None:
    status, out, err = cli("settle", document=None if text is not None else data, text=text)
    assert status == 2 and err == ""
    assert isinstance(out, dict) and set(out) == {"error"}, out
    error = out["error"]
    assert set(error) == {"code", "message", "rule"}
    assert (error["code"], error["rule"]) == (code, rule), error
    for word in words:
        assert word.lower() in error["message"].lower(), (word, error["message"])


def test_the_good_round_settles(cli):
    status, out, err = cli("settle", document=GOOD)
    assert (status, err) == (0, "")
    assert out["settlements"] == [
        {"seat": 1, "hand": 0, "wager": "base", "stake": 10, "result": "lose", "in_action": 10, "amount": -10}
    ]


def test_round_file_card_code_10_is_a_ten(cli):
    status, out, _ = cli("settle", document=doc(cards=["10S", "10D", "5H", "7C"]))
    assert status == 0 and out["hands"][0]["cards"] == ["TS", "5H"] and out["dealer"]["cards"] == ["TD", "7C"]


@pytest.mark.parametrize(
    "text, code, words",
    [
        pytest.param('{"format": "round-v1", ', "malformed_json", ["line 1"], id="truncated"),
        pytest.param("[1, 2]", "bad_field", ["round", "object"], id="not-an-object"),
    ],
)
def test_bad_input_malformed_json(cli, text, code, words):
    assert_refused(cli, None, code, None, *words, text=text)


@pytest.mark.parametrize(
    "data, code, rule, words",
    [
        pytest.param(doc(format="round-v2"), "bad_format", None, ["format", "round-v2"], id="format"),
        pytest.param(doc(colour="red"), "unknown_field", None, ["colour"], id="unknown-field"),
        pytest.param(doc(profile="blackjack-9"), "unknown_profile", None, ["blackjack-9"], id="unknown-profile"),
        pytest.param(
            doc(settings={"dealer_peeks": True}), "unknown_setting", "7", ["dealer_peeks"], id="unknown-setting"
        ),
        pytest.param(doc(settings={"decks": 0}), "bad_setting", "7", ["decks"], id="decks-0"),
        pytest.param(doc(settings={"seats": 13}), "bad_setting", "7", ["seats"], id="seats-13"),
        pytest.param(doc(settings={"natural_pays": "three to two"}), "bad_setting", "7", ["natural_pays"], id="odds"),
        pytest.param(doc(settings={"coverage": "all"}), "bad_setting", "7", ["coverage"], id="coverage"),
        pytest.param(doc(settings={"max_hands": 5}), "bad_setting", "7", ["max_hands"], id="max-hands"),
        pytest.param(doc(settings={"free_bonus": "B1"}), "bad_setting", "8.19", ["free_bonus"], id="8.19-free-bonus"),
        pytest.param(
            seat1(
                "sd-buster-a",
                ["TS", "5H"],
                ["TD", "7C"],
                ["stand"],
                pd=None,
                settings={"play_starts": "after_player_dealer"},
            ),
            "bad_setting",
            "8.19",
            ["play_starts"],
            id="8.19-play-starts",
        ),
    ],
)
def test_bad_input_profile_and_settings(cli, data, code, rule, words):
    assert_refused(cli, data, code, rule, *words)


@pytest.mark.parametrize(
    "data, code, rule, words",
    [
        pytest.param(doc(player_dealer=None), "missing_player_dealer", "5.1", ["player-dealer"], id="no-pd"),
        pytest.param(
            seat1("sd-buster-a", ["TS", "5H"], ["TD", "7C"], ["stand"]),
            "unexpected_player_dealer",
            "8.10",
            ["house-banked"],
            id="pd-in-house-game",
        ),
        pytest.param(doc(player_dealer={"seat": 4, "bank": 0}), "bad_bank", "5.1", ["bank"], id="bank-0"),
        pytest.param(
            doc(wagers={"4": {"base": 10}}),
            "player_dealer_seat",
            "5.1",
            ["seat 4", "player-dealer"],
            id="pd-seat-wagers",
        ),
        pytest.param(doc(wagers={"9": {"base": 10}}), "bad_seat", "1", ["seat 9"], id="no-such-seat"),
        pytest.param(doc(wagers={"1": {"base": 4}}), "wager_limit", "7", ["base", "$4"], id="base-below-min"),
        pytest.param(doc(wagers={"1": {"base": 501}}), "wager_limit", "7", ["base", "$501"], id="base-above-max"),
        pytest.param(
            doc(wagers={"1": {"base": 10, "buster": 101}}), "wager_limit", "7", ["buster"], id="buster-above-max"
        ),
        pytest.param(
            seat1("sd-buster-a", ["TS", "5H"], ["TD", "7C"], ["stand"], pd=None, wagers={"1": {"base": 1001}}),
            "wager_limit",
            "7",
            ["base", "$1,001"],
            id="sd-base-above-max",
        ),
        pytest.param(
            doc(wagers={"1": {"base": 10.005}}),
            "bad_amount",
            None,
            ["wagers.1.base", "two decimals"],
            id="three-decimals",
        ),
        pytest.param(
            doc(wagers={"1": {"base": -10}}), "bad_amount", None, ["wagers.1.base", "negative"], id="negative"
        ),
        pytest.param(
            doc(wagers={"1": {"base": 10, "side": 5}}), "bad_field", None, ["wagers.1.side"], id="unknown-wager"
        ),
        pytest.param(
            doc(wagers={"1": {"buster": 5}}),
            "side_bet_without_base",
            "2.19",
            ["buster", "base"],
            id="buster-without-base",
        ),
        pytest.param(
            doc(wagers={"1": {"lucky_lucky": 5}}),
            "side_bet_without_base",
            "2.17",
            ["lucky lucky", "base"],
            id="lucky-without-base",
        ),
        pytest.param(
            seat1("c21-8.0", ["TS", "5H"], ["TD", "7C"], ["stand"], wagers={"1": {"base": 10, "lucky_lucky": 5}}),
            "not_offered",
            "8.19",
            ["lucky lucky"],
            id="lucky-in-c21",
        ),
        pytest.param(doc(insurance={"1": 5}), "insurance_not_offered", "8.8", ["insurance"], id="insurance-4.0"),
        pytest.param(
            seat1("sd-buster-a", ["TS", "8H"], ["9H", "AS"], ["stand"], pd=None, insurance={"1": 5}),
            "insurance_not_offered",
            "8.8",
            ["insurance"],
            id="insurance-ace-in-the-hole",
        ),
        pytest.param(
            seat1("c21-8.0", ["TS", "8H"], ["9H", "AS"], ["stand"], insurance={"1": 4}),
            "wager_limit",
            "3.10",
            ["insurance", "minimum"],
            id="insurance-below-5",
        ),
        pytest.param(
            seat1("c21-8.0", ["TS", "8H"], ["9H", "AS"], ["stand"], insurance={"1": 6}),
            "wager_limit",
            "3.10",
            ["insurance", "half"],
            id="insurance-above-half",
        ),
        pytest.param(
            seat1("c21-8.0", ["TS", "8H"], ["9H", "AS"], ["stand"], insurance={"3": 5}),
            "side_bet_without_base",
            "3.10",
            ["seat 3", "base"],
            id="insurance-without-base",
        ),
    ],
)
def test_bad_input_seats_and_wagers(cli, data, code, rule, words):
    assert_refused(cli, data, code, rule, *words)


@pytest.mark.parametrize(
    "data, code, rule, words",
    [
        pytest.param(doc(cards=["1S", "5H", "TD", "7C"]), "bad_card", None, ["1S"], id="rank"),
        pytest.param(doc(cards=["TS", "5Z", "TD", "7C"]), "bad_card", None, ["5Z"], id="suit"),
        pytest.param(doc(cards=["TS", 5, "TD", "7C"]), "bad_card", None, ["5"], id="not-a-string"),
        pytest.param(doc(cards="TS 5H TD 7C"), "bad_field", None, ["cards"], id="not-a-list"),
        pytest.param(
            doc(cards=[*GOOD["cards"], *["AS"] * 7]), "impossible_card", "8.12", ["AS", "7 times"], id="impossible"
        ),
        pytest.param(doc(cards=GOOD["cards"][:3]), "too_few_cards", "6.1", ["ran out"], id="deal"),
        pytest.param(doc(actions={"1": ["hit", "stand"]}), "too_few_cards", "6.1", ["ran out", "seat 1"], id="hit"),
        pytest.param(doc(actions={"1": ["fold"]}), "bad_action", None, ["fold"], id="unknown-token"),
        pytest.param(doc(actions={"1": ["hit:5"]}), "bad_action", None, ["hit:5"], id="hit-with-amount"),
        pytest.param(doc(actions={"1": []}), "missing_decision", "8.4", ["seat 1"], id="missing-decision"),
        pytest.param(doc(actions={"1": ["stand", "stand"]}), "leftover_decision", "8.4", ["left over"], id="leftover"),
    ],
)
def test_bad_input_cards_and_tokens(cli, data, code, rule, words):
    assert_refused(cli, data, code, rule, *words)


NB, C21, SD = "nobust-4.0", "c21-8.0", "sd-buster-a"


@pytest.mark.parametrize(
    "data, code, rule, words",
    [
        pytest.param(
            seat1(NB, ["5S", "6H"], ["TD", "7C"], ["stand"]), "must_hit", "2.10", ["11"], id="4.0-stand-on-11"
        ),
        pytest.param(
            seat1(C21, ["5S", "6H"], ["TD", "7C"], ["stand"]), "must_hit", "3.6", ["11"], id="8.0-stand-on-11"
        ),
        pytest.param(
            seat1(NB, ["TS", "7H"], ["TD", "8C"], ["hit"], "2D"),
            "illegal_action",
            "2.10",
            ["must stand", "17"],
            id="4.0-hit-hard-17",
        ),
        pytest.param(
            seat1(NB, ["TS", "8H"], ["TD", "8C"], ["double"], "2D"),
            "illegal_action",
            "2.10",
            ["must stand", "18"],
            id="4.0-double-hard-18",
        ),
        pytest.param(
            seat1(NB, ["2S", "3H"], ["TD", "8C"], ["hit", "double"], "4D", "5D"),
            "illegal_action",
            "2.11",
            ["two cards"],
            id="4.0-double-three-cards",
        ),
        pytest.param(
            seat1(NB, ["5S", "6H"], ["TD", "8C"], ["double", "hit"], "2D", "KH"),
            "leftover_decision",
            "8.4",
            ["'hit'"],
            id="hit-after-double",
        ),
        pytest.param(
            seat1(C21, ["TS", "8H"], ["TD", "9C"], ["hit", "hit"], "3D", "5S"),
            "leftover_decision",
            "8.4",
            ["'hit'"],
            id="hit-on-21",
        ),
        pytest.param(
            seat1(NB, ["KS", "QH"], ["TD", "8C"], ["split"], "2D"),
            "illegal_action",
            "2.12",
            ["not a pair"],
            id="4.0-split-k-q",
        ),
        pytest.param(
            seat1(C21, ["TS", "9H"], ["TD", "8C"], ["split"], "2D"),
            "illegal_action",
            "3.8",
            ["not a pair"],
            id="8.0-split-t-9",
        ),
        pytest.param(
            seat1(SD, ["TS", "9H"], ["TD", "8C"], ["split"], "2D", pd=None),
            "illegal_action",
            "4.1",
            ["not a pair"],
            id="sd-split-t-9",
        ),
        pytest.param(
            seat1(NB, ["AS", "AH"], ["TD", "8C"], ["split", "split"], "AD", "5D"),
            "leftover_decision",
            "8.4",
            ["'split'"],
            id="resplit-aces",
        ),
        pytest.param(
            seat1(NB, ["8S", "8H"], ["TD", "8C"], ["split"] * 4, "8D", "8C", "8S"),
            "illegal_action",
            "2.12",
            ["4 hands"],
            id="fifth-hand",
        ),
        pytest.param(
            seat1(SD, ["TS", "6H"], ["TD", "8C"], ["surrender"], pd=None),
            "illegal_action",
            "4.1",
            ["surrender"],
            id="sd-surrender",
        ),
        pytest.param(
            seat1(C21, ["AS", "6H"], ["TD", "8C"], ["surrender"]),
            "illegal_action",
            "3.9",
            ["ace"],
            id="8.0-surrender-with-ace",
        ),
        pytest.param(
            seat1(NB, ["8S", "8H"], ["TD", "8C"], ["split", "surrender"], "6D"),
            "illegal_action",
            "8.8",
            ["after a split"],
            id="surrender-after-split",
        ),
        pytest.param(
            seat1(NB, ["5S", "6H"], ["TD", "8C"], ["double:4"], "2D"),
            "wager_limit",
            "8.15",
            ["double", "minimum"],
            id="double-below-min",
        ),
    ],
)
def test_bad_input_illegal_actions(cli, data, code, rule, words):
    assert_refused(cli, data, code, rule, *words)

"""`dealer-assist analyze`: the table, the JSON, the chart, and refusals as JSON with exit 2."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from ui.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["analyze", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out = _run(capsys, *argv, "--json")
    assert code == 0
    return json.loads(out)


def test_2_19_buster_json_gives_each_card_count_as_float_and_exact_fraction(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "buster", "--profile", "nobust-4.0", "--decks", "8")
    assert (data["profile"], data["decks"], data["dealer_hits_soft_17"]) == ("nobust-4.0", 8, True)
    assert data["pays"] == {"3": 2, "4": 2, "5": 4, "6": 15, "7": 50, "8+": 300}
    exact = data["exact"]
    assert list(data["bust_by_cards"]) == list(exact["bust_by_cards"]) == ["3", "4", "5", "6", "7", "8+"]
    fractions = {key: Fraction(text) for key, text in exact["bust_by_cards"].items()}
    assert all(data["bust_by_cards"][key] == float(value) for key, value in fractions.items())
    assert sum(fractions.values()) + Fraction(exact["no_bust"]) == 1
    assert Fraction(exact["house_edge"]) == -Fraction(exact["return"])
    assert data["house_edge"] == float(Fraction(exact["house_edge"]))
    assert (data["wager"], data["free_bonus"]) == (None, None)


def test_4_1_buster_follows_the_profile_soft_17_rule_unless_told(capsys: pytest.CaptureFixture[str]) -> None:
    stands = _json(capsys, "buster", "--profile", "sd-buster-c")
    hits = _json(capsys, "buster", "--profile", "sd-buster-c", "--h17")
    assert (stands["dealer_hits_soft_17"], hits["dealer_hits_soft_17"]) == (False, True)
    assert stands == _json(capsys, "buster", "--profile", "sd-buster-c", "--s17")
    assert hits["bust_by_cards"]["3"] == stands["bust_by_cards"]["3"]  # soft 17 never hits on two cards
    assert hits["bust_by_cards"]["4"] > stands["bust_by_cards"]["4"]


def test_4_5_free_bonus_share_of_a_wager(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "buster", "--profile", "sd-buster-a", "--free-bonus", "B1", "--wager", "5")
    bonus, exact = data["free_bonus"], data["exact"]["free_bonus"]
    assert (bonus["kind"], bonus["prizes"], data["wager"]) == ("B1", {"7": 1000, "8+": 8000}, 5)
    probability = {key: Fraction(text) for key, text in data["exact"]["bust_by_cards"].items()}
    assert Fraction(exact["expected_value"]) == 1000 * probability["7"] + 8000 * probability["8+"]
    assert Fraction(exact["share"]) == Fraction(exact["expected_value"]) / 5
    assert Fraction(exact["house_edge_with_bonus"]) == Fraction(data["exact"]["house_edge"]) - Fraction(exact["share"])
    assert Fraction(data["exact"]["expected_result"]) == 5 * Fraction(data["exact"]["return"])


def test_4_5_free_bonus_without_a_wager_names_the_prizes_only(capsys: pytest.CaptureFixture[str]) -> None:
    bonus = _json(capsys, "buster", "--profile", "sd-buster-b", "--free-bonus", "B3")["free_bonus"]
    assert bonus == {
        "kind": "B3",
        "prizes": {"7": 1000, "8+": 5000},
        "expected_value": None,
        "share": None,
        "house_edge_with_bonus": None,
    }


def test_2_18_lucky_lucky_json_gives_every_line(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, "lucky-lucky", "--decks", "6")
    keys = ["suited_777", "suited_678", "777", "678", "suited_21", "21", "20", "19"]
    assert list(data["lines"]) == list(data["exact"]["lines"]) == keys
    assert data["pays"] == dict(zip(keys, [200, 100, 50, 30, 10, 3, 2, 2], strict=False))
    assert Fraction(data["exact"]["lines"]["suited_777"]) == Fraction(80, 5_013_320)
    total = sum(Fraction(text) for text in data["exact"]["lines"].values()) + Fraction(data["exact"]["loses"])
    assert total == 1


@pytest.mark.slow  # the optimal strategy of a 6-deck shoe is computed first
def test_game_json_gives_the_banker_edge_on_every_wager_with_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("game", "--profile", "nobust-4.0", "--rounds", "300", "--seed", "3")
    data = _json(capsys, *argv)
    assert (data["profile"], data["rounds"], data["seed"], data["players"], data["banker"]) == (
        "nobust-4.0",
        300,
        3,
        3,
        "player-dealer",
    )
    assert set(data["edges"]) == {"base", "buster", "lucky_lucky"}
    for edge in data["edges"].values():
        low, high = edge["ci95"]
        assert low < edge["edge"] < high
    # the players play the optimal table, whose computed base edge the player-dealer gives away
    assert data["edges"]["base"]["exact_full_shoe"] == pytest.approx(-0.1069, abs=1e-4)
    assert data["edges"]["buster"]["exact_full_shoe"] == pytest.approx(0.0536, abs=1e-4)
    assert data["edges"]["buster"]["stake_per_round"] == 3  # three players at the $1 Buster minimum
    assert _json(capsys, *argv) == data
    short = _json(capsys, *argv, "--strategy", "short")
    assert short["edges"]["base"]["exact_full_shoe"] is None and short["seat"] is None
    assert short["strategy"].startswith("split A-A and 8-8")


def test_game_prices_the_player_dealer_seat_with_the_collection_fees(capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(
        capsys, "game", "--profile", "nobust-4.0", "--rounds", "20", "--seed", "3", "--players", "4", "--wager", "60"
    )
    seat = data["seat"]
    assert (seat["banker"], seat["players"], seat["wager"]) == ("player-dealer", 4, 60)
    # a $60 wager is in the $100 tier: $1 a player circle, $2 from the player-dealer (RULES.md §5.5)
    assert seat["fees"] == {"player": 1, "player_dealer": 2}
    assert seat["banker_before_fees"] == pytest.approx(-seat["player_ev"] * 4 * 60)
    assert seat["banker_after_fees"] == pytest.approx(seat["banker_before_fees"] - 2)
    assert seat["break_even_fee"] == seat["banker_before_fees"] < 0, "the player-dealer loses before any fee"
    assert seat["player_after_fees"] == pytest.approx(seat["player_ev"] * 60 - 1)
    house = _json(capsys, "game", "--profile", "sd-buster-a", "--rounds", "20", "--seed", "3")["seat"]
    assert house["banker"] == "house" and house["fees"] == {"player": 0, "player_dealer": 0}
    assert house["banker_before_fees"] > 0


def test_a_base_wager_outside_the_limits_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "game", "--profile", "c21-8.0", "--rounds", "20", "--seed", "3", "--wager", "501")
    assert code == 2 and "--wager" in json.loads(out)["error"]["message"]


def test_tables_are_readable(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "buster", "--profile", "sd-buster-f", "--wager", "10")
    assert code == 0
    assert "Buster bet: sd-buster-f, 6 decks, dealer stands on soft 17" in out
    assert "8+ cards" in out and "250 to 1" in out and "house edge:" in out and "a $10 wager:" in out
    code, out = _run(capsys, "lucky-lucky")
    assert code == 0 and "suited 7-7-7" in out and "200 to 1" in out
    code, out = _run(
        capsys,
        "game",
        "--profile",
        "sd-buster-b",
        "--rounds",
        "50",
        "--seed",
        "1",
        "--players",
        "7",
        "--strategy",
        "short",
    )
    assert code == 0 and "the house's edge per unit wagered" in out and "strategy: split A-A and 8-8" in out


def test_plot_writes_a_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = ["--profile", "c21-8.0", "--rounds", "50", "--seed", "1", "--strategy", "short"]
    for analysis, extra in (("buster", ["--profile", "c21-8.0"]), ("lucky-lucky", ["--decks", "2"]), ("game", game)):
        chart = tmp_path / f"{analysis}.png"
        code, out = _run(capsys, analysis, *extra, "--plot", str(chart))
        assert code == 0 and f"chart written to {chart}" in out
        assert chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["buster"], "bad_arguments"),
        (["buster", "--profile", "nobust-4.0", "--decks", "six"], "bad_arguments"),
        (["buster", "--profile", "nobust-4.0", "--h17", "--s17"], "bad_arguments"),
        (["poker"], "bad_arguments"),
        (["buster", "--profile", "no-such-game"], "unknown_profile"),
        (["buster", "--profile", "nobust-4.0", "--decks", "1"], "bad_setting"),
        (["buster", "--profile", "nobust-4.0", "--free-bonus", "B1"], "bad_setting"),
        (["buster", "--profile", "sd-buster-a", "--free-bonus", "B2"], "bad_arguments"),
        (["buster", "--profile", "sd-buster-a", "--wager", "500"], "bad_wager"),
        (["buster", "--profile", "sd-buster-a", "--wager", "2.505"], "bad_amount"),
        (["lucky-lucky", "--profile", "sd-buster-a"], "not_offered"),
        (["lucky-lucky", "--decks", "9"], "bad_setting"),
        (["lucky-lucky", "--plot", "/no/such/folder/chart.png"], "bad_arguments"),
        (["game", "--profile", "nobust-4.0", "--rounds", "100"], "bad_arguments"),
        (["game", "--profile", "nobust-4.0", "--rounds", "100", "--seed", "1", "--players", "8"], "bad_players"),
        (["game", "--profile", "sd-buster-a", "--rounds", "0", "--seed", "1"], "bad_rounds"),
    ],
)
def test_bad_arguments_are_json_errors_with_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], code: str
) -> None:
    status, out = _run(capsys, *argv)
    assert status == 2
    error = json.loads(out)["error"]
    assert error["code"] == code and error["message"]


def test_help_lists_the_analyses_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(capsys, "--help")
    assert code == 0 and "dealer-assist analyze" in out
    assert all(name in out for name in ("buster", "lucky-lucky", "game"))

"""Rule profiles (RULES.md §7): the shipped defaults, validation, the content hash and the
`dealer-assist profiles` command."""

from __future__ import annotations

import pytest

from dealer_assist.rules.profile import load_profile, profile_names
from dealer_assist.rules.refusals import RuleError

FEES = [{"upto": 50, "player": 0.5, "pd": 1}, {"upto": 100, "player": 1, "pd": 2}]
SD_PAYS = {
    "a": [2, 2, 4, 15, 50, 250],
    "b": [2, 2, 4, 15, 50, 200],
    "c": [2, 2, 4, 12, 50, 250],
    "d": [2, 2, 4, 12, 50, 200],
    "e": [2, 2, 3, 12, 50, 250],
    "f": [1, 2, 8, 20, 50, 250],
}
COMMON = {"max_hands": 4, "buster_min": 1, "buster_max": 100, "decks": 6, "table_min": 5, "payout_check": "hold"}
# RULES.md §7, column by column ("—" is None, or "none" for free_bonus).
TABLE = {
    "nobust-4.0": COMMON
    | {
        "seats": 8,
        "player_dealer": True,
        "dealer_hole_card": False,
        "lucky_lucky": True,
        "play_starts": "seat_1",
        "dealer_up_card": 1,
        "dealer_hits_soft_17": True,
        "natural_pays": "3:2",
        "no_bust_push_totals": [25],
        "over_tie": "push",
        "surrender": "any_two",
        "split_same_value": False,
        "coverage": "running",
        "buster_pays": [2, 2, 4, 15, 50, 300],
        "free_bonus": "none",
        "max_table_payout": None,
        "table_max": 500,
        "insurance_min": 1,
        "fees": FEES,
    },
    "c21-8.0": COMMON
    | {
        "seats": 7,
        "player_dealer": True,
        "dealer_hole_card": True,
        "lucky_lucky": False,
        "play_starts": "after_player_dealer",
        "dealer_up_card": 2,
        "dealer_hits_soft_17": True,
        "natural_pays": "6:5",
        "no_bust_push_totals": [23, 24, 25],
        "over_tie": "push",
        "surrender": "no_ace_12_plus",
        "split_same_value": True,
        "coverage": "running",
        "buster_pays": [2, 2, 4, 15, 50, 200],
        "free_bonus": "none",
        "max_table_payout": 20000,
        "table_max": 500,
        "insurance_min": 5,
        "fees": FEES,
    },
    **{
        f"sd-buster-{t}": COMMON
        | {
            "seats": 7,
            "player_dealer": False,
            "dealer_hole_card": True,
            "lucky_lucky": False,
            "play_starts": "seat_1",
            "dealer_up_card": 1,
            "dealer_hits_soft_17": False,
            "natural_pays": "3:2",
            "no_bust_push_totals": [],
            "over_tie": "dealer",
            "surrender": "none",
            "split_same_value": True,
            "coverage": None,
            "buster_pays": pays,
            "free_bonus": "none",
            "max_table_payout": None,
            "table_max": 1000,
            "insurance_min": 1,
            "fees": [],
        }
        for t, pays in SD_PAYS.items()
    },
}


def test_7_every_profile_is_shipped():
    assert profile_names() == sorted(TABLE)


@pytest.mark.parametrize("name", sorted(TABLE))
def test_7_profile_defaults_match_the_settings_table(name):
    assert load_profile(name).settings() == TABLE[name]


@pytest.mark.parametrize(
    "settings, named",
    [
        ({"insurance": True}, "insurance"),
        ({"decks": 0}, "decks"),
        ({"seats": "eight"}, "seats"),
        ({"dealer_up_card": 3}, "dealer_up_card"),
        ({"no_bust_push_totals": [21]}, "no_bust_push_totals"),
        ({"buster_pays": [2, 2, 4]}, "buster_pays"),
        ({"fees": [{"upto": 50, "player": 0.5}]}, "fees"),
        ({"table_min": 600}, "table_min"),
        ({"surrender": 2}, "surrender"),
        ({"play_starts": ["seat_1"]}, "play_starts"),
    ],
)
def test_7_profile_validation_names_the_setting(settings, named):
    with pytest.raises(RuleError) as caught:
        load_profile("nobust-4.0", settings)
    assert caught.value.code in {"unknown_setting", "bad_setting"} and named in caught.value.message


def test_7_profile_hash_is_stable_and_follows_every_setting():
    default = load_profile("nobust-4.0").content_hash
    assert len(default) == 64 and default == load_profile("nobust-4.0").content_hash
    assert load_profile("nobust-4.0", {"decks": 6}).content_hash == default  # the same resolved rules
    changed = {
        load_profile("nobust-4.0", change).content_hash
        for change in ({"decks": 8}, {"over_tie": "dealer"}, {"coverage": "stake"}, {"table_max": 400})
    }
    assert len(changed) == 4 and default not in changed
    assert len({load_profile(name).content_hash for name in TABLE}) == len(TABLE)


def test_profiles_command_lists_every_profile(cli):
    status, out, err = cli("profiles")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert [line.split()[0] for line in lines] == sorted(TABLE)
    assert "No Bust 21st Century Buster Blackjack 4.0 with Lucky Lucky" in lines[1]
    status, listed, _ = cli("profiles", "--json")
    assert status == 0
    assert {p["id"]: p["hash"] for p in listed} == {name: load_profile(name).content_hash for name in TABLE}


def test_profiles_command_shows_one_profile_with_its_sources(cli):
    status, out, err = cli("profiles", "c21-8.0", "--json")
    assert (status, err) == (0, "")
    assert out["id"] == "c21-8.0" and out["hash"] == load_profile("c21-8.0").content_hash
    assert out["settings"] == TABLE["c21-8.0"]
    assert out["sources"]["natural_pays"] == "RULES.md §3.3"
    assert out["sources"]["max_table_payout"] == "RULES.md §3.12"
    assert set(out["sources"]) <= set(out["settings"])
    status, text, _ = cli("profiles", "nobust-4.0")
    assert status == 0 and "RULES.md §2.7 (DECISION)" in text and "over_tie" in text


def test_profiles_command_unknown_profile_is_a_json_error(cli):
    status, out, err = cli("profiles", "blackjack-9")
    assert (status, err) == (2, "")
    assert out["error"]["code"] == "unknown_profile" and "blackjack-9" in out["error"]["message"]


def test_profiles_command_reads_amounts_as_currency_and_its_json_keeps_numbers(cli):
    status, text, _ = cli("profiles", "c21-8.0")
    shown = {line.split()[0]: line.split("RULES.md")[0].split(None, 1)[1].strip() for line in text.splitlines()[3:]}
    assert status == 0 and "5.0" not in text
    assert (shown["table_min"], shown["table_max"], shown["insurance_min"], shown["max_table_payout"]) == (
        "$5",
        "$500",
        "$5",
        "$20,000",
    )
    assert shown["fees"] == "up to $50: player $0.50, PD $1; up to $100: player $1, PD $2"
    assert shown["decks"] == "6" and shown["natural_pays"] == '"6:5"', "what is not money reads as before"
    _, listed, _ = cli("profiles", "c21-8.0", "--json")
    assert listed["settings"]["table_min"] == 5 and listed["settings"]["fees"] == FEES

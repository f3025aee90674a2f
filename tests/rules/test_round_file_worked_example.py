"""The worked example of ROUND-FILE.md, through the library and through the command."""

from __future__ import annotations

WORKED = {
    "format": "round-v1",
    "profile": "nobust-4.0",
    "settings": {"decks": 6},
    "seats": 8,
    "player_dealer": {"seat": 4, "bank": 500},
    "wagers": {"1": {"base": 25, "lucky_lucky": 5, "buster": 5}, "6": {"base": 10, "buster": 1}},
    "cards": ["7S", "9H", "KD", "7H", "7C", "5D", "2S", "KC"],
    "actions": {"1": ["stand"], "6": ["hit", "stand"]},
}


def test_round_file_worked_example_ledger(settle):
    ledger = settle(WORKED)
    assert ledger["format"] == "ledger-v1"
    assert ledger["action_seat"] == 1
    assert ledger["dealer"] == {"cards": ["KD", "5D", "KC"], "total": 25, "status": "over"}
    assert ledger["hands"][0] == {
        "seat": 1,
        "hand": 0,
        "cards": ["7S", "7H"],
        "total": 14,
        "status": "under",
        "doubled": False,
        "surrendered": False,
    }
    assert ledger["hands"][1]["cards"] == ["9H", "7C", "2S"]
    rows = [(r["seat"], r["wager"], r["result"], r["in_action"], r["amount"]) for r in ledger["settlements"]]
    assert rows == [
        (1, "lucky_lucky", "lose", 5, -5),
        (1, "base", "win", 25, 25),
        (6, "base", "win", 10, 10),
        (1, "buster", "win", 5, 10),
        (6, "buster", "win", 1, 2),
    ]
    assert ledger["seats"] == {"1": {"net": 30}, "6": {"net": 12}}
    assert ledger["player_dealer"] == {"seat": 4, "bank": 500, "net": -42}
    assert ledger["fees"] == {"players": 1.0, "player_dealer": 1.0}
    assert ledger["unused_cards"] == 0


def test_round_file_settle_command_prints_ledger_and_table(cli):
    status, out, err = cli("settle", document=WORKED)
    assert status == 0, f"{out}{err}"
    assert out["player_dealer"]["net"] == -42
    status, table, _ = cli("settle", "--table", document=WORKED)
    assert status == 0
    assert "Lucky Lucky" in table and "net -$42" in table and "lucky_lucky" not in table


def test_round_file_malformed_json_exits_2_with_one_error_object(cli):
    status, out, err = cli("settle", text='{"format": "round-v1", ')
    assert status == 2
    assert err == ""
    error = out["error"]
    assert error["code"] == "malformed_json" and "line 1" in error["message"]

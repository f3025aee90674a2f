"""Helpers shared by the rule tests: stack a shoe in table order, read a ledger, run the command.

Every expected ledger in these tests is worked out by hand from RULES.md and ROUND-FILE.md; the
helpers only shorten how a round is written down and how its rows are read back.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.play.round_file import settle_round
from dealer_assist.rules.refusals import RuleError
from ui.cli import main as cli_main

Wagers = Mapping[int, Mapping[str, float]]
RowTuple = tuple[int, int, str, str, float, float]


def make_round(
    profile: str,
    cards: list[str],
    wagers: Mapping[Any, Mapping[str, float]],
    *,
    actions: Mapping[Any, list[str]] | None = None,
    pd: Mapping[str, float] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A `round-v1` document; seat keys may be ints or strings."""
    data: dict[str, Any] = {
        "format": "round-v1",
        "profile": profile,
        "cards": cards,
        "wagers": {str(seat): dict(w) for seat, w in wagers.items()},
        "actions": {str(seat): list(a) for seat, a in (actions or {}).items()},
    }
    if pd is not None:
        data["player_dealer"] = dict(pd)
    if "insurance" in extra:
        extra["insurance"] = {str(seat): amount for seat, amount in extra["insurance"].items()}
    data.update(extra)
    return data


def stack(hands: Mapping[int, list[str]], dealer: list[str], *draws: str) -> list[str]:
    """The shoe for a deal (RULES.md §8.1): one card to each seat from seat 1 up, then the dealer,
    a second round the same way, then the draws in table order."""
    seats = sorted(hands)
    return [hands[s][0] for s in seats] + [dealer[0]] + [hands[s][1] for s in seats] + [dealer[1], *draws]


def rows(ledger: Mapping[str, Any], wager: str | None = None) -> list[RowTuple]:
    """Settlement rows as (seat, hand, wager, result, in_action, amount), in settlement order."""
    return [
        (r["seat"], r["hand"], r["wager"], r["result"], r["in_action"], r["amount"])
        for r in ledger["settlements"]
        if wager is None or r["wager"] == wager
    ]


def amounts(ledger: Mapping[str, Any], wager: str) -> dict[tuple[int, int], float]:
    """(seat, hand) -> amount for one kind of wager."""
    return {(r["seat"], r["hand"]): r["amount"] for r in ledger["settlements"] if r["wager"] == wager}


def hand(ledger: Mapping[str, Any], seat: int, index: int = 0) -> dict[str, Any]:
    return next(h for h in ledger["hands"] if h["seat"] == seat and h["hand"] == index)


def settle(data: Mapping[str, Any]) -> dict[str, Any]:
    return settle_round(data)


def refused(data: Mapping[str, Any]) -> RuleError:
    """The RuleError a round file raises; the test fails if it settles."""
    with pytest.raises(RuleError) as caught:
        settle_round(data)
    return caught.value


class Cli:
    """`dealer-assist ARGS`, with a round file written from `document` or `text` as the last argument
    when given; returns (exit status, decoded stdout, stderr). It runs in this process, or as
    `python -m ui.cli` in a process of its own when `separate` (the slow lane runs both)."""

    def __init__(self, tmp_path: Path, *, separate: bool) -> None:
        self._tmp_path = tmp_path
        self._separate = separate

    def __call__(self, *args: str, document: object = None, text: str | None = None) -> tuple[int, Any, str]:
        argv = list(args)
        if document is not None or text is not None:
            path = self._tmp_path / "round.json"
            path.write_text(text if text is not None else json.dumps(document), encoding="utf-8")
            argv.append(str(path))
        status, stdout, stderr = self._process(argv) if self._separate else self._in_process(argv)
        try:
            out = json.loads(stdout)
        except json.JSONDecodeError:
            out = stdout
        return status, out, stderr

    @staticmethod
    def _process(argv: list[str]) -> tuple[int, str, str]:
        done = subprocess.run(
            [sys.executable, "-m", "ui.cli", *argv],
            capture_output=True,
            text=True,
            cwd=Path(__file__).resolve().parents[2],
        )
        return done.returncode, done.stdout, done.stderr

    @staticmethod
    def _in_process(argv: list[str]) -> tuple[int, str, str]:
        stdout, stderr = io.StringIO(), io.StringIO()
        with redirect_stdout(stdout), redirect_stderr(stderr):
            try:
                status = cli_main(argv)
            except SystemExit as stop:
                status = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
        return status, stdout.getvalue(), stderr.getvalue()


PD_SEAT4 = {"seat": 4, "bank": 500}


def heads_up(
    profile: str,
    player: list[str],
    dealer: list[str],
    actions: list[str] = (),
    *,
    wagers: Mapping[str, float] | None = None,
    pd: Mapping[str, float] | None = None,
    seat: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    """One seat against the dealer: the player's two cards then its hits, the dealer's two cards then
    its draws, dealt in table order. Player-dealer games put the PD in seat 4 with a 500 bank unless
    `pd` says otherwise; house-banked games have none."""
    if pd is None and not profile.startswith("sd-"):
        pd = PD_SEAT4
    cards = stack({seat: player[:2]}, dealer[:2], *player[2:], *dealer[2:])
    data = make_round(profile, cards, {seat: wagers or {"base": 10}}, actions={seat: list(actions)}, pd=pd, **extra)
    return settle_round(data)


# The dealer's cards for a bust of exactly N cards, drawn to the rules of every profile (no Ace
# is ever counted 11 on the way, so soft-17 rules do not change them).
BUSTS: dict[int, list[str]] = {
    3: ["TD", "6D", "KD"],
    4: ["2D", "3D", "TD", "KD"],
    5: ["2D", "2H", "3D", "9D", "KD"],
    6: ["2D", "2H", "2C", "3D", "7D", "KD"],
    7: ["2D", "2H", "2C", "2S", "3D", "5D", "KD"],
    8: ["2D", "2H", "2C", "2S", "3D", "3H", "2D", "KD"],
    9: ["2D", "2H", "2C", "2S", "2D", "2H", "AC", "3C", "KC"],
}


def buster_rows(profile: str, cards: int, **extra: Any) -> dict[str, Any]:
    """Seat 1 stands on 18 with a 10 base and a 1 Buster while the dealer busts with `cards` cards."""
    ledger = heads_up(profile, ["TS", "8H"], BUSTS[cards], ["stand"], wagers={"base": 10, "buster": 1}, **extra)
    assert len(ledger["dealer"]["cards"]) == cards and ledger["dealer"]["status"] == "over"
    return ledger


def button_round(
    profile: str, players: list[int], dealer: list[str], *draws: str, pd: Mapping[str, float] = PD_SEAT4, **extra: Any
) -> dict[str, Any]:
    """Every seat in `players` stands on 18 against the PD (seat 4 unless `pd` says otherwise)."""
    hands = {s: ["T" + "SHDC"[i % 4], "8" + "SHDC"[i % 4]] for i, s in enumerate(players)}
    return settle_round(
        make_round(
            profile,
            stack(hands, dealer, *draws),
            {s: {"base": 10} for s in players},
            actions={s: ["stand"] for s in players},
            pd=pd,
            **extra,
        )
    )


def rotated(seats: list[int], first: int) -> list[int]:
    """`seats` in clockwise order starting at `first`."""
    start = seats.index(first)
    return seats[start:] + seats[:start]

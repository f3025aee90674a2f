"""`dealer-assist analyze`: what the bets are worth under a rule profile.

`buster` and `lucky-lucky` give exact odds from the full shoe; `strategy` the optimal strategy of
the base game and its EV; `game` plays whole rounds through the round tracker. Each prints a table, or `--json`, and
draws a chart with `--plot FILE.png`.
A bad argument is reported as `{"error": {...}}` on stdout with exit status 2, like every other
refusal.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from dealer_assist.analysis.base_game import BaseGame, analyze
from dealer_assist.analysis.buster_odds import BUST_KEYS, FreeBonusShare, buster_odds, free_bonus_share
from dealer_assist.analysis.chart import bar_chart_png, interval_chart_png
from dealer_assist.analysis.lucky_odds import lucky_odds
from dealer_assist.analysis.odds import BetOdds
from dealer_assist.analysis.player_strategy import STRATEGY
from dealer_assist.analysis.strategy_chart import LETTER, chart_columns, strategy_chart_png, strategy_rows
from dealer_assist.analysis.strategy_table import best
from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import CommandCode
from dealer_assist.rules.counts import count
from dealer_assist.rules.money import Cents, format_money, parse_amount, to_units
from dealer_assist.rules.profile import FreeBonus, Profile, load_profile
from dealer_assist.rules.refusals import InputError, Refusal, RuleError
from dealer_assist.rules.settlement import FREE_BONUS, Wager

if TYPE_CHECKING:  # `game` alone plays rounds: the tracker loads only when it is asked for
    from dealer_assist.analysis.seat_result import SeatResult

OPTIMAL = "optimal"
SHORT = "short"
OPTIMAL_STRATEGY = "the optimal strategy of `analyze strategy` for the profile's decks; never insure"
DEFAULT_PLAYERS = 3
LUCKY_LABELS = {
    "suited_777": "suited 7-7-7",
    "suited_678": "suited 6-7-8",
    "777": "7-7-7",
    "678": "6-7-8",
    "suited_21": "suited 21",
    "21": "21",
    "20": "20",
    "19": "19",
}


@dataclass(frozen=True, slots=True)
class _Report:
    """One analysis, ready to print as a table or JSON and to draw."""

    text: str
    data: dict[str, object]
    chart: Callable[[], bytes]


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(
        prog="dealer-assist analyze", description="What the bets are worth under a rule profile."
    )
    kinds = parser.add_subparsers(dest="analysis", required=True, metavar="ANALYSIS")
    buster = kinds.add_parser("buster", help="exact: the dealer's bust by number of cards, the Buster pay table")
    buster.add_argument("--profile", required=True, help="rule profile, e.g. nobust-4.0 or sd-buster-a")
    buster.add_argument("--decks", type=int, help="decks in the shoe (default: the profile's)")
    rule = buster.add_mutually_exclusive_group()
    rule.add_argument("--h17", dest="hits_soft_17", action="store_const", const=True, help="dealer hits soft 17")
    rule.add_argument("--s17", dest="hits_soft_17", action="store_const", const=False, help="dealer stands on soft 17")
    buster.add_argument("--wager", help="one Buster wager, e.g. 25 or 12.50: prices the free bonus per wager")
    buster.add_argument(
        "--free-bonus",
        choices=[FreeBonus.B1.value, FreeBonus.B3.value],
        help="Deadwood free bonus (sd-buster profiles; their default is none)",
    )
    lucky = kinds.add_parser("lucky-lucky", help="exact: every Lucky Lucky pay line and the pay table's return")
    lucky.add_argument("--profile", default="nobust-4.0", help="a profile with Lucky Lucky (default nobust-4.0)")
    lucky.add_argument("--decks", type=int, help="decks in the shoe (default: the profile's)")
    game = kinds.add_parser("game", help="Monte Carlo of whole rounds: the banker's edge on every wager")
    game.add_argument("--profile", required=True, help="rule profile")
    game.add_argument("--rounds", type=int, required=True, help="rounds to play")
    game.add_argument("--seed", type=int, required=True, help="seed of the shuffles: the same seed, the same result")
    game.add_argument(
        "--players",
        type=int,
        default=DEFAULT_PLAYERS,
        help=f"seats with wagers, from seat 1 (default {DEFAULT_PLAYERS})",
    )
    game.add_argument(
        "--strategy",
        choices=[OPTIMAL, SHORT],
        default=OPTIMAL,
        help="the players' play: the optimal table (default) or the short fixed strategy",
    )
    game.add_argument("--wager", help="each player's base wager for the seat's price (default: the table minimum)")
    for command in (buster, lucky, game):
        command.add_argument("--plot", metavar="FILE.png", type=Path, help="also draw a chart as a PNG")
    strategy = kinds.add_parser("strategy", help="exact: the optimal strategy of the base game and its EV")
    strategy.add_argument("--profile", required=True, help="rule profile")
    shoe = strategy.add_mutually_exclusive_group()
    shoe.add_argument("--infinite", action="store_true", help="an infinite deck (exact)")
    shoe.add_argument("--decks", type=int, help="decks in the shoe (default: the profile's)")
    strategy.add_argument(
        "--chart", dest="plot", metavar="FILE.png", type=Path, help="also draw the strategy card as a PNG"
    )
    for command in (buster, lucky, game, strategy):
        command.add_argument("--json", action="store_true", help="print JSON instead of a table")
    return parser


def main(argv: list[str]) -> int:
    return reporting(lambda: _analyze(argv), Stream.STDOUT, rule=True)


def _analyze(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as done:  # --help has printed its text
        return int(done.code or 0)
    if args.plot is not None and not args.plot.parent.is_dir():
        raise InputError(CommandCode.BAD_ARGUMENTS, f"--plot: folder {str(args.plot.parent)!r} does not exist", None)
    report = _ANALYSES[args.analysis](args)
    if args.plot is not None:
        _write_plot(report, args.plot)
    if args.json:
        print(json.dumps(report.data, indent=2))
    else:
        print(report.text)
        if args.plot is not None:
            print(f"chart written to {args.plot}")
    return 0


def _overrides(args: argparse.Namespace, **settings: object) -> dict[str, object]:
    given = {"decks": args.decks, **settings}
    return {key: value for key, value in given.items() if value is not None}


# --- buster ---------------------------------------------------------------------------------------


def _buster(args: argparse.Namespace) -> _Report:
    profile = load_profile(
        args.profile, _overrides(args, dealer_hits_soft_17=args.hits_soft_17, free_bonus=args.free_bonus)
    )
    wager = _wager(args.wager, profile)
    odds = buster_odds(profile.decks, profile.dealer_hits_soft_17, profile.buster_pays)
    bonus = (
        None
        if wager is None or profile.free_bonus == FreeBonus.NONE
        else (free_bonus_share(odds, profile.free_bonus, wager))
    )
    rule = "hits" if profile.dealer_hits_soft_17 else "stands on"
    title = f"Buster bet: {profile.id}, {count(profile.decks, 'deck')}, dealer {rule} soft 17"
    probabilities, exact = _lines_json(odds, "bust_by_cards", "no_bust")
    notes = [f"house edge: {_percent(odds.house_edge)}"]
    data: dict[str, object] = {
        "analysis": "buster",
        "profile": profile.id,
        "decks": profile.decks,
        "dealer_hits_soft_17": profile.dealer_hits_soft_17,
        "pays": dict(zip(BUST_KEYS, profile.buster_pays, strict=False)),
        **probabilities,
        "exact": exact,
        "wager": None,
        "expected_result": None,
        "free_bonus": None,
    }
    if wager is not None:
        result = wager * odds.player_return
        notes.append(f"a {format_money(wager)} wager: {_money(result)} on average a round")
        data.update(wager=to_units(wager), expected_result=float(result / 100))
        exact["expected_result"] = str(result / 100)
    if profile.free_bonus != FreeBonus.NONE:
        notes.append(_free_bonus_note(profile.free_bonus, bonus, odds))
        data["free_bonus"], exact["free_bonus"] = _free_bonus_json(profile.free_bonus, bonus, odds)
    labels = {key: f"{key} cards" for key in BUST_KEYS}
    return _odds_report(title, odds, labels, "no bust", notes, data)


def _wager(text: str | None, profile: Profile) -> int | None:
    if text is None:
        return None
    wager = parse_amount(text, "--wager")
    if not profile.buster_min <= wager <= profile.buster_max:
        raise InputError(
            CommandCode.BAD_WAGER,
            f"--wager: {format_money(wager)} is outside the Buster limits "
            f"{format_money(profile.buster_min)} to {format_money(profile.buster_max)} of {profile.id}",
            "7",
        )
    return wager


def _free_bonus_note(kind: FreeBonus, bonus: FreeBonusShare | None, odds: BetOdds) -> str:
    seven, eight = FREE_BONUS[kind]
    prizes = f"free bonus {kind.value} ({format_money(eight)} at 8+ cards, {format_money(seven)} at 7)"
    if bonus is None:
        return f"{prizes}: give --wager to see its share of the wager"
    return (
        f"{prizes}: {_money(bonus.expected)} a wager, {_percent(bonus.share)} of it; "
        f"house edge with the bonus: {_percent(bonus.house_edge_with_bonus(odds))}"
    )


def _free_bonus_json(
    kind: FreeBonus, bonus: FreeBonusShare | None, odds: BetOdds
) -> tuple[dict[str, object], dict[str, object]]:
    seven, eight = FREE_BONUS[kind]
    data: dict[str, object] = {"kind": kind.value, "prizes": {"7": to_units(seven), "8+": to_units(eight)}}
    if bonus is None:
        return {**data, "expected_value": None, "share": None, "house_edge_with_bonus": None}, {}
    figures = {
        "expected_value": bonus.expected / 100,
        "share": bonus.share,
        "house_edge_with_bonus": bonus.house_edge_with_bonus(odds),
    }
    return (
        {**data, **{key: float(value) for key, value in figures.items()}},
        {key: str(value) for key, value in figures.items()},
    )


# --- lucky lucky ----------------------------------------------------------------------------------


def _lucky_lucky(args: argparse.Namespace) -> _Report:
    profile = load_profile(args.profile, _overrides(args))
    if not profile.lucky_lucky:
        raise RuleError(Refusal.NOT_OFFERED, f"profile {profile.id} does not offer the Lucky Lucky bet", "8.19")
    odds = lucky_odds(profile.decks)
    probabilities, exact = _lines_json(odds, "lines", "loses")
    data: dict[str, object] = {
        "analysis": "lucky-lucky",
        "profile": profile.id,
        "decks": profile.decks,
        "pays": {line.key: line.pays for line in odds.lines},
        **probabilities,
        "exact": exact,
    }
    title = f"Lucky Lucky bet: {profile.id}, {count(profile.decks, 'deck')}"
    return _odds_report(title, odds, LUCKY_LABELS, "18 or less", [f"house edge: {_percent(odds.house_edge)}"], data)


# --- exact odds, either bet -----------------------------------------------------------------------


def _lines_json(odds: BetOdds, group: str, loss: str) -> tuple[dict[str, object], dict[str, object]]:
    """The same figures twice: floats to read, and exact fractions as strings to check."""

    def convert(to: Callable[[Fraction], object]) -> dict[str, object]:
        return {
            group: {line.key: to(line.probability) for line in odds.lines},
            loss: to(odds.loses),
            "return": to(odds.player_return),
            "house_edge": to(odds.house_edge),
        }

    return convert(float), convert(str)


def _odds_report(
    title: str, odds: BetOdds, labels: dict[str, str], loss_label: str, notes: list[str], data: dict[str, object]
) -> _Report:
    rows = [title, "", f"{'line':<16}{'pays':>10}{'probability':>14}{'return':>14}"]
    for line in odds.lines:
        rows.append(
            f"{labels[line.key]:<16}{f'{line.pays} to 1':>10}"
            f"{float(line.probability):>14.8f}{float(line.player_return):>+14.8f}"
        )
    rows.append(f"{loss_label:<16}{'loses':>10}{float(odds.loses):>14.8f}{float(-odds.loses):>+14.8f}")
    rows.append(f"{'total':<16}{'':>10}{float(odds.total_probability):>14.8f}{float(odds.player_return):>+14.8f}")
    bars = [*((labels[line.key], line.probability) for line in odds.lines), (loss_label, odds.loses)]
    return _Report("\n".join([*rows, "", *notes]), data, lambda: bar_chart_png(title, bars))


# --- game -----------------------------------------------------------------------------------------


def _game(args: argparse.Namespace) -> _Report:
    from dealer_assist.analysis.game_sim import check_game, simulate
    from dealer_assist.analysis.optimal_play import OptimalPlayer
    from dealer_assist.analysis.seat_result import seat_result

    profile = load_profile(args.profile)
    wager = _base_wager(args.wager, profile)
    check_game(profile, args.rounds, args.players)
    optimal = args.strategy == OPTIMAL
    game = analyze(profile, profile.decks) if optimal else None
    decide = None if game is None else OptimalPlayer(game).decide
    estimate = simulate(profile, args.rounds, args.seed, args.players, decide)
    exact = {Wager.BUSTER: buster_odds(profile.decks, profile.dealer_hits_soft_17, profile.buster_pays).house_edge}
    if profile.lucky_lucky:
        exact[Wager.LUCKY_LUCKY] = lucky_odds(profile.decks).house_edge
    if game is not None:
        exact[Wager.BASE] = Fraction(-game.ev)
    banker = "player-dealer" if profile.player_dealer else "house"
    title = (
        f"Game: {profile.id}, {count(profile.decks, 'deck')}, {count(estimate.players, 'player')}, "
        f"{estimate.rounds:,} rounds, seed {estimate.seed}"
    )
    rows = [
        title,
        f"the {banker}'s edge per unit wagered",
        "",
        f"{'wager':<14}{'edge':>10}{'95% interval':>24}{'exact, full shoe':>20}",
    ]
    edges: dict[str, object] = {}
    for edge in estimate.edges:
        known = exact.get(edge.wager)
        rows.append(
            f"{edge.wager.value:<14}{edge.edge:>+10.4%}{f'[{edge.low:+.4%}, {edge.high:+.4%}]':>24}"
            f"{'' if known is None else f'{float(known):+.4%}':>20}"
        )
        edges[edge.wager.value] = {
            "edge": edge.edge,
            "ci95": [edge.low, edge.high],
            "stake_per_round": to_units(edge.stake_per_round),
            "exact_full_shoe": None if known is None else float(known),
        }
    strategy = STRATEGY if game is None else OPTIMAL_STRATEGY
    data: dict[str, object] = {
        "analysis": "game",
        "profile": profile.id,
        "decks": profile.decks,
        "rounds": estimate.rounds,
        "seed": estimate.seed,
        "players": estimate.players,
        "banker": banker,
        "strategy": strategy,
        "edges": edges,
        "seat": None,
    }
    notes = [f"strategy: {strategy}"]
    if game is not None:
        seat = seat_result(profile, game.ev, estimate.players, wager)
        data["seat"] = _seat_json(seat, banker)
        notes.extend(["", *_seat_lines(seat, banker), "", f"base edge computed by `analyze strategy`: {game.model()}"])
    points = [
        (
            edge.wager.value,
            edge.edge,
            edge.low,
            edge.high,
            None if edge.wager not in exact else float(exact[edge.wager]),
        )
        for edge in estimate.edges
    ]
    return _Report("\n".join([*rows, "", *notes]), data, lambda: interval_chart_png(title, points))


def _base_wager(text: str | None, profile: Profile) -> Cents:
    if text is None:
        return profile.table_min
    wager = parse_amount(text, "--wager")
    if not profile.table_min <= wager <= profile.table_max:
        raise InputError(
            CommandCode.BAD_WAGER,
            f"--wager: {format_money(wager)} is outside the base limits "
            f"{format_money(profile.table_min)} to {format_money(profile.table_max)} of {profile.id}",
            "7",
        )
    return wager


def _seat_json(seat: SeatResult, banker: str) -> dict[str, object]:
    return {
        "banker": banker,
        "players": seat.players,
        "wager": to_units(seat.wager),
        "player_ev": seat.player_ev,
        "banker_before_fees": seat.banker_before_fees / 100,
        "fees": {"player": to_units(seat.player_fee), "player_dealer": to_units(seat.banker_fee)},
        "banker_after_fees": seat.banker_after_fees / 100,
        "break_even_fee": seat.break_even_fee / 100,
        "player_after_fees": seat.player_after_fees / 100,
    }


def _seat_lines(seat: SeatResult, banker: str) -> list[str]:
    lines = [
        f"the {banker}'s seat, {count(seat.players, 'player')} betting {format_money(seat.wager)} each, a round "
        f"(the bank covering every wager, optimal play):",
        f"  before fees {_money(Fraction(seat.banker_before_fees))}; the player's EV {seat.player_ev:+.4%}",
    ]
    if banker == "house":
        return [*lines, "  no collection fees (RULES.md §8.10)"]
    lines.append(
        f"  collection fees (RULES.md §5.5): {format_money(seat.player_fee)} a player circle, "
        f"{format_money(seat.banker_fee)} from the player-dealer"
    )
    lines.append(
        f"  after its fee {_money(Fraction(seat.banker_after_fees))}; each player after fee "
        f"{_money(Fraction(seat.player_after_fees))}"
    )
    if seat.break_even_fee >= 0:
        lines.append(f"  the seat breaks even at a player-dealer fee of {_money(Fraction(seat.break_even_fee))}")
    else:
        lines.append(
            f"  no fee lets the seat break even: it loses {_money(Fraction(-seat.break_even_fee))} "
            "a round before any fee"
        )
    return lines


# --- strategy -------------------------------------------------------------------------------------


def _strategy(args: argparse.Namespace) -> _Report:
    profile = load_profile(args.profile, _overrides(args))
    game = analyze(profile, None if args.infinite else profile.decks)
    by = "by_up_card" if profile.dealer_hole_card else "by_player_dealer_hand"
    data: dict[str, object] = {
        "profile": profile.id,
        "decks": game.decks_label,
        "ev": game.ev,
        by: game.by_column,
        "strategy": {label: column.to_json() for label, column in game.columns.items()},
        "insurance": game.insurance,
        "model": game.model(),
    }
    decks = "infinite deck" if game.decks is None else count(game.decks, "deck")
    rows = [f"Optimal strategy: {profile.id}, {decks}", "", f"player EV per unit of initial wager: {game.ev:+.4%}", ""]
    label = "dealer up card" if profile.dealer_hole_card else "player-dealer's hand"
    rows.append(f"{label:<22}{'EV':>10}")
    rows.extend(f"{column:<22}{game.by_column[column]:>+10.4%}" for column in _column_order(game))
    rows.extend(["", _strategy_grid(game), "", "H hit, S stand, D double, P split, R surrender", "", game.model()])
    return _Report("\n".join(rows), data, lambda: strategy_chart_png(game))


def _column_order(game: BaseGame) -> list[str]:
    """The printed card's order, then the columns without decisions (a player-dealer Natural)."""
    shown = chart_columns(game)
    return shown + [label for label in game.by_column if label not in shown]


def _strategy_grid(game: BaseGame) -> str:
    columns = chart_columns(game)
    short = [c.replace("hard ", "h").replace("soft ", "s") for c in columns]
    lines = [f"{'':<9}" + "".join(f"{c:>4}" for c in short)]
    for _, keys in strategy_rows(game):
        for key in keys:
            cells = [game.columns[c].start.get(key) for c in columns]
            lines.append(f"{key:<9}" + "".join(f"{LETTER[best(m)] if m else '-':>4}" for m in cells))
    return "\n".join(lines)


_ANALYSES: dict[str, Callable[[argparse.Namespace], _Report]] = {
    "buster": _buster,
    "lucky-lucky": _lucky_lucky,
    "game": _game,
    "strategy": _strategy,
}


def _write_plot(report: _Report, path: Path) -> None:
    png = report.chart()
    try:
        path.write_bytes(png)
    except OSError as error:
        raise InputError(
            CommandCode.CANNOT_WRITE, f"--plot: cannot write {str(path)!r}: {error.strerror}", None
        ) from None


def _percent(value: Fraction) -> str:
    return f"{float(value) * 100:.4f}%"


def _money(cents: Fraction) -> str:
    """An average in cents, shown to the nearest cent."""
    return format_money(round(cents))

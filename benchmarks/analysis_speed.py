"""How fast the analyses run.

Exact odds: 8-deck Buster under both soft-17 rules plus Lucky Lucky, as exact fractions, within
0.2 s for all three. Monte Carlo: whole rounds through the round tracker at the default three
players, at least 2,000 rounds a second for each kind of game (and, for reference, a full table).
Optimal strategy: `analyze strategy --infinite` under 0.5 s for each profile, `--decks 6` under
10 s, timed twice: `analyze()` inside this process, and the whole command as a user runs it (a new
Python process: start, imports, the analysis, the JSON); the targets are the command's. `--short` runs everything
once on a few rounds and only checks that the figures come out whole
(every distribution sums to 1, every wager has an interval), for the test suite.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from dealer_assist.analysis.base_game import analyze
from dealer_assist.analysis.buster_odds import buster_odds
from dealer_assist.analysis.game_sim import simulate
from dealer_assist.analysis.lucky_odds import lucky_odds
from dealer_assist.analysis.odds import BetOdds
from dealer_assist.rules.profile import load_profile, profile_names

DECKS = 8
EXACT_BUDGET_SECONDS = 0.2
ROUNDS_PER_SECOND = 2_000
GAMES = ("nobust-4.0", "c21-8.0", "sd-buster-a")
STRATEGY_BUDGET_SECONDS = {None: 0.5, 6: 10.0}
COMMAND = (sys.executable, "-m", "ui.cli", "analyze", "strategy")


def exact_odds() -> dict[str, BetOdds]:
    pays = load_profile("nobust-4.0").buster_pays
    return {
        "buster h17": buster_odds(DECKS, True, pays),
        "buster s17": buster_odds(DECKS, False, pays),
        "lucky lucky": lucky_odds(DECKS),
    }


def bench_exact(runs: int, short: bool) -> bool:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        results = exact_odds()
        times.append(time.perf_counter() - start)
    for name, odds in results.items():
        lines = ", ".join(f"{line.key} {float(line.probability):.8f}" for line in odds.lines)
        print(
            f"{name} ({DECKS} decks): {lines}; loses {float(odds.loses):.8f}; house edge {float(odds.house_edge):.6%}"
        )
    if not short:
        median = statistics.median(times)
        print(
            f"exact odds, all three: best {min(times) * 1000:.1f} ms, median {median * 1000:.1f} ms over {runs} runs "
            f"({'within' if median < EXACT_BUDGET_SECONDS else 'OVER'} the {EXACT_BUDGET_SECONDS * 1000:.0f} ms budget)"
        )
    return all(odds.total_probability == 1 for odds in results.values())


def bench_game(rounds: int, short: bool) -> bool:
    whole = True
    for name in GAMES:
        profile = load_profile(name)
        for players in (3, profile.seats - profile.player_dealer):
            start = time.perf_counter()
            estimate = simulate(profile, rounds, 1, players)
            rate = rounds / (time.perf_counter() - start)
            edges = ", ".join(f"{e.wager.value} {e.edge:+.3%} [{e.low:+.3%}, {e.high:+.3%}]" for e in estimate.edges)
            verdict = (
                ""
                if short or players != 3
                else f" ({'at least' if rate >= ROUNDS_PER_SECOND else 'BELOW'} {ROUNDS_PER_SECOND:,})"
            )
            print(
                f"game {name}, {players} players, {rounds:,} rounds: {edges}"
                + ("" if short else f"; {rate:,.0f} rounds/s{verdict}")
            )
            whole = whole and all(e.low <= e.edge <= e.high for e in estimate.edges)
    return whole


def bench_strategy(short: bool) -> bool:
    """Each profile's strategy, infinite and 6 decks, timed once each: the analysis in this
    process, then the whole command in a process of its own."""
    whole = True
    for name in profile_names() if not short else ("sd-buster-a",):
        for decks in STRATEGY_BUDGET_SECONDS:
            profile = load_profile(name, None if decks is None else {"decks": decks})
            start = time.perf_counter()
            game = analyze(profile, decks)
            took = time.perf_counter() - start
            label = "infinite" if decks is None else f"{decks} decks"
            timing = "" if short else f"; analyze() {took:.3f} s, {_command_timing(name, decks)}"
            print(f"strategy {name}, {label}: EV {game.ev:+.4%}{timing}")
            whole = whole and all(column.start or column.label == "natural" for column in game.columns.values())
    return whole


def _command_timing(name: str, decks: int | None) -> str:
    """`dealer-assist analyze strategy ... --json` from process start to exit, against the budget."""
    shoe = ["--infinite"] if decks is None else ["--decks", str(decks)]
    start = time.perf_counter()
    subprocess.run([*COMMAND, "--profile", name, *shoe, "--json"], check=True, stdout=subprocess.DEVNULL)
    took = time.perf_counter() - start
    budget = STRATEGY_BUDGET_SECONDS[decks]
    return f"whole command {took:.3f} s ({'within' if took < budget else 'OVER'} {budget} s)"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="analysis_speed", description=__doc__)
    parser.add_argument("--short", action="store_true", help="one quick run, no timing")
    parser.add_argument("--runs", type=int, default=20, help="timed runs of the exact odds (default 20)")
    parser.add_argument("--rounds", type=int, default=10_000, help="rounds a simulated game (default 10,000)")
    args = parser.parse_args(argv)
    exact_whole = bench_exact(1 if args.short else args.runs, args.short)
    game_whole = bench_game(20 if args.short else args.rounds, args.short)
    strategy_whole = bench_strategy(args.short)
    if not (exact_whole and game_whole and strategy_whole):
        print("a distribution does not sum to 1, or an estimate lies outside its interval", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

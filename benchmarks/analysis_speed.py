"""How long the exact bonus-bet odds take: 8-deck Buster under both soft-17 rules plus Lucky Lucky.

The budget is 0.2 s for all three, as exact fractions. `--short` runs each once and only checks
that the figures come out whole (every distribution sums to 1), for the test suite.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time

from dealer_assist.analysis.buster_odds import buster_odds
from dealer_assist.analysis.lucky_odds import lucky_odds
from dealer_assist.analysis.odds import BetOdds
from dealer_assist.profile import load_profile

DECKS = 8
BUDGET_SECONDS = 0.2


def exact_odds() -> dict[str, BetOdds]:
    pays = load_profile("nobust-4.0").buster_pays
    return {
        "buster h17": buster_odds(DECKS, True, pays),
        "buster s17": buster_odds(DECKS, False, pays),
        "lucky lucky": lucky_odds(DECKS),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="analysis_speed", description=__doc__)
    parser.add_argument("--short", action="store_true", help="one run, no timing")
    parser.add_argument("--runs", type=int, default=20, help="timed runs (default 20)")
    args = parser.parse_args(argv)
    runs = 1 if args.short else args.runs
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        results = exact_odds()
        times.append(time.perf_counter() - start)
    for name, odds in results.items():
        lines = ", ".join(f"{line.key} {float(line.probability):.8f}" for line in odds.lines)
        print(f"{name} ({DECKS} decks): {lines}; loses {float(odds.loses):.8f}; house edge {float(odds.house_edge):.6%}")
    if any(odds.total_probability != 1 for odds in results.values()):
        print("a distribution does not sum to 1", file=sys.stderr)
        return 1
    if not args.short:
        best, median = min(times), statistics.median(times)
        verdict = "within" if median < BUDGET_SECONDS else "OVER"
        print(f"exact odds, all three: best {best * 1000:.1f} ms, median {median * 1000:.1f} ms over {runs} runs "
              f"({verdict} the {BUDGET_SECONDS * 1000:.0f} ms budget)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

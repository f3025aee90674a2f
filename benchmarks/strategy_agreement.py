"""The optimal strategy played through the round tracker, against the EV `analyze strategy` computes.

For every profile: one million rounds (`--rounds`) with an infinite deck against `--infinite`, and
one million from a real shoe of the profile's decks (reshuffled at the cut card) against
`--decks N`. Prints each mean, its standard error and the distance in standard errors; with
`--by-column`, the same for the rounds of each dealer column (up card, or the player-dealer's two
cards) against that column's EV, and the sum of the squared distances, which chance keeps near
the number of columns. `--short` plays a few rounds of one profile, for the test suite.
"""

from __future__ import annotations

import argparse
import math
import time

from dealer_assist.analysis.base_game import BaseGame, analyze
from dealer_assist.analysis.strategy_check import Sample, play_table
from dealer_assist.rules.profile import load_profile, profile_names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="strategy_agreement", description=__doc__)
    parser.add_argument("--rounds", type=int, default=1_000_000, help="rounds per run (default 1,000,000)")
    parser.add_argument(
        "--seed", type=int, default=13, help="seed of the cards, plus the profile's place in the list (default 13)"
    )
    parser.add_argument("--profile", action="append", help="only this profile (repeatable)")
    parser.add_argument("--infinite-only", action="store_true", help="only the infinite-deck runs")
    parser.add_argument("--by-column", action="store_true", help="also each dealer column's mean against its EV")
    parser.add_argument("--short", action="store_true", help="1,000 rounds of sd-buster-a, for the tests")
    args = parser.parse_args(argv)
    names = ["sd-buster-a"] if args.short else args.profile or profile_names()
    rounds = 1_000 if args.short else args.rounds
    for number, name in enumerate(profile_names()):
        if name not in names:
            continue
        profile = load_profile(name)
        for decks in (None,) if args.infinite_only else (None, profile.decks):
            game = analyze(profile, decks)
            start = time.perf_counter()
            # each profile its own cards: the Deadwood tables share one base game
            sample = play_table(game, rounds, args.seed + number)
            took = time.perf_counter() - start
            shoe = "infinite deck" if decks is None else f"{decks}-deck shoe"
            print(
                f"{name:<12} {shoe:<14} EV {game.ev:+.4%}  mean {sample.mean:+.4%}  SE {sample.standard_error:.4%}  "
                f"distance {sample.distance(game.ev):+.2f} SE  ({rounds:,} rounds, {rounds / took:,.0f} rounds/s, "
                f"seed {args.seed + number})",
                flush=True,
            )
            if args.by_column:
                print_columns(game, sample)
    return 0


def print_columns(game: BaseGame, sample: Sample) -> None:
    """Each column's rounds against its EV, the most frequent first; a column of too few rounds
    for a spread counts as distance 0."""
    distances = {}
    for label, column in sorted(sample.by_column.items(), key=lambda item: -item[1].rounds):
        ev = game.by_column[label]
        distances[label] = column.distance(ev) if 0 < column.standard_error < math.inf else 0.0
        print(
            f"    {label:<10} {column.rounds:>10,} rounds  EV {ev:+.4%}  mean {column.mean:+.4%}  "
            f"SE {column.standard_error:.4%}  distance {distances[label]:+.2f} SE"
        )
    columns = len(distances)
    print(
        f"    {columns} columns: sum of squared distances {sum(d * d for d in distances.values()):.1f} "
        f"(chance: about {columns} ± {math.sqrt(2 * columns):.0f})",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())

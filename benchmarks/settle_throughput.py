"""Rounds settled per second and the tracker's time per input, on random full tables.

Every seat bets, with every side bet the profile offers; all profiles in turn. The rounds are
made first (random legal play) and written as round files; then the clock runs over
`settle_round` (parse, replay through the tracker, ledger) in several passes over all of them, and
over each `tracker.apply`. A shared machine's speed wanders from pass to pass: the best pass is
the code's own speed, the median what the machine gave it.
Run: `python benchmarks/settle_throughput.py [--rounds N] [--passes P] [--short]`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from dealer_assist.history.round_record import RoundRecorder
from dealer_assist.play.random_play import play_random_round
from dealer_assist.play.round_file import settle_round
from dealer_assist.play.shoe import Shoe
from dealer_assist.rules.inputs import Input
from dealer_assist.rules.profile import load_profile, profile_names
from dealer_assist.rules.tracker import RoundTracker


def make_rounds(count: int, seed: int) -> list[tuple[dict[str, Any], list[Input], RoundTracker]]:
    rng = random.Random(seed)
    names = profile_names()
    shoes = {name: Shoe(load_profile(name).decks, rng) for name in names}
    rounds = []
    for index in range(count):
        name = names[index % len(names)]
        profile, shoe = load_profile(name), shoes[name]
        if shoe.cut_reached:
            shoe.shuffle()
        inputs: list[Input] = []
        tracker = play_random_round(profile, rng, shoe.draw, full_table=True, on_input=lambda t, e: inputs.append(e))
        recorder = RoundRecorder(name, {}, tracker.seats, tracker.player_dealer)
        fresh = RoundTracker(profile, tracker.seats, tracker.player_dealer)
        for event in inputs:
            recorder.record(event, fresh.apply(event))
        rounds.append((recorder.round_file(), inputs, tracker))
    return rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=8_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--passes", type=int, default=5)
    parser.add_argument("--short", action="store_true", help="a few rounds, only to check it runs")
    args = parser.parse_args()
    count = 200 if args.short else args.rounds
    passes = 1 if args.short else args.passes
    rounds = make_rounds(count, args.seed)

    times = []
    for _ in range(passes):
        start = time.perf_counter()
        for round_file, _, _ in rounds:
            settle_round(round_file)
        times.append(time.perf_counter() - start)

    per_input: list[int] = []
    for _, inputs, played in rounds:
        tracker = RoundTracker(played.profile, played.seats, played.player_dealer)
        for event in inputs:
            t0 = time.perf_counter_ns()
            tracker.apply(event)
            per_input.append(time.perf_counter_ns() - t0)
    per_input.sort()
    p50 = per_input[len(per_input) // 2] / 1e3
    p99 = per_input[int(len(per_input) * 0.99)] / 1e3
    inputs_per_round = statistics.mean(len(inputs) for _, inputs, _ in rounds)
    best, median = count / min(times), count / statistics.median(times)
    print(f"rounds: {count} full tables over {len(profile_names())} profiles, {inputs_per_round:.1f} inputs each")
    print(
        f"settle_round (parse + replay + ledger), {passes} passes: best {best:,.0f} rounds/s, median"
        f" {median:,.0f} rounds/s"
    )
    print(
        f"a month of one table (43,000 rounds) replays in {43_000 / best:.1f} s (median pass {43_000 / median:.1f} s)"
    )
    print(f"tracker.apply per input: p50 {p50:.1f} us, p99 {p99:.1f} us, max {per_input[-1] / 1e3:.1f} us")


if __name__ == "__main__":
    main()

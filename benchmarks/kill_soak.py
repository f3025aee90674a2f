"""Kill-and-restart soak: SIGKILL `dealer-assist bench` at random moments, resume it each time.

At the end the journal must verify, and the inputs it recorded (every card and every decision)
must equal, one for one, those of the same bench run without interruption (fed in process, so
the comparison also shows the links change nothing): no gap, no repeat.
Run: `python benchmarks/kill_soak.py [--kills 200] [--rounds 4000] [--short]`.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from dealer_assist.journal.journal_file import RecordKind, read_records, verify

BENCH = [sys.executable, "-m", "ui.cli", "bench"]


def recorded_inputs(path: Path) -> list[dict[str, Any]]:
    return [r.body["input"] for r in read_records(path) if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--profile", default="c21-8.0")
    parser.add_argument(
        "--links",
        choices=("pty", "in-process"),
        default="pty",
        help="the killed bench's devices: wire emulators on pseudo-terminals (default) or in process",
    )
    parser.add_argument("--dir", type=Path, default=None, help="where the journals go (default: a temporary folder)")
    parser.add_argument("--short", action="store_true", help="5 kills over 400 rounds, only to check it runs")
    args = parser.parse_args()
    kills, rounds = (5, 400) if args.short else (args.kills, args.rounds)
    folder = args.dir or Path(tempfile.mkdtemp(prefix="kill-soak-"))
    folder.mkdir(parents=True, exist_ok=True)
    reference, soaked = folder / "reference.db", folder / "soaked.db"
    common = ["--rounds", str(rounds), "--seed", str(args.seed), "--profile", args.profile]
    subprocess.run(
        [*BENCH, *common, "--journal", str(reference), "--links", "in-process"], check=True, capture_output=True
    )
    common += ["--links", args.links]
    rng = random.Random(args.seed)
    done = 0
    started = time.perf_counter()
    while done < kills:
        resume = ["--resume"] if soaked.exists() else []
        process = subprocess.Popen(
            [*BENCH, *common, "--journal", str(soaked), *resume], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        time.sleep(rng.uniform(0.2, 1.0))
        if process.poll() is not None:
            if process.returncode != 0:
                assert process.stderr is not None
                print(process.stderr.read().decode(), file=sys.stderr)
                return 1
            break  # finished before the kill: start over is not needed
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        done += 1
    final = subprocess.run([*BENCH, *common, "--journal", str(soaked), "--resume"], capture_output=True, text=True)
    if final.returncode != 0:
        print(final.stdout, final.stderr, file=sys.stderr)
        return 1
    verdict = verify(soaked)
    expected, got = recorded_inputs(reference), recorded_inputs(soaked)
    first_difference = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b), None)
    same = expected == got
    print(
        f"kills: {done} over {time.perf_counter() - started:.1f} s; rounds: {rounds}; profile {args.profile};"
        f" links {args.links}"
    )
    print(f"journal verify: {'OK' if verdict.ok else 'DAMAGED'} ({verdict.message})")
    print(
        f"recorded inputs: {len(got)} after kills vs {len(expected)} uninterrupted; identical: {same}"
        + ("" if same else f"; first difference at input {first_difference}")
    )
    return 0 if verdict.ok and same else 1


if __name__ == "__main__":
    sys.exit(main())

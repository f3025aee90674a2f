"""pyzbar against zxing-cpp on the same synthetic frames: how many dealt card codes each reads, and how fast.

Read rate counts every card dealt, including those a hand or glare hides in that frame, so it is a
lower bound on what a decoder can do; a false read is a decoded card code that was not dealt.
Run: `python benchmarks/camera_decoders.py [--scenes N] [--short]`.
"""

from __future__ import annotations

import sys
from pathlib import Path

if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # benchmarks.camera_frames, beside this file

import argparse  # noqa: E402 (after the path is put right)
import statistics
import sys
import time
from collections import Counter

import cv2

from benchmarks.camera_frames import camera_for, one_core, rendered
from devices.camera.codes import parse_card_code
from devices.camera.decoders import DEFAULT_DECODER, DecoderName, make_decoder
from hw_sims.synthetic_camera import CONDITIONS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=8, help="random deals per condition, 5 frames each (default 8)")
    parser.add_argument("--short", action="store_true", help="one deal per condition, only to check the benchmark runs")
    args = parser.parse_args()
    one_core()
    decoders = {name: make_decoder(name) for name in DecoderName}
    read: dict[DecoderName, Counter[str]] = {name: Counter() for name in decoders}
    false: dict[DecoderName, Counter[str]] = {name: Counter() for name in decoders}
    times: dict[DecoderName, dict[str, list[float]]] = {name: {} for name in decoders}
    dealt: Counter[str] = Counter()
    for seed, condition in enumerate(CONDITIONS):
        camera = camera_for(condition, seed)
        frames = rendered(camera, condition, scenes=1 if args.short else args.scenes, per_scene=2 if args.short else 5)
        for frame in frames:
            gray = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
            truth = Counter(card.code for card in frame.cards)
            dealt[condition] += sum(truth.values())
            for name, decoder in decoders.items():
                start = time.perf_counter()
                symbols = decoder.decode(gray)
                times[name].setdefault(condition, []).append(time.perf_counter() - start)
                cards = Counter(s.text for s in symbols if parse_card_code(s.text) is not None)
                read[name][condition] += sum((cards & truth).values())
                false[name][condition] += sum((cards - truth).values())
    names = sorted(decoders, key=lambda n: n != DEFAULT_DECODER)
    header = "".join(f"{n + (' (default)' if n == DEFAULT_DECODER else ''):>34}" for n in names)
    print(f"{'condition':<12}{'cards':>7}{header}")
    print(f"{'':<19}" + "".join(f"{'read':>12}{'false':>8}{'ms/frame':>14}" for _ in names))
    for condition in [*CONDITIONS, "all"]:
        row = f"{condition:<12}{(dealt[condition] if condition != 'all' else sum(dealt.values())):>7}"
        for name in names:
            kinds = list(CONDITIONS) if condition == "all" else [condition]
            got = sum(read[name][k] for k in kinds)
            ms = statistics.median(t for k in kinds for t in times[name][k]) * 1000
            row += f"{got / sum(dealt[k] for k in kinds):>12.1%}{sum(false[name][k] for k in kinds):>8}{ms:>14.1f}"
        print(row)
    return 0 if sum(dealt.values()) > 0 else 1


if __name__ == "__main__":
    sys.exit(main())

"""Camera frames processed per second on one core, 1280x720, against the 30 frames/s of the reference camera.

Each frame goes the whole way a live frame goes: grayscale, decode every card code, map each through the
calibration into a zone, update the placements. The frames (a level mount, the per-frame perturbations
mixed) are rendered first and not timed. Whole frames are decoded: the zones' bounding boxes, widened by
the reach of a card, cover most of an 8-seat table's picture, so decoding only inside them saves nothing.
Run: `python benchmarks/camera_fps.py [--frames N] [--short]`.
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

from benchmarks.camera_frames import camera_for, one_core, rendered
from calibration.camera_calibration import calibrate
from devices.camera.decoders import DEFAULT_DECODER, DecoderName, make_decoder
from devices.camera.placements import PlacementTracker
from devices.camera.reader import CardReader
from hw_sims.synthetic_camera import CONDITIONS

TARGET_FPS = 30.0
FRAMES_PER_SCENE = 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=300, help="frames per decoder (default 300)")
    parser.add_argument("--short", action="store_true", help="a few frames, only to check the benchmark runs")
    args = parser.parse_args()
    one_core()
    total = 5 if args.short else args.frames
    camera = camera_for("clean", seed=0)
    level = [name for name, condition in CONDITIONS.items() if not condition.oblique]
    scenes = -(-total // (len(level) * FRAMES_PER_SCENE))
    frames = [f.image for name in level for f in rendered(camera, name, scenes, FRAMES_PER_SCENE)][:total]
    calibration = calibrate([camera.render(camera.deal({})).image], camera.layout)
    print(
        f"{len(frames)} frames of {frames[0].shape[1]}x{frames[0].shape[0]}, one core; target {TARGET_FPS:g} frames/s"
    )
    ok = True
    for name in sorted(DecoderName, key=lambda n: n != DEFAULT_DECODER):
        reader, tracker = CardReader(calibration, make_decoder(name)), PlacementTracker()
        times = []
        for frame in frames:
            start = time.perf_counter()
            tracker.update(reader.read(frame))
            times.append(time.perf_counter() - start)
        fps = len(times) / sum(times)
        p95 = sorted(times)[int(0.95 * (len(times) - 1))]
        verdict = "" if args.short else ("meets the target" if fps >= TARGET_FPS else "BELOW the target")
        label = f"{name}{' (default)' if name == DEFAULT_DECODER else ''}"
        print(
            f"{label:<18} {fps:7.1f} frames/s  median {statistics.median(times) * 1000:6.1f} ms  p95"
            f" {p95 * 1000:6.1f} ms  {verdict}"
        )
        ok = ok and fps > 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""A long run of synthetic frames: placements must be right for at least 99% of the cards dealt."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from calibration.camera_calibration import Calibration
from calibration.layout import Layout
from devices.camera.adapter import watch
from devices.camera.placements import PlacementTracker
from devices.camera.reader import CardReader
from hw_sims.synthetic_camera import CONDITIONS, SyntheticCamera

pytestmark = pytest.mark.slow  # the placement figure over 540 synthetic frames

SCENES_PER_KIND = 9
FRAMES_PER_SCENE = 10


@dataclass
class Tally:
    cards: int = 0
    right: int = 0
    missed: int = 0
    wrong_zone: int = 0
    extra: int = 0
    frames: int = 0

    @property
    def accuracy(self) -> float:
        return self.right / (self.cards + self.extra)


def _run(kind: str, seed: int, layout: Layout, calibrated: Callable[..., Calibration]) -> Tally:
    condition = CONDITIONS[kind]
    camera = SyntheticCamera(layout, seed=seed, oblique=condition.oblique)
    reader = CardReader(calibrated(camera))
    tally = Tally()
    for _ in range(SCENES_PER_KIND):
        scene = camera.deal(camera.random_hands())
        tracker = PlacementTracker()
        frames = (camera.render(scene, condition.perturbations).image for _ in range(FRAMES_PER_SCENE))
        tally.frames += sum(1 for _ in watch(frames, reader, tracker))
        truth = Counter((card.zone, card.code) for card in scene.cards)
        placed = Counter((p.zone, str(p.code)) for p in tracker.placements())
        right = truth & placed
        misplaced_codes = Counter(code for _, code in placed - right)
        tally.cards += sum(truth.values())
        tally.right += sum(right.values())
        for (_, code), n in (truth - right).items():
            moved = min(n, misplaced_codes[code])
            misplaced_codes[code] -= moved
            tally.wrong_zone += moved
            tally.missed += n - moved
        tally.extra += sum(misplaced_codes.values())
    return tally


def test_placements_are_right_for_99_percent_of_cards_under_each_perturbation(
    layout: Layout, calibrated: Callable[..., Calibration]
) -> None:
    tallies = {kind: _run(kind, seed, layout, calibrated) for seed, kind in enumerate(CONDITIONS, start=100)}
    total = Tally(**{f: sum(getattr(t, f) for t in tallies.values()) for f in Tally.__dataclass_fields__})
    print(f"\n{'kind':<12}{'frames':>7}{'cards':>7}{'right':>7}{'missed':>7}{'wrong':>7}{'extra':>7}{'accuracy':>10}")
    for kind, t in [*tallies.items(), ("all", total)]:
        print(
            f"{kind:<12}{t.frames:>7}{t.cards:>7}{t.right:>7}{t.missed:>7}{t.wrong_zone:>7}{t.extra:>7}{t.accuracy:>10.2%}"
        )
    assert total.frames >= 500
    assert total.accuracy >= 0.99
    assert all(t.accuracy >= 0.97 for t in tallies.values()), {k: t.accuracy for k, t in tallies.items()}

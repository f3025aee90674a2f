"""Frames for the camera benchmarks: rendered before any clock starts, the same for every decoder."""

from __future__ import annotations

import os

import cv2

from calibration.layout import default_layout
from hw_sims.synthetic_camera import CONDITIONS, SyntheticCamera, SyntheticFrame


def one_core() -> None:
    """Measure on one core: OpenCV without worker threads, the process pinned where the OS allows."""
    cv2.setNumThreads(1)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def camera_for(condition: str, seed: int) -> SyntheticCamera:
    return SyntheticCamera(default_layout(), seed=seed, oblique=CONDITIONS[condition].oblique)


def rendered(camera: SyntheticCamera, condition: str, scenes: int, per_scene: int) -> list[SyntheticFrame]:
    """`scenes` random deals, `per_scene` frames each, under one named condition's perturbations."""
    frames = []
    for _ in range(scenes):
        scene = camera.deal(camera.random_hands())
        frames += [camera.render(scene, CONDITIONS[condition].perturbations) for _ in range(per_scene)]
    return frames

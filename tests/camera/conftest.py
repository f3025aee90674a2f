"""Shared pieces for the camera tests: the packaged layout and a way to calibrate synthetic cameras."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import pytest

from calibration.camera_calibration import Calibration, calibrate
from calibration.layout import Layout, default_layout
from hw_sims.synthetic_camera import SyntheticCamera

cv2.setNumThreads(1)


@pytest.fixture(scope="session")
def layout() -> Layout:
    return default_layout()


def _calibrated(camera: SyntheticCamera, frames: int = 3) -> Calibration:
    """Calibrate from a few frames of the camera's empty table, as a technician would."""
    empty = camera.deal({})
    return calibrate([camera.render(empty).image for _ in range(frames)], camera.layout)


@pytest.fixture(scope="session")
def calibrated() -> Callable[..., Calibration]:
    return _calibrated

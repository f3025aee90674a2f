"""The camera adapter: frames in, per-frame readings and placement changes out."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from devices.camera.placements import PlacementChanges, PlacementTracker
from devices.camera.reader import CardReader, FrameReading


@dataclass(frozen=True, slots=True)
class CameraUpdate:
    reading: FrameReading
    changes: PlacementChanges


def watch(frames: Iterable[np.ndarray], reader: CardReader, tracker: PlacementTracker) -> Iterator[CameraUpdate]:
    """One update per frame, for a CameraSource, a recorded file or rendered frames alike."""
    for frame in frames:
        reading = reader.read(frame)
        yield CameraUpdate(reading, tracker.update(reading))

"""The first few frames of an OpenCV source (device index, video or image file, URL) to calibrate from."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.errors import CalibrationCode, CalibrationError


def read_frames(source: str, count: int) -> list[np.ndarray]:
    """Up to `count` frames; a still image gives one. A source that gives none is an error."""
    capture = cv2.VideoCapture(int(source) if source.isdigit() else source)
    try:
        frames: list[np.ndarray] = []
        while capture.isOpened() and len(frames) < count:
            ok, frame = capture.read()
            if not ok or frame is None:
                break
            frames.append(frame)
    finally:
        capture.release()
    if not frames:
        message = f"camera source {source!r} gave no frame: not a camera, video, image or stream"
        raise CalibrationError(CalibrationCode.SOURCE_UNREADABLE, message)
    return frames

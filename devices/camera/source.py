"""Frames from any OpenCV source: a device index, a video or still-image file, or a stream URL."""

from __future__ import annotations

from collections.abc import Iterator
from types import TracebackType

import cv2
import numpy as np

from devices.errors import DeviceCode, DeviceError

__all__ = ["CameraSource"]


class CameraSource:
    """Opens on construction, so a bad source is reported before anything waits on it."""

    def __init__(self, source: str | int) -> None:
        self.source = source
        target = int(source) if isinstance(source, str) and source.isdigit() else source
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            raise DeviceError(
                DeviceCode.SOURCE_UNREADABLE, f"camera source {source!r} cannot be opened as a device, file or URL"
            )

    def __iter__(self) -> Iterator[np.ndarray]:
        """BGR frames until the source ends (a file's last frame; a camera that stops answering)."""
        while True:
            ok, frame = self._capture.read()
            if not ok or frame is None:
                return
            yield frame

    def close(self) -> None:
        self._capture.release()

    def __enter__(self) -> CameraSource:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

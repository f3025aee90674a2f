"""A camera's calibration: where the table lies in its picture, and which zone a pixel falls in."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import CalibrationCode, CalibrationError
from calibration.homography import Matrix, apply, fit_homography
from calibration.layout import Layout, MarkerCorner
from calibration.markers import MarkerDecoder, Pixel, Quad, as_quad, find_markers, quad_centre
from calibration.zones import Point

__all__ = ["Calibration", "calibrate"]

DEFAULT_MAX_ERROR_MM = 2.0


@dataclass(frozen=True, slots=True)
class Calibration:
    """The fitted homography with the layout it maps onto; it is the camera adapter's zone locator."""

    layout: Layout
    image_to_table: Matrix
    image_size: tuple[int, int]
    error_mm: float
    worst_mm: float
    markers_px: Mapping[MarkerCorner, Pixel]

    def to_table(self, pixel: Pixel) -> Point:
        return apply(self.image_to_table, *pixel)

    def zone_at_pixel(self, pixel: Pixel) -> str | None:
        """The zone under an image point, or None on bare felt or off the table."""
        return self.layout.zone_at(self.to_table(pixel))

    def report(self) -> dict[str, object]:
        return {
            "layout": self.layout.name,
            "image_size": list(self.image_size),
            "error_mm": round(self.error_mm, 3),
            "worst_mm": round(self.worst_mm, 3),
            "markers_px": {c.value: [round(v, 2) for v in p] for c, p in self.markers_px.items()},
        }


def calibrate(frames: Iterable[np.ndarray], layout: Layout) -> Calibration:
    """Average each marker's outline over the frames (pyzbar's readings preferred), then fit.

    Averaging several frames of a still camera takes the pixel jitter out of the corners.
    """
    seen: dict[MarkerCorner, dict[MarkerDecoder, list[Quad]]] = {corner: {} for corner in MarkerCorner}
    size: tuple[int, int] | None = None
    count = 0
    for frame in frames:
        count += 1
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        if size is not None and size != (gray.shape[1], gray.shape[0]):
            raise CalibrationError(
                CalibrationCode.BAD_SOURCE, f"frame {count} is {gray.shape[1]}x{gray.shape[0]}, not {size[0]}x{size[1]}"
            )
        size = (gray.shape[1], gray.shape[0])
        for corner, sighting in find_markers(gray).items():
            seen[corner].setdefault(sighting.decoder, []).append(sighting.quad)
    if size is None:
        raise CalibrationError(CalibrationCode.BAD_SOURCE, "the source gave no frames")
    missing = [corner.text for corner, readings in seen.items() if not readings]
    if missing:
        raise CalibrationError(
            CalibrationCode.MARKER_MISSING,
            f"marker{'s' if len(missing) > 1 else ''} {', '.join(missing)} not found in {count} frame(s); "
            "check that all four markers are in view, lit and not covered",
        )
    quads: dict[MarkerCorner, Quad] = {}
    for corner, readings in seen.items():
        best = next(readings[decoder] for decoder in MarkerDecoder if decoder in readings)
        quads[corner] = as_quad(np.mean(np.array(best), axis=0).tolist())
    fit = fit_homography(layout, quads)
    centres = {corner: quad_centre(quad) for corner, quad in quads.items()}
    return Calibration(layout, fit.image_to_table, size, fit.error_mm, fit.worst_mm, centres)

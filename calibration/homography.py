"""The homography from image pixels to table millimetres, and how far it is off.

The four marker centres fix the homography exactly, so their own residual is always zero. What can be
measured is whether the rest of the picture agrees: each marker's four corners, mapped to the table,
should land on the square the layout gives it. Their RMS distance is the reprojection error; a layout
that does not match the felt, a lens that bends the picture or a misread marker all show up in it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import CalibrationCode, CalibrationError
from calibration.layout import Layout, MarkerCorner
from calibration.markers import Quad, canonical_quad, quad_centre

Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True, slots=True)
class HomographyFit:
    image_to_table: Matrix
    error_mm: float
    worst_mm: float


def as_matrix(rows: Sequence[Sequence[float]]) -> Matrix:
    """Three rows of three numbers as a Matrix of floats."""
    if len(rows) != 3 or any(len(row) != 3 for row in rows):
        raise ValueError(f"a homography is 3 x 3, not {[list(row) for row in rows]}")
    (a, b, c), (d, e, f), (g, h, i) = rows
    return (float(a), float(b), float(c)), (float(d), float(e), float(f)), (float(g), float(h), float(i))


def apply(matrix: Matrix, x: float, y: float) -> tuple[float, float]:
    """One point through a homography, without building arrays for it; the horizon maps to infinity."""
    (a, b, c), (d, e, f), (g, h, i) = matrix
    w = g * x + h * y + i
    if w == 0:
        return math.inf, math.inf
    return (a * x + b * y + c) / w, (d * x + e * y + f) / w


def fit_homography(layout: Layout, quads: Mapping[MarkerCorner, Quad]) -> HomographyFit:
    corners = list(MarkerCorner)
    image = np.array([quad_centre(quads[c]) for c in corners], dtype=np.float64)
    table = np.array([layout.markers[c] for c in corners], dtype=np.float64)
    matrix = cv2.getPerspectiveTransform(image.astype(np.float32), table.astype(np.float32))
    if not np.all(np.isfinite(matrix)) or abs(np.linalg.det(matrix)) < 1e-12:
        raise CalibrationError(
            CalibrationCode.BAD_MARKERS, "the four markers lie on a line in the image; no table plane can be fitted"
        )
    fitted = as_matrix(matrix.tolist())
    half = layout.marker_size_mm / 2
    misses = []
    for corner in corners:
        seen = canonical_quad([apply(fitted, x, y) for x, y in quads[corner]])
        cx, cy = layout.markers[corner]
        square = ((cx - half, cy - half), (cx + half, cy - half), (cx + half, cy + half), (cx - half, cy + half))
        misses += [math.dist(p, q) for p, q in zip(seen, square, strict=False)]
    return HomographyFit(fitted, math.sqrt(sum(m * m for m in misses) / len(misses)), max(misses))

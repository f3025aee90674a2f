"""Calibration files: JSON holding the homography, its error and the layout it was fitted against.

The layout is embedded, so the camera needs only this one file, and a table re-laid after
calibration cannot be paired with a stale homography by mistake.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import TypeGuard

import numpy as np

from calibration.camera_calibration import DEFAULT_MAX_ERROR_MM, Calibration
from calibration.errors import CalibrationCode, CalibrationError
from calibration.homography import as_matrix
from calibration.layout import MarkerCorner, layout_from_dict

__all__ = ["load_calibration"]

FORMAT = "dealer-assist-calibration"
VERSION = 1


def save_calibration(calibration: Calibration, path: str | Path, max_error_mm: float = DEFAULT_MAX_ERROR_MM) -> None:
    """Write the file, or refuse when the reprojection error is above the limit."""
    if not calibration.error_mm <= max_error_mm:
        raise CalibrationError(
            CalibrationCode.ERROR_TOO_HIGH,
            f"reprojection error {calibration.error_mm:.2f} mm is above the {max_error_mm:g} mm limit "
            f"(worst corner {calibration.worst_mm:.2f} mm); check the layout's marker positions and size, "
            "and that the markers lie flat and the lens is not bending the picture",
        )
    document = {"format": FORMAT, "version": VERSION, "max_error_mm": max_error_mm} | calibration.report()
    document["image_to_table"] = [list(row) for row in calibration.image_to_table]
    document["layout"] = calibration.layout.to_dict()
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        os.replace(partial, target)
    except OSError as error:
        message = f"calibration file {str(path)!r} cannot be written: {error}"
        raise CalibrationError(CalibrationCode.CALIBRATION_UNWRITABLE, message) from None


def load_calibration(path: str | Path) -> Calibration:
    def fail(message: str) -> CalibrationError:
        return CalibrationError(CalibrationCode.BAD_CALIBRATION, f"calibration file {str(path)!r}: {message}")

    try:
        document = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise CalibrationError(
            CalibrationCode.CALIBRATION_UNREADABLE, f"calibration file {str(path)!r} cannot be read: {error}"
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise fail(f"not JSON ({error})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise fail(f"not a {FORMAT} file")
    if document.get("version") != VERSION:
        raise fail(f"version {document.get('version')!r} is not {VERSION}")

    matrix = document.get("image_to_table")
    if not (isinstance(matrix, list) and len(matrix) == 3 and all(_numbers(row, 3) for row in matrix)):
        raise fail("image_to_table is not a 3 x 3 matrix of numbers")
    if abs(np.linalg.det(np.array(matrix, dtype=np.float64))) < 1e-12:
        raise fail("image_to_table is singular; it maps the picture onto a line")
    size = document.get("image_size")
    if not _numbers(size, 2) or min(size) <= 0:
        raise fail("image_size is not [width, height] in pixels")
    error_mm, worst_mm = document.get("error_mm"), document.get("worst_mm")
    if not (_number(error_mm) and _number(worst_mm)):
        raise fail("error_mm and worst_mm must be numbers")
    markers = document.get("markers_px")
    if (
        not isinstance(markers, dict)
        or set(markers) != {c.value for c in MarkerCorner}
        or not all(_numbers(p, 2) for p in markers.values())
    ):
        raise fail("markers_px must give an [x, y] for each of TL, TR, BR and BL")
    return Calibration(
        layout_from_dict(document.get("layout"), f"{path} (embedded)"),
        as_matrix(matrix),
        (int(size[0]), int(size[1])),
        float(error_mm),
        float(worst_mm),
        {MarkerCorner(c): (float(p[0]), float(p[1])) for c, p in markers.items()},
    )


def _numbers(value: object, count: int) -> TypeGuard[list[float]]:
    """A list of `count` finite numbers."""
    return isinstance(value, list) and len(value) == count and all(_number(v) for v in value)


def _number(value: object) -> TypeGuard[float]:
    """A finite number (booleans are not numbers here)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)

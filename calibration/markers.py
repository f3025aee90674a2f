"""Finding the four calibration markers: QR codes reading DA:CAL:TL, TR, BR and BL.

pyzbar places a QR code's corners more exactly (about 0.75 px against 1.4 px on the synthetic frames),
so it reads first; zxing-cpp, which reads small or blurred codes that zbar misses, fills the gaps.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import zxingcpp
from pyzbar import pyzbar

from calibration.errors import CalibrationCode, CalibrationError
from calibration.layout import MarkerCorner

Pixel = tuple[float, float]
Quad = tuple[Pixel, Pixel, Pixel, Pixel]
_BY_TEXT = {corner.text: corner for corner in MarkerCorner}
_QR = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)


class MarkerDecoder(StrEnum):
    """The decoders that read markers, in order of preference."""

    PYZBAR = "pyzbar"
    ZXING = "zxing"


@dataclass(frozen=True, slots=True)
class MarkerSighting:
    """A marker's outline in the image, corners in canonical order (see `canonical_quad`)."""

    corner: MarkerCorner
    quad: Quad
    decoder: MarkerDecoder


def canonical_quad(points: Sequence[Sequence[float]]) -> Quad:
    """Clockwise on screen, starting at the corner nearest the top left, whatever order a decoder uses."""
    cx = sum(p[0] for p in points) / 4
    cy = sum(p[1] for p in points) / 4
    ring = sorted(points, key=lambda p: math.atan2(p[1] - cy, p[0] - cx))
    start = min(range(4), key=lambda i: ring[i][0] + ring[i][1])
    return as_quad(ring[start:] + ring[:start])


def as_quad(points: Sequence[Sequence[float]]) -> Quad:
    """Four [x, y] points, in the order given, as a Quad of floats."""
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise ValueError(f"a marker's outline is four [x, y] points, not {[list(p) for p in points]}")
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = points
    return (float(ax), float(ay)), (float(bx), float(by)), (float(cx), float(cy)), (float(dx), float(dy))


def quad_centre(quad: Quad) -> Pixel:
    """Where the diagonals cross: the true centre of a square seen in perspective."""
    (x1, y1), (x2, y2), (x3, y3), (x4, y4) = quad
    d1x, d1y, d2x, d2y = x3 - x1, y3 - y1, x4 - x2, y4 - y2
    denominator = d1x * d2y - d1y * d2x
    if abs(denominator) < 1e-9:
        return (x1 + x3) / 2, (y1 + y3) / 2
    t = ((x2 - x1) * d2y - (y2 - y1) * d2x) / denominator
    return x1 + t * d1x, y1 + t * d1y


def find_markers(gray: np.ndarray) -> dict[MarkerCorner, MarkerSighting]:
    """The calibration markers visible in one 8-bit grayscale frame; other codes are ignored."""
    found: dict[MarkerCorner, MarkerSighting] = {}
    for item in pyzbar.decode(gray, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        corner = _BY_TEXT.get(item.data.decode("latin-1"))
        if corner in found:
            message = f"marker {corner.text} appears twice in one frame; the table has one of each"
            raise CalibrationError(CalibrationCode.BAD_MARKERS, message)
        if corner is not None and len(item.polygon) == 4:
            found[corner] = MarkerSighting(corner, canonical_quad(item.polygon), MarkerDecoder.PYZBAR)
    if len(found) < len(MarkerCorner):
        for result in zxingcpp.read_barcodes(gray, formats=_QR):
            corner = _BY_TEXT.get(result.text)
            if corner is not None and corner not in found:
                p = result.position
                points = [(q.x, q.y) for q in (p.top_left, p.top_right, p.bottom_right, p.bottom_left)]
                found[corner] = MarkerSighting(corner, canonical_quad(points), MarkerDecoder.ZXING)
    return found

"""What a real table does to a camera frame: blur, sensor noise, glare from the lights, a dealer's hand."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum

import cv2
import numpy as np

SKIN = (120, 160, 215)


class Perturbation(StrEnum):
    BLUR = "blur"
    NOISE = "noise"
    GLARE = "glare"
    OCCLUSION = "occlusion"


def perturb(
    image: np.ndarray, kinds: frozenset[Perturbation], table_px: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """Apply the kinds in the order light meets them: hand, glare on the felt, lens, then sensor."""
    for kind in (Perturbation.OCCLUSION, Perturbation.GLARE, Perturbation.BLUR, Perturbation.NOISE):
        if kind in kinds:
            image = _EFFECTS[kind](image, table_px, rng)
    return image


def _somewhere_on(table_px: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random point inside the table's image quadrilateral."""
    weights = rng.dirichlet(np.ones(4))
    point: np.ndarray = weights @ table_px
    return point


def _occlude(image: np.ndarray, table_px: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """An arm reaching in from the dealer's edge, ending in a hand."""
    hand = _somewhere_on(table_px, rng)
    shoulder = np.array([rng.uniform(0, image.shape[1]), -40.0])
    width = rng.uniform(60, 90)
    along = (hand - shoulder) / np.linalg.norm(hand - shoulder)
    side = np.array([-along[1], along[0]]) * width / 2
    arm = np.array([shoulder - side, shoulder + side, hand + side, hand - side], dtype=np.int32)
    out = image.copy()
    shade = tuple(float(c) * rng.uniform(0.8, 1.05) for c in SKIN)
    cv2.fillConvexPoly(out, arm, shade, cv2.LINE_AA)
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    axes = (int(width * rng.uniform(0.8, 1.0)), int(width * rng.uniform(0.55, 0.7)))
    cv2.ellipse(out, (int(hand[0]), int(hand[1])), axes, angle, 0, 360, shade, -1, cv2.LINE_AA)
    return out


def _glare(image: np.ndarray, table_px: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One or two soft bright spots, as ceiling lights make on a glossy layout."""
    out = image.copy()
    for _ in range(rng.integers(1, 3)):
        cx, cy = _somewhere_on(table_px, rng)
        radius = rng.uniform(30, 90)
        x0, x1 = max(0, int(cx - 3 * radius)), min(out.shape[1], int(cx + 3 * radius))
        y0, y1 = max(0, int(cy - 3 * radius)), min(out.shape[0], int(cy + 3 * radius))
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        light = rng.uniform(90, 200) * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * radius**2))
        out[y0:y1, x0:x1] = np.clip(out[y0:y1, x0:x1] + light[..., np.newaxis], 0, 255).astype(np.uint8)
    return out


def _blur(image: np.ndarray, table_px: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Out of focus or a little camera shake, one or the other."""
    if rng.random() < 0.5:
        return cv2.GaussianBlur(image, (0, 0), rng.uniform(0.6, 1.1))
    length = int(rng.integers(3, 5))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
    turned = cv2.warpAffine(kernel, turn, (length, length))
    return cv2.filter2D(image, -1, turned / turned.sum())


def _noise(image: np.ndarray, table_px: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise (on brightness, which is what the decoders read) and a small change of exposure."""
    grain = rng.standard_normal(image.shape[:2], dtype=np.float32) * rng.uniform(4, 10)
    exposed = cv2.convertScaleAbs(image, alpha=rng.uniform(0.85, 1.15)).astype(np.float32)
    return cv2.add(exposed, cv2.merge([grain] * 3), dtype=cv2.CV_8U)


_EFFECTS: dict[Perturbation, Callable[[np.ndarray, np.ndarray, np.random.Generator], np.ndarray]] = {
    Perturbation.OCCLUSION: _occlude,
    Perturbation.GLARE: _glare,
    Perturbation.BLUR: _blur,
    Perturbation.NOISE: _noise,
}

"""A synthetic overhead camera: the layout and its cards rendered at 1280x720, with the ground truth.

Everything comes from a seed, so a failing run replays frame by frame. The pose (the true homography)
belongs to the camera, as a mounted camera's does; each frame adds its own blur, noise, glare and
occlusion on top, so the same dealt cards look a little different in every frame.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from calibration.layout import Layout
from calibration.zones import Point, Zone
from dealer_assist.rules.cards import RANKS, SUITS
from hw_sims.synthetic_camera_codes import Symbology, modules_for, qr_modules
from hw_sims.synthetic_camera_effects import Perturbation, perturb

CARD_MM = (63.0, 88.0)
CARD_GAP_MM = 5.0
QR_MODULE_MM = 2.6
CODE128_QUIET_MODULES = 10
MARKER_MARGIN_MM = 8.0
FELT = (38, 105, 28)
RAIL = (30, 45, 70)
PRINT = (150, 200, 210)
CHIP_TRAY_DEPTH_MM = 85.0
CHIPS = ((40, 40, 200), (200, 90, 30), (30, 30, 30), (40, 150, 40), (150, 60, 150))


@dataclass(frozen=True, slots=True)
class Condition:
    """A way the table can look: the camera's mount and what each frame suffers."""

    oblique: bool
    perturbations: frozenset[Perturbation]


# The conditions that tests and benchmarks report figures by, one kind of trouble each.
CONDITIONS: dict[str, Condition] = {
    "clean": Condition(False, frozenset()),
    "perspective": Condition(True, frozenset()),
    "blur": Condition(False, frozenset({Perturbation.BLUR})),
    "noise": Condition(False, frozenset({Perturbation.NOISE})),
    "glare": Condition(False, frozenset({Perturbation.GLARE})),
    "occlusion": Condition(False, frozenset({Perturbation.OCCLUSION})),
}


@dataclass(frozen=True, slots=True)
class CardPose:
    """One card on the table: the text of its code, its zone and where it lies."""

    code: str
    zone: str
    centre_mm: Point
    angle_deg: float
    symbology: Symbology


@dataclass(frozen=True, eq=False, slots=True)
class Scene:
    """Cards as dealt; they stay put from frame to frame, as cards on felt do."""

    cards: tuple[CardPose, ...]
    canvas: np.ndarray


@dataclass(frozen=True, eq=False, slots=True)
class SyntheticFrame:
    image: np.ndarray
    cards: tuple[CardPose, ...]
    image_to_table: np.ndarray
    perturbations: frozenset[Perturbation]

    def truth(self) -> dict[str, list[str]]:
        """Zone -> the codes dealt there, in dealing order."""
        zones: dict[str, list[str]] = {}
        for card in self.cards:
            zones.setdefault(card.zone, []).append(card.code)
        return zones


class SyntheticCamera:
    """Renders one layout from one pose; `oblique` mounts the camera off-axis (strong keystone)."""

    def __init__(
        self,
        layout: Layout,
        seed: int = 0,
        *,
        size: tuple[int, int] = (1280, 720),
        oblique: bool = False,
        px_per_mm: float = 2.0,
    ) -> None:
        self.layout = layout
        self.size = size
        self.rng = np.random.default_rng(seed)
        self.scale = px_per_mm
        self.table_to_image = self._pose(oblique)
        self.image_to_table = np.linalg.inv(self.table_to_image)
        self._canvas_to_image = self.table_to_image @ np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
        self._felt = self._draw_felt()

    def deal(self, hands: Mapping[str, Sequence[str]], symbology: Symbology = Symbology.QR) -> Scene:
        """Lay each zone's codes side by side along the zone's long side, a little askew."""
        canvas = self._felt.copy()
        cards = []
        for zone_name, codes in hands.items():
            zone = self.layout.zone(zone_name)
            (cx, cy), (ux, uy), _ = _long_axis(zone)
            room = _room(zone)
            if len(codes) > room:
                raise ValueError(f"zone {zone_name} holds {room} cards side by side, not {len(codes)}")
            for index, code in enumerate(codes):
                along = (index - (len(codes) - 1) / 2) * (CARD_MM[0] + CARD_GAP_MM)
                jitter = self.rng.uniform(-3.0, 3.0, 2)
                centre = (cx + along * ux + jitter[0], cy + along * uy + jitter[1])
                angle = math.degrees(math.atan2(uy, ux)) + self.rng.uniform(-6.0, 6.0)
                card = CardPose(code, zone_name, centre, angle, symbology)
                self._paste(canvas, card_face(code, symbology, self.scale), centre, angle)
                cards.append(card)
        return Scene(tuple(cards), cv2.GaussianBlur(canvas, (0, 0), 0.5 * self.scale))

    def room(self, zone_name: str) -> int:
        """How many cards `deal` lays side by side in the zone."""
        return _room(self.layout.zone(zone_name))

    def random_hands(self, serial_share: float = 0.5) -> dict[str, list[str]]:
        """A deal as a round might leave it: up to each zone's room, some codes with a deck serial."""
        hands = {}
        for zone in self.layout.zones:
            room = _room(zone)
            count = int(self.rng.integers(1 if zone.name != "discard" else 0, room + 1))
            hands[zone.name] = [self._random_code(serial_share) for _ in range(count)]
        return hands

    def _random_code(self, serial_share: float) -> str:
        code = str(self.rng.choice(list(RANKS))) + str(self.rng.choice(list(SUITS)))
        return code + f".{self.rng.integers(10_000):04d}" if self.rng.random() < serial_share else code

    def render(self, scene: Scene, perturbations: Iterable[Perturbation] = ()) -> SyntheticFrame:
        kinds = frozenset(perturbations)
        image = cv2.warpPerspective(
            scene.canvas, self._canvas_to_image, self.size, flags=cv2.INTER_LINEAR, borderValue=RAIL
        )
        table_px = cv2.perspectiveTransform(_corners(self.layout), self.table_to_image).reshape(-1, 2)
        image = perturb(image, kinds, table_px, self.rng)
        return SyntheticFrame(image, scene.cards, self.image_to_table.copy(), kinds)

    def _pose(self, oblique: bool) -> np.ndarray:
        """Table millimetres -> image pixels: the table fills 90% of the frame, each corner a little off."""
        width, height = self.size
        fit = 0.9 * min(width / self.layout.width_mm, height / self.layout.height_mm)
        half_w, half_h = fit * self.layout.width_mm / 2, fit * self.layout.height_mm / 2
        target = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
        target += (width / 2, height / 2)
        if oblique:
            target[:2, 0] += np.array([1, -1]) * half_w * self.rng.uniform(0.12, 0.18)
        target += self.rng.uniform(-0.02, 0.02, (4, 2)) * (width, height)
        return cv2.getPerspectiveTransform(_corners(self.layout)[0].astype(np.float32), target.astype(np.float32))

    def _draw_felt(self) -> np.ndarray:
        s = self.scale
        shape = (round(self.layout.height_mm * s), round(self.layout.width_mm * s))
        grain = self.rng.normal(0.0, 6.0, shape)[..., np.newaxis]
        canvas = np.clip(np.array(FELT, dtype=np.float64) + grain, 0, 255).astype(np.uint8)
        for zone in self.layout.zones:
            outline = np.round(np.array(zone.polygon) * s).astype(np.int32)
            cv2.polylines(canvas, [outline], True, PRINT, max(1, round(2 * s)), cv2.LINE_AA)
        for corner, (x, y) in self.layout.markers.items():
            self._paste(canvas, _marker(corner.text, self.layout.marker_size_mm, s), (x, y), 0.0)
        _draw_chip_tray(canvas, self.layout.zone("dealer"), s)
        return canvas

    def _paste(self, canvas: np.ndarray, face: np.ndarray, centre: Point, angle_deg: float) -> None:
        """Print a face onto the table canvas, turned by angle_deg about its centre."""
        s = self.scale
        h, w = face.shape[:2]
        reach = math.ceil(math.hypot(h, w) / 2) + 2
        cx, cy = centre[0] * s, centre[1] * s
        x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
        x1, y1 = min(canvas.shape[1], int(cx) + reach), min(canvas.shape[0], int(cy) + reach)
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), -angle_deg, 1.0)
        turn[:, 2] += (cx - x0 - w / 2, cy - y0 - h / 2)
        patch = cv2.warpAffine(face, turn, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        cover = cv2.warpAffine(np.full((h, w), 255, np.uint8), turn, (x1 - x0, y1 - y0))[..., None] / 255.0
        region = canvas[y0:y1, x0:x1]
        region[:] = (region * (1 - cover) + patch * cover).astype(np.uint8)


def _long_axis(zone: Zone) -> tuple[Point, Point, float]:
    """Centroid, unit direction and length of the zone's longest side."""
    points = np.array(zone.polygon)
    sides = np.roll(points, -1, axis=0) - points
    longest = sides[int(np.argmax(np.hypot(sides[:, 0], sides[:, 1])))]
    length = float(np.hypot(*longest))
    if longest[0] < 0:
        longest = -longest
    cx, cy = points.mean(axis=0)
    return (float(cx), float(cy)), (float(longest[0] / length), float(longest[1] / length)), length


def _draw_chip_tray(canvas: np.ndarray, dealer: Zone, s: float) -> None:
    """The house dealer's chip tray, behind the player-dealer's hand area: stacks of 39 mm chips."""
    xs, ys = zip(*dealer.polygon, strict=False)
    top = max(5.0, min(ys) - CHIP_TRAY_DEPTH_MM - 5.0)
    corners = np.round(np.array([[min(xs), top], [max(xs), min(ys) - 5.0]]) * s).astype(int)
    cv2.rectangle(canvas, tuple(corners[0]), tuple(corners[1]), (45, 45, 50), -1)
    columns = int((max(xs) - min(xs)) // 42)
    for column in range(columns):
        for row, y in enumerate((top + 22, top + 62)):
            centre = (round((min(xs) + 21 + column * 42) * s), round(y * s))
            cv2.circle(canvas, centre, round(19 * s), CHIPS[(column + row) % len(CHIPS)], -1, cv2.LINE_AA)
            cv2.circle(canvas, centre, round(13 * s), (235, 235, 235), max(1, round(s)), cv2.LINE_AA)


def _room(zone: Zone) -> int:
    """How many cards fit side by side along the zone's long side."""
    return int((_long_axis(zone)[2] + CARD_GAP_MM) // (CARD_MM[0] + CARD_GAP_MM))


def _corners(layout: Layout) -> np.ndarray:
    w, h = layout.width_mm, layout.height_mm
    return np.array([[[0, 0], [w, 0], [w, h], [0, h]]], dtype=np.float64)


def _print_modules(modules: np.ndarray, width_px: int, height_px: int) -> np.ndarray:
    dark = cv2.resize(modules.astype(np.uint8) * 255, (width_px, height_px), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(255 - dark, cv2.COLOR_GRAY2BGR)


def _marker(text: str, size_mm: float, s: float) -> np.ndarray:
    side = round(size_mm * s)
    margin = round(MARKER_MARGIN_MM * s)
    sheet = np.full((side + 2 * margin, side + 2 * margin, 3), 255, np.uint8)
    sheet[margin : margin + side, margin : margin + side] = _print_modules(qr_modules(text), side, side)
    return sheet


@lru_cache(maxsize=2048)
def card_face(code: str, symbology: Symbology, s: float) -> np.ndarray:
    """A white card with its code in the middle and the rank and suit in two corners (read-only, shared)."""
    w, h = round(CARD_MM[0] * s), round(CARD_MM[1] * s)
    face = np.full((h, w, 3), 250, np.uint8)
    modules = modules_for(code, symbology)
    if symbology is Symbology.QR:
        code_w = code_h = round(modules.shape[1] * QR_MODULE_MM * s)
    else:
        module_mm = (CARD_MM[0] - 4) / (modules.shape[1] + 2 * CODE128_QUIET_MODULES)
        code_w, code_h = round(modules.shape[1] * module_mm * s), round(40 * s)
    top, left = (h - code_h) // 2, (w - code_w) // 2
    face[top : top + code_h, left : left + code_w] = _print_modules(modules, code_w, code_h)
    ink = (30, 30, 200) if code[1:2] in "HD" else (20, 20, 20)
    index = cv2.resize(_index(code[:2], ink), (round(9 * s), round(12 * s)), interpolation=cv2.INTER_AREA)
    ih, iw = index.shape[:2]
    face[2 : 2 + ih, 2 : 2 + iw] = index
    face[h - 2 - ih : h - 2, w - 2 - iw : w - 2] = index[::-1, ::-1]
    face.flags.writeable = False
    return face


def _index(label: str, ink: tuple[int, int, int]) -> np.ndarray:
    tile = np.full((48, 36, 3), 250, np.uint8)
    cv2.putText(tile, label[0], (4, 22), cv2.FONT_HERSHEY_DUPLEX, 0.8, ink, 2, cv2.LINE_AA)
    cv2.putText(tile, label[1:], (6, 44), cv2.FONT_HERSHEY_DUPLEX, 0.7, ink, 1, cv2.LINE_AA)
    return tile

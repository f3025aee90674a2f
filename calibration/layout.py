"""Table layouts: where the calibration markers and the card zones lie, in millimetres.

A layout is a TOML file checked on load into a frozen Layout. A calibration file embeds the same
structure, read back by the same checks, so a hand-edited file is refused naming the field it got wrong.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources
from pathlib import Path

from calibration.errors import CalibrationCode, CalibrationError
from calibration.zones import Point, Zone, zone_at

__all__ = ["Layout", "default_layout"]

DEFAULT_LAYOUT = "default_layout.toml"
_ZONE_NAME = re.compile(r"seat_([1-9][0-9]?)|dealer|discard")


class MarkerCorner(StrEnum):
    TL = "TL"
    TR = "TR"
    BR = "BR"
    BL = "BL"

    @property
    def text(self) -> str:
        """What the marker's QR code reads."""
        return f"DA:CAL:{self.value}"


@dataclass(frozen=True, slots=True)
class Layout:
    name: str
    width_mm: float
    height_mm: float
    marker_size_mm: float
    markers: Mapping[MarkerCorner, Point]
    zones: tuple[Zone, ...]

    @property
    def seats(self) -> int:
        return sum(zone.name.startswith("seat_") for zone in self.zones)

    def zone(self, name: str) -> Zone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise CalibrationError(CalibrationCode.UNKNOWN_ZONE, f"layout {self.name!r} has no zone {name!r}")

    def zone_at(self, point: Point) -> str | None:
        return zone_at(self.zones, point)

    def to_dict(self) -> dict[str, object]:
        """The TOML file's structure, for embedding in a calibration file."""
        return {
            "name": self.name,
            "table": {"width_mm": self.width_mm, "height_mm": self.height_mm},
            "markers": {"size_mm": self.marker_size_mm} | {c.value: list(p) for c, p in self.markers.items()},
            "zones": {zone.name: [list(p) for p in zone.polygon] for zone in self.zones},
        }


def load_layout(path: str | Path) -> Layout:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CalibrationError(
            CalibrationCode.LAYOUT_UNREADABLE, f"layout file {str(path)!r} cannot be read: {error}"
        ) from None
    return parse_layout(text, str(path))


def default_layout_text() -> str:
    return resources.files("calibration").joinpath(DEFAULT_LAYOUT).read_text(encoding="utf-8")


def default_layout() -> Layout:
    return parse_layout(default_layout_text(), DEFAULT_LAYOUT)


def parse_layout(text: str, source: str) -> Layout:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CalibrationError(CalibrationCode.BAD_LAYOUT, f"layout {source!r} is not valid TOML: {error}") from None
    return layout_from_dict(data, source)


def layout_from_dict(data: object, source: str) -> Layout:
    def fail(message: str) -> CalibrationError:
        return CalibrationError(CalibrationCode.BAD_LAYOUT, f"layout {source!r}: {message}")

    def table(key: str) -> Mapping[str, object]:
        value = data.get(key) if isinstance(data, Mapping) else None
        if not isinstance(value, Mapping):
            raise fail(f"missing the [{key}] table")
        return value

    def length(where: str, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
            raise fail(f"{where} = {value!r} is not a positive number of millimetres")
        return float(value)

    def point(where: str, value: object) -> Point:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in value)
        ):
            raise fail(f"{where} = {value!r} is not a point [x_mm, y_mm]")
        x, y = float(value[0]), float(value[1])
        if not (0 <= x <= width and 0 <= y <= height):
            raise fail(f"{where} = {value!r} lies outside the {width:g} x {height:g} mm table")
        return x, y

    name = data.get("name", source) if isinstance(data, Mapping) else source
    size = table("table")
    width = length("table.width_mm", size.get("width_mm"))
    height = length("table.height_mm", size.get("height_mm"))
    marks = table("markers")
    marker_size = length("markers.size_mm", marks.get("size_mm"))
    markers = {}
    for corner in MarkerCorner:
        if corner.value not in marks:
            raise fail(f"markers.{corner.value} is missing; the four markers are TL, TR, BR and BL")
        markers[corner] = point(f"markers.{corner.value}", marks[corner.value])
    zones = []
    for zone_name, polygon in table("zones").items():
        if not _ZONE_NAME.fullmatch(zone_name):
            raise fail(f"zone {zone_name!r} is not seat_N, dealer or discard")
        if not isinstance(polygon, list) or len(polygon) < 3:
            raise fail(f"zones.{zone_name} is not a polygon of at least three points")
        zones.append(Zone(zone_name, tuple(point(f"zones.{zone_name}[{i}]", p) for i, p in enumerate(polygon))))
    names = {zone.name for zone in zones}
    seats = sum(name.startswith("seat_") for name in names)
    needed = {"dealer", "discard"} | {f"seat_{n}" for n in range(1, seats + 1)}
    if seats == 0 or needed - names:
        lacking = sorted(needed - names) or ["seat_1"]
        raise fail(f"zones must include dealer, discard and seat_1..seat_N; missing {lacking}")
    for index, zone in enumerate(zones):
        for other in zones[index + 1 :]:
            if zone.overlaps(other):
                raise fail(f"zones {zone.name} and {other.name} overlap; a card's zone must be unambiguous")
    return Layout(str(name), width, height, marker_size, markers, tuple(zones))

"""Zones: named polygons on the table, and which one holds a point."""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Zone:
    """A card area in table millimetres; a card belongs to the zone that holds its centre."""

    name: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        """Even-odd ray casting, so any simple polygon works, convex or not."""
        x, y = point
        inside = False
        for (x1, y1), (x2, y2) in zip(self.polygon, self.polygon[1:] + self.polygon[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside


def zone_at(zones: Iterable[Zone], point: Point) -> str | None:
    """The name of the first zone holding the point; None on bare felt."""
    return next((zone.name for zone in zones if zone.contains(point)), None)

"""Zones: named polygons on the table, and which one holds a point."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Point", "Zone"]

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
        for (x1, y1), (x2, y2) in self.sides():
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside

    def sides(self) -> list[tuple[Point, Point]]:
        return list(zip(self.polygon, self.polygon[1:] + self.polygon[:1], strict=False))

    def overlaps(self, other: Zone) -> bool:
        """True when the two areas share any ground: a side crosses a side, or one holds the other."""
        if any(_cross(a, b) for a in self.sides() for b in other.sides()):
            return True
        return self.contains(other.polygon[0]) or other.contains(self.polygon[0])


def _cross(first: tuple[Point, Point], second: tuple[Point, Point]) -> bool:
    """Whether two segments properly cross (touching at an end does not count)."""
    (p1, p2), (q1, q2) = first, second

    def side(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p1, p2, q1) * side(p1, p2, q2) < 0 and side(q1, q2, p1) * side(q1, q2, p2) < 0


def zone_at(zones: Iterable[Zone], point: Point) -> str | None:
    """The name of the first zone holding the point; None on bare felt."""
    return next((zone.name for zone in zones if zone.contains(point)), None)

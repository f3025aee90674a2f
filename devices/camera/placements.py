"""Placements: a card counts as placed in a zone once seen there in N consecutive frames.

One frame can misread or miss a card (a hand passing over it, a reflection); a run of frames cannot
do so by chance, so only a run places it. A placed card is kept through short gaps and withdrawn only
after it has been missing for `gone_frames` frames in a row (picked up, or moved to another zone).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from dealer_assist.rules.cards import Card
from dealer_assist.rules.refusals import InputError, Refusal
from devices.camera.codes import CardCode
from devices.camera.reader import FrameReading

DEFAULT_STABLE_FRAMES = 3
DEFAULT_GONE_FRAMES = 30


@dataclass(frozen=True, slots=True)
class Placement:
    zone: str
    code: CardCode
    frame: int


@dataclass(frozen=True, slots=True)
class PlacementChanges:
    placed: tuple[Placement, ...]
    withdrawn: tuple[Placement, ...]


@dataclass(slots=True)
class _Track:
    seen_run: int = 0
    missing_run: int = 0
    placement: Placement | None = field(default=None)


class PlacementTracker:
    def __init__(self, stable_frames: int = DEFAULT_STABLE_FRAMES, gone_frames: int = DEFAULT_GONE_FRAMES) -> None:
        if stable_frames < 1 or gone_frames < 1:
            message = f"stable_frames {stable_frames} and gone_frames {gone_frames} must be at least 1"
            raise InputError(Refusal.BAD_SETTING, message)
        self.stable_frames = stable_frames
        self.gone_frames = gone_frames
        self._tracks: dict[tuple[str, CardCode, int], _Track] = {}

    def update(self, reading: FrameReading) -> PlacementChanges:
        """Feed one frame; say which cards became placed and which were withdrawn by it."""
        counts = Counter((s.zone, s.code) for s in reading.sightings if s.zone is not None)
        seen = {(zone, code, copy) for (zone, code), n in counts.items() for copy in range(n)}
        placed, withdrawn = [], []
        for key in seen | set(self._tracks):
            track = self._tracks.setdefault(key, _Track())
            if key in seen:
                track.seen_run, track.missing_run = track.seen_run + 1, 0
                if track.placement is None and track.seen_run >= self.stable_frames:
                    track.placement = Placement(key[0], key[1], reading.index)
                    placed.append(track.placement)
            else:
                track.seen_run, track.missing_run = 0, track.missing_run + 1
                if track.placement is not None and track.missing_run >= self.gone_frames:
                    withdrawn.append(track.placement)
                    track.placement = None
                if track.placement is None:
                    del self._tracks[key]
        return PlacementChanges(_ordered(placed), _ordered(withdrawn))

    def placements(self) -> tuple[Placement, ...]:
        return _ordered([t.placement for t in self._tracks.values() if t.placement is not None])

    def cards_by_zone(self) -> dict[str, list[Card]]:
        """Zone -> placed cards, the form the comparison with the shoe takes."""
        zones: dict[str, list[Card]] = {}
        for placement in self.placements():
            zones.setdefault(placement.zone, []).append(placement.code.card)
        return zones

    def clear(self) -> None:
        """Forget everything, as when the round's cards are collected."""
        self._tracks.clear()


def _ordered(placements: list[Placement]) -> tuple[Placement, ...]:
    return tuple(sorted(placements, key=lambda p: (p.frame, p.zone, str(p.code))))

"""One frame in, the cards seen in each zone out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from devices.camera.codes import CardCode, parse_card_code
from devices.camera.decoders import Decoder, Pixel, make_decoder

__all__ = ["CardReader"]


class ZoneLocator(Protocol):
    """Which zone an image point falls in; a camera calibration provides it."""

    def zone_at_pixel(self, pixel: Pixel) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Sighting:
    code: CardCode
    zone: str | None
    centre_px: Pixel


@dataclass(frozen=True, slots=True)
class FrameReading:
    index: int
    sightings: tuple[Sighting, ...]
    other_codes: tuple[str, ...]

    def by_zone(self) -> dict[str, list[CardCode]]:
        """Zone -> cards seen there in this frame; cards on bare felt are left out."""
        zones: dict[str, list[CardCode]] = {}
        for sighting in self.sightings:
            if sighting.zone is not None:
                zones.setdefault(sighting.zone, []).append(sighting.code)
        return zones


class CardReader:
    """Decodes every card code in a frame and puts each card, by its centre, in a zone."""

    def __init__(self, locator: ZoneLocator, decoder: Decoder | None = None) -> None:
        self.locator = locator
        self.decoder = decoder or make_decoder()
        self._frames = 0

    def read(self, frame: np.ndarray) -> FrameReading:
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        sightings, others = [], []
        for symbol in self.decoder.decode(gray):
            code = parse_card_code(symbol.text)
            if code is None:
                others.append(symbol.text)
            else:
                sightings.append(Sighting(code, self.locator.zone_at_pixel(symbol.centre), symbol.centre))
        self._frames += 1
        return FrameReading(self._frames, tuple(sightings), tuple(others))

"""An emulated overhead camera over a live table: the synthetic camera filming what lies on the felt.

What lies on the felt comes from `felt()` (zone -> cards, for the bench the cards the shoe reported);
the `sim_*` controls make the felt differ from it, as a card the shoe misread or a card pushed to
the wrong seat would, or make the camera fail: frames that come empty, or no frames at all. A zone
shows the cards that fit in it side by side, the latest ones, as the last cards of a fanned hand
cover the first. Frames come at `fps` to whichever thread iterates.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence

import numpy as np

from calibration.camera_calibration import Calibration, calibrate
from calibration.layout import Layout, default_layout
from dealer_assist.rules.cards import Card
from hw_sims.synthetic_camera import SyntheticCamera

__all__ = ["TableCamera"]

Felt = Mapping[str, Sequence[Card]]
CALIBRATION_FRAMES = 3


class TableCamera:
    def __init__(
        self, felt: Callable[[], Felt], *, layout: Layout | None = None, seed: int = 0, fps: float = 10.0
    ) -> None:
        self.felt = felt
        self.camera = SyntheticCamera(layout or default_layout(), seed)
        self.fps = fps
        self._lock = threading.Lock()
        self._read_as: dict[Card, Card] = {}
        self._moved: dict[Card, str] = {}
        self._blank = 0  # frames still to come empty
        self._running = threading.Event()  # cleared while the camera sends nothing
        self._running.set()
        self._stop = threading.Event()

    def calibrate(self) -> Calibration:
        """The camera's calibration, from frames of the empty table, as a technician takes it."""
        empty = self.camera.deal({})
        return calibrate([self.camera.render(empty).image for _ in range(CALIBRATION_FRAMES)], self.camera.layout)

    def sim_read_as(self, reported: Card, actual: Card) -> None:
        """The card the shoe reported as `reported` is `actual` on the felt: the shoe misread it."""
        with self._lock:
            self._read_as[reported] = actual

    def sim_move(self, card: Card, zone: str) -> None:
        """`card` lies in `zone`, not where it was dealt."""
        self.camera.layout.zone(zone)  # a zone the layout has, or the error names it now
        with self._lock:
            self._moved[card] = zone

    def sim_blank(self, frames: int) -> None:
        """The next `frames` frames come empty, as from a camera whose sensor fails."""
        with self._lock:
            self._blank = frames

    def sim_pause(self) -> None:
        """No frame comes until `sim_resume`, as from a camera unplugged."""
        self._running.clear()

    def sim_resume(self) -> None:
        self._running.set()

    def stop(self) -> None:
        self._stop.set()
        self._running.set()

    def __iter__(self) -> Iterator[np.ndarray]:
        """Frames until `stop()`; the cards are laid out again only when the felt changes."""
        laid: dict[str, list[str]] | None = None
        image = None
        while not self._stop.is_set():
            self._running.wait()
            started = time.monotonic()
            with self._lock:
                blank, self._blank = self._blank > 0, max(0, self._blank - 1)
            if blank:
                yield np.zeros((0, 0, 3), np.uint8)
                self._stop.wait(1 / self.fps)
                continue
            hands = self._hands()
            if hands != laid or image is None:
                laid, image = hands, self.camera.render(self.camera.deal(hands)).image
            yield image
            self._stop.wait(max(0.0, 1 / self.fps - (time.monotonic() - started)))

    def _hands(self) -> dict[str, list[str]]:
        """Zone -> the codes lying face up there, the latest that fit; zones off the layout are out of view."""
        with self._lock:
            read_as, moved = dict(self._read_as), dict(self._moved)
        in_view = {zone.name for zone in self.camera.layout.zones}
        zones: dict[str, list[str]] = {}
        for zone, cards in self.felt().items():
            for card in cards:
                zones.setdefault(moved.get(card, zone), []).append(str(read_as.get(card, card)))
        return {
            zone: codes[max(0, len(codes) - self.camera.room(zone)) :]
            for zone, codes in zones.items()
            if zone in in_view
        }

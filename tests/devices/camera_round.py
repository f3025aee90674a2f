"""One round played over the wire emulators with the overhead camera on, shared by the headless
controller's test and the screen's: sd-buster-a (house-banked, the dealer's first card up), seat 1
is dealt 9S 7D and stands on 16, the dealer 5H TC draws KD and busts. The shoe reads seat 1's first
card as 9S, but 9C lies on the felt: the camera says so, and a floor supervisor re-keys it."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from dealer_assist.rules.cards import parse_card
from devices.camera.check import CameraCheck, reported_by_zone
from devices.camera.reader import CardReader
from devices.table_owner.controller import TableController
from hw_sims.endpoints import PtyEndpoint
from hw_sims.shoe import ShoeEmulator
from hw_sims.table_camera import TableCamera

PROFILE = "sd-buster-a"
CARDS = ("9S", "5H", "7D", "TC", "KD")
MISREAD, ON_THE_FELT = parse_card("9S"), parse_card("9C")
MISMATCH = "Seat 1: the shoe read 9S, the camera sees 9C"
PIN = "2468"
SETTLE_FRAMES = 3


class FilmedShoe:
    """The emulated shoe on a pseudo-terminal and the synthetic camera over the felt, on `controller`."""

    def __init__(self, controller: TableController) -> None:
        self.shoe = ShoeEmulator(PtyEndpoint(), cards=[parse_card(c) for c in CARDS], pace=None, shoe_id="S1", decks=6)
        self.felt = TableCamera(lambda: reported_by_zone(controller.snapshot), fps=30)
        self.felt.sim_read_as(MISREAD, ON_THE_FELT)
        self.frames = 0
        controller.connect_devices(self.shoe.endpoint.url)
        controller.watch_camera(
            self._counted(), CardReader(self.felt.calibrate()), CameraCheck(settle_frames=SETTLE_FRAMES)
        )

    def _counted(self) -> Iterator[np.ndarray]:
        for image in self.felt:
            self.frames += 1
            yield image

    def start(self) -> None:
        self.shoe.start()

    def stop(self) -> None:
        self.felt.stop()
        self.shoe.stop()

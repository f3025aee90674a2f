"""The overhead camera beside the table: frames read on a thread of their own, checked against the round.

Each frame is read (card codes and their zones), placed, and compared with the cards the shoe
reported, as the table's latest snapshot shows them (`CameraCheck`). Only a change in the lasting
differences is told, to the table's owner, which journals it and shows it to the dealer.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

import numpy as np

from dealer_assist.table.snapshot import TableSnapshot
from devices.camera_check import CameraCheck, CameraVerdict
from devices.camera_reader import CardReader
from devices.device_status import DeviceStatus

NAME = "Camera"
STOP_WITHIN_S = 2.0


class CameraWatch:
    def __init__(self, frames: Iterable[np.ndarray], reader: CardReader, check: CameraCheck,
                 snapshot: Callable[[], TableSnapshot], tell: Callable[[CameraVerdict], None],
                 devices: DeviceStatus) -> None:
        self.frames = frames
        self.reader = reader
        self.check = check
        self.snapshot = snapshot
        self.tell = tell
        self.devices = devices
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="camera", daemon=True)
        devices.link(NAME, False)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop after the frame in hand; a source that stopped answering is left to its daemon thread."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(STOP_WITHIN_S)

    def _watch(self) -> None:
        self.devices.link(NAME, True)
        for frame in self.frames:
            if self._stop.is_set():
                break
            verdict = self.check.frame(self.reader.read(frame), self.snapshot())
            if verdict is not None:
                self.devices.read(NAME, "MISMATCH" if verdict.mismatches else "agrees")
                self.tell(verdict)
        self.devices.link(NAME, False)  # the source ended: a file's last frame, a camera gone

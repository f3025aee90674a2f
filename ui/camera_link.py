"""The overhead camera on the screen: frames read on a thread of their own, checked against the round.

Each frame is read (card codes and their zones), placed, and compared with the cards the shoe
reported, as the bridge's latest snapshot shows them. A lasting disagreement goes into the journal
as device evidence and onto the dealer's attention banner, naming the seat or hand and both cards;
the camera seeing the round as the shoe reported it again is journaled too.
"""
from __future__ import annotations

import threading
from collections.abc import Iterable

import numpy as np

from dealer_assist.snapshot import Attention, AttentionKind
from devices.camera_check import CameraCheck, CameraVerdict
from devices.camera_reader import CardReader
from ui.bridge import TableBridge
from ui.device_status import DeviceStatus

NAME = "Camera"
STOP_WITHIN_S = 2.0


class CameraLink:
    def __init__(self, bridge: TableBridge, devices: DeviceStatus, frames: Iterable[np.ndarray], reader: CardReader,
                 check: CameraCheck | None = None) -> None:
        self.bridge = bridge
        self.devices = devices
        self.frames = frames
        self.reader = reader
        self.check = check or CameraCheck()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="camera", daemon=True)
        devices.link(NAME, False)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Stop after the frame in hand; a source that stopped answering is left to its daemon thread."""
        self._stop.set()
        self._thread.join(STOP_WITHIN_S)

    def _watch(self) -> None:
        self.devices.link(NAME, True)
        for frame in self.frames:
            if self._stop.is_set():
                break
            verdict = self.check.frame(self.reader.read(frame), self.bridge.snapshot)
            if verdict is not None:
                self._tell(verdict)
        self.devices.link(NAME, False)  # the source ended: a file's last frame, a camera gone

    def _tell(self, verdict: CameraVerdict) -> None:
        if not verdict.mismatches:
            self.devices.read(NAME, "agrees")
            self.bridge.note_device({"device": "camera", "type": "CameraAgrees"})
            return
        self.devices.read(NAME, "MISMATCH")
        self.bridge.note_device({"device": "camera", "type": "CameraMismatch", "message": verdict.message,
                                 "mismatches": [m.to_json() for m in verdict.mismatches]})
        self.bridge.report(Attention(AttentionKind.MISMATCH, verdict.message))

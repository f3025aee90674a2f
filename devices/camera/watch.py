"""The overhead camera beside the table: frames read on a thread of their own, checked against the round.

Each frame is read (card codes and their zones), placed, and compared with the cards the shoe
reported, as the table's latest snapshot shows them (`CameraCheck`). Only a change in the lasting
differences is told, to the table's owner, which journals it and shows it to the dealer.

The camera's own health is told as device notes, as the serial devices' are: its link is up with
its first frame, down when no frame has come for `SILENT_S` (the serial links' 3000 ms rule) or
the source ended, and up again with the next frame; a frame that cannot be read (an empty image)
is a fault, cleared by the next frame read.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import cv2
import numpy as np

from dealer_assist.table.snapshot import TableSnapshot
from devices.camera.check import CameraCheck, CameraVerdict
from devices.camera.reader import CardReader, FrameReading

__all__ = ["CameraWatch"]

STOP_WITHIN_S = 2.0
SILENT_S = 3.0
WATCH_EVERY_S = 0.1

Note = Callable[[dict[str, Any]], None]


class CameraWatch:
    def __init__(
        self,
        frames: Iterable[np.ndarray],
        reader: CardReader,
        check: CameraCheck,
        snapshot: Callable[[], TableSnapshot],
        tell: Callable[[CameraVerdict], None],
        note: Note,
        last_read: Callable[[str], None],
    ) -> None:
        self.frames = frames
        self.reader = reader
        self.check = check
        self.snapshot = snapshot
        self.tell = tell
        self.note = note
        self.last_read = last_read
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._last_frame: float | None = None  # time.monotonic() of the last frame, None while down
        self._faulted = False
        self.silent_s = SILENT_S
        self._thread = threading.Thread(target=self._watch, name="camera", daemon=True)
        self._silence = threading.Thread(target=self._watch_silence, name="camera-silence", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._silence.start()

    def stop(self) -> None:
        """Stop after the frame in hand; a source that stopped answering is left to its daemon thread."""
        self._stop.set()
        for thread in (self._thread, self._silence):
            if thread.is_alive():
                thread.join(STOP_WITHIN_S)

    def _watch(self) -> None:
        for frame in self.frames:
            if self._stop.is_set():
                break
            self._arrived()
            reading = self._read(frame)
            if reading is None:
                continue
            verdict = self.check.frame(reading, self.snapshot())
            if verdict is not None:
                self.last_read("MISMATCH" if verdict.mismatches else "agrees")
                self.tell(verdict)
        if not self._stop.is_set():
            self._down()  # the source ended: a file's last frame, a camera gone

    def _read(self, frame: np.ndarray) -> FrameReading | None:
        """The frame's cards, or None when it cannot be read: the camera is faulted until one can."""
        try:
            if frame is None or frame.size == 0:
                raise ValueError("the frame is empty")
            reading = self.reader.read(frame)
        except (ValueError, cv2.error) as error:
            if not self._faulted:
                self._faulted = True
                text = "empty frames" if frame is None or frame.size == 0 else "frames it cannot read"
                self.note({"device": "camera", "type": "DeviceFault", "text": text, "error": str(error)})
            return None
        if self._faulted:
            self._faulted = False
            self.note({"device": "camera", "type": "FaultCleared"})
        return reading

    def _arrived(self) -> None:
        with self._lock:
            was_down, self._last_frame = self._last_frame is None, time.monotonic()
        if was_down:
            self.note({"device": "camera", "type": "LinkChanged", "state": "up"})

    def _down(self) -> None:
        with self._lock:
            was_up, self._last_frame = self._last_frame is not None, None
        if was_up:
            self.note({"device": "camera", "type": "LinkChanged", "state": "down"})

    def _watch_silence(self) -> None:
        """No frame for `silent_s`: the camera is down until its next frame."""
        while not self._stop.wait(WATCH_EVERY_S):
            with self._lock:
                silent = self._last_frame is not None and time.monotonic() - self._last_frame > self.silent_s
            if silent:
                self._down()

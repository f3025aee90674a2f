"""The one Qt bridge: inputs from any thread are applied on the GUI thread, snapshots go out.

Device reader threads and the screens both call `submit`; the signal hop puts every apply on the
thread that owns the table, so the round tracker is never touched from two threads.
"""
from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, Slot

from dealer_assist.inputs import Input
from dealer_assist.snapshot import Attention, TableSnapshot, build_snapshot
from dealer_assist.tracker import Need, RoundTracker
from ui.device_status import DeviceStatus


class TableBridge(QObject):
    snapshot_changed = Signal(object)
    devices_changed = Signal(object)
    _inbox = Signal(object)
    _notices = Signal(object)
    _links = Signal(object)

    def __init__(self, new_round: Callable[[], RoundTracker], devices: DeviceStatus,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._new_round = new_round
        self.devices = devices
        self.tracker = new_round()
        self.rounds = 1
        self.attention: Attention | None = None
        self.snapshot = build_snapshot(self.tracker)
        self._inbox.connect(self._apply)
        self._notices.connect(self._notice)
        self._links.connect(self.devices_changed)
        devices.subscribe(self._links.emit)

    def submit(self, event: Input) -> None:
        """Any thread: queue one input for the table."""
        self._inbox.emit(event)

    def report(self, attention: Attention) -> None:
        """Any thread: a device fault or mismatch a person must see."""
        self._notices.emit(attention)

    @Slot(object)
    def _apply(self, event: Input) -> None:
        error = self.tracker.verify(event)
        if error is not None:
            self.attention = Attention.refusal(error)
        else:
            self.attention = None
            self.tracker.apply(event)
        self._publish()

    @Slot(object)
    def _notice(self, attention: Attention) -> None:
        self.attention = attention
        self._publish()

    def dismiss(self) -> None:
        self.attention = None
        self._publish()

    def next_round(self) -> None:
        """The dealer confirmed the settlement: the next round opens for wagers."""
        if self.tracker.awaiting().need is Need.NOTHING:
            self.tracker = self._new_round()
            self.rounds += 1
            self.attention = None
            self._publish()

    def _publish(self) -> None:
        self.snapshot = build_snapshot(self.tracker, self.attention)
        self.snapshot_changed.emit(self.snapshot)


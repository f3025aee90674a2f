"""The one Qt bridge: a thread hop between the table controller and the screens, nothing more.

Whatever a device thread hands the controller runs on the GUI thread, which is the controller's
owner thread on the screen; every snapshot the controller publishes goes out as a signal, and so
does every change of the status line. The screens act through the controller's own methods
(`bridge.controller`), on the GUI thread.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal, Slot

from dealer_assist.table.session import TableInput
from dealer_assist.table.snapshot import TableSnapshot
from devices.table_owner.controller import Call, TableController
from devices.table_owner.device_status import DeviceStatus

__all__ = ["TableBridge"]


class TableBridge(QObject):
    snapshot_changed = Signal(object)
    devices_changed = Signal(object)
    _calls = Signal(object)
    _links = Signal(object)

    def __init__(self, controller: TableController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._calls.connect(self._run)
        self._links.connect(self._devices_now)
        controller.run_on(self._calls.emit)
        controller.subscribe(self.snapshot_changed.emit)
        controller.devices.subscribe(self._links.emit)

    @property
    def snapshot(self) -> TableSnapshot:
        return self.controller.snapshot

    @property
    def devices(self) -> DeviceStatus:
        return self.controller.devices

    def submit(self, event: TableInput) -> None:
        """Any thread: one input for the table, applied on the GUI thread."""
        self._calls.emit(lambda: self.controller.submit(event))

    def dismiss(self) -> None:
        self.controller.dismiss()

    @Slot(object)
    def _run(self, call: Call) -> None:
        call()

    @Slot(object)
    def _devices_now(self, _: object) -> None:
        """The status line as it is now: a change told from a reader thread may arrive after a later
        one made on this thread (a device's state), and must not show the older picture."""
        self.devices_changed.emit(self.controller.devices.links())

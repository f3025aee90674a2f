"""The one Qt bridge: inputs from any thread are applied on the GUI thread, snapshots go out.

Device reader threads and the screens both call `submit`; the signal hop puts every apply on the
thread that owns the table, so the journaled table is never touched from two threads. A refused
input changes nothing and is shown in the attention banner with its rule until the next input is
accepted; a device's report (a camera mismatch) stays until the dealer acknowledges it, behind any
refusal or hold that must be seen first.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from dealer_assist.errors import RuleError
from dealer_assist.journal import JournalCorrupt
from dealer_assist.snapshot import Attention, AttentionKind, TableSnapshot, build_table_snapshot
from dealer_assist.table import Table
from dealer_assist.table_session import TableInput, TableSession
from dealer_assist.tracker import RoundTracker
from ui.device_status import DeviceStatus


class TableBridge(QObject):
    snapshot_changed = Signal(object)
    devices_changed = Signal(object)
    _inbox = Signal(object)
    _notices = Signal(object)
    _links = Signal(object)
    _device_notes = Signal(object)

    def __init__(self, table: Table, devices: DeviceStatus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self.devices = devices
        self.attention: Attention | None = None  # the last refusal, until an input is accepted
        self.reported: Attention | None = None  # a device's report, until the dealer acknowledges it
        self.snapshot: TableSnapshot = build_table_snapshot(table.session)
        self._inbox.connect(self._apply)
        self._notices.connect(self._notice)
        self._device_notes.connect(self._note_device)
        self._links.connect(self.devices_changed)
        devices.subscribe(self._links.emit)

    @property
    def session(self) -> TableSession:
        return self.table.session

    @property
    def tracker(self) -> RoundTracker | None:
        """The open round's tracker, or None between rounds."""
        return self.table.session.tracker

    def submit(self, event: TableInput) -> None:
        """Any thread: queue one input for the table."""
        self._inbox.emit(event)

    def report(self, attention: Attention) -> None:
        """Any thread: a device fault or mismatch a person must see."""
        self._notices.emit(attention)

    def note_device(self, body: dict[str, Any]) -> None:
        """Any thread: device evidence (identity, link, faults) for the journal."""
        self._device_notes.emit(body)

    def supervise(self, event: TableInput, pin: str) -> RuleError | None:
        """GUI thread: a floor supervisor's correction, PIN first; the refusal, if any."""
        return self._run(lambda: self.table.supervise(event, pin))

    def refresh(self) -> None:
        """GUI thread: publish the table again after a change made beside the bridge."""
        self._publish()

    def dismiss(self) -> None:
        """The dealer acknowledges what the banner shows; a device's report is acknowledged in the
        journal too, beside the report itself, so a dispute shows who saw what when."""
        if self.attention is not None:
            self.attention = None
        elif self.reported is not None:
            self.table.note_device({"device": "dealer", "type": "Acknowledged", "kind": self.reported.kind.value,
                                    "message": self.reported.message})
            self.reported = None
        self._publish()

    @Slot(object)
    def _apply(self, event: TableInput) -> None:
        self._run(lambda: self.table.submit(event))

    def _run(self, change: Callable[[], object]) -> RuleError | None:
        refused = None
        try:
            change()
            self.attention = None
        except RuleError as error:
            refused = error
            self.attention = Attention.refusal(error)
        except JournalCorrupt as error:
            refused = RuleError("journal_damaged", error.verdict.message)
            self.attention = Attention(AttentionKind.JOURNAL, f"the journal is damaged: {error.verdict.message}")
        self._publish()
        return refused

    @Slot(object)
    def _note_device(self, body: dict[str, Any]) -> None:
        self.table.note_device(body)

    @Slot(object)
    def _notice(self, attention: Attention) -> None:
        self.reported = attention
        self._publish()

    def _publish(self) -> None:
        snapshot = build_table_snapshot(self.table.session, self.attention)
        if snapshot.attention is None and self.reported is not None:
            snapshot = replace(snapshot, attention=self.reported)
        self.snapshot = snapshot
        self.snapshot_changed.emit(self.snapshot)

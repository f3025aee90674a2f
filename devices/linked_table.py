"""A headless table fed by its devices: one owner thread applies what the devices deliver.

The screen has its own owner (the Qt bridge); this one serves the bench and the checks. Inputs
the dealer would tap go through `submit` on the same thread, so the table never sees two
writers. Device evidence (hello, link, faults, lid, lock) goes into the journal as it comes.
"""
from __future__ import annotations

import queue
import time
from typing import Any

from dealer_assist.errors import RuleError
from dealer_assist.table import Table
from dealer_assist.table_session import TableInput
from devices.peek import PeekReader
from devices.shoe import ShoeScanner
from devices.table_feed import DeviceFeed, DeviceNote


POLL_S = 0.005


class LinkedTable:
    def __init__(self, table: Table, shoe_url: str, peek_url: str | None = None) -> None:
        self.table = table
        self.inbox: queue.Queue[TableInput | DeviceNote] = queue.Queue()
        self.feed = DeviceFeed(None, None, self.inbox.put)
        self.feed.shoe = ShoeScanner(shoe_url, self.feed.on_shoe_event)
        self.feed.peek = PeekReader(peek_url, self.feed.on_peek_event) if peek_url else None
        self.refused: list[tuple[TableInput, RuleError]] = []

    def start(self) -> None:
        assert self.feed.shoe is not None
        self.feed.shoe.start()
        if self.feed.peek is not None:
            self.feed.peek.start()
        self.feed.sync(self.table.session)

    def stop(self) -> None:
        for device in (self.feed.shoe, self.feed.peek):
            if device is not None:
                device.stop()

    def submit(self, event: TableInput) -> tuple[Any, ...]:
        """A dealer's input, on the owner thread."""
        ops = self.table.submit(event)
        self.feed.sync(self.table.session)
        return ops

    def pump(self, timeout: float, done: Any = None) -> list[TableInput]:
        """Apply what the devices deliver within `timeout`, stopping early once `done()` is true;
        the device inputs applied, in order."""
        applied: list[TableInput] = []
        deadline = time.monotonic() + timeout
        while not (done is not None and done()) and (left := deadline - time.monotonic()) > 0:
            try:  # short waits: `done` may turn true without any delivery (an emulator's control)
                item = self.inbox.get(timeout=min(left, POLL_S) if done is not None else left)
            except queue.Empty:
                if done is None:
                    break
                continue
            if isinstance(item, DeviceNote):
                self.table.note_device(item.body)
                continue
            try:
                self.table.submit(item)
                applied.append(item)
            except RuleError as error:  # journaled by the table; the screen shows it
                self.refused.append((item, error))
            self.feed.sync(self.table.session)
        return applied

    def pump_until(self, done: Any, timeout: float) -> bool:
        """Pump until `done()` is true or the time is up."""
        self.pump(timeout, done)
        return bool(done())

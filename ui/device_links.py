"""The screen on real links: shoe and peek events reach the table through the bridge.

The devices' reader threads only hand items to the bridge, which applies them on the GUI thread;
after every change the feed sets the shoe's card-stop from the rules and asks the peek device
when the round needs it. The top bar hears each link change and each read.
"""
from __future__ import annotations

from dealer_assist.inputs import CardDrawn, PeekAnswered
from dealer_assist.session_inputs import CardsUnread
from dealer_assist.table_session import TableInput
from devices.peek import PeekReader
from devices.shoe import ShoeScanner
from devices.table_feed import DeviceFeed, DeviceNote
from ui.bridge import TableBridge
from ui.device_status import DeviceStatus

NAMES = {"shoe": "Shoe", "peek": "Peek"}


class DeviceLinks:
    def __init__(self, bridge: TableBridge, devices: DeviceStatus, shoe_url: str, peek_url: str | None = None) -> None:
        self.bridge = bridge
        self.devices = devices
        self.feed = DeviceFeed(None, None, self._deliver)
        self.feed.shoe = ShoeScanner(shoe_url, self.feed.on_shoe_event)
        self.feed.peek = PeekReader(peek_url, self.feed.on_peek_event) if peek_url else None
        for name in ("shoe", "peek") if peek_url else ("shoe",):
            devices.link(NAMES[name], False)
        bridge.snapshot_changed.connect(lambda _: self.feed.sync(bridge.session))

    def start(self) -> None:
        for device in (self.feed.shoe, self.feed.peek):
            if device is not None:
                device.start()
        self.feed.sync(self.bridge.session)

    def stop(self) -> None:
        for device in (self.feed.shoe, self.feed.peek):
            if device is not None:
                device.stop()

    def _deliver(self, item: TableInput | DeviceNote) -> None:
        """Called on a reader thread."""
        if isinstance(item, DeviceNote):
            if item.body.get("type") == "LinkChanged":
                self.devices.link(NAMES[item.body["device"]], item.body["state"] == "up")
            self.bridge.note_device(item.body)
            return
        if isinstance(item, CardDrawn):
            self.devices.read(NAMES["shoe"], str(item.card))
        elif isinstance(item, CardsUnread):
            self.devices.read(NAMES["shoe"], "unread")
        elif isinstance(item, PeekAnswered):
            self.devices.read(NAMES["peek"], item.result.value)
        self.bridge.submit(item)

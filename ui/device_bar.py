"""Device status in the top bar: each device's link and its last read."""
from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from devices.device_status import DeviceLink
from ui.theme import COLLECT, PAY


class DeviceBar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(18)
        self.labels: dict[str, QLabel] = {}

    def show_links(self, links: tuple[DeviceLink, ...]) -> None:
        for link in links:
            label = self.labels.get(link.name)
            if label is None:
                label = self.labels[link.name] = QLabel()
                self._layout.addWidget(label)
            colour = PAY if link.up else COLLECT
            state = link.text if link.text is not None else "up" if link.up else "DOWN"
            last = f" · last {link.last_read}" if link.last_read else ""
            label.setText(f"<span style='color:{colour}'>●</span> {link.name} {state}{last}")

"""Device status in the top bar: each device's light and word, its last read, and the status items
beside them (the pit link, the last correction).

A device's light and word come from its state (`DeviceState`): green "Shoe up", or a word that
stands out on its light's colour ("Shoe: link down" on red, "Peek: failed — check by hand" on
amber, "Shoe: back" in green), so what is wrong reads at a glance, never as a colour alone.

The bar takes the room the title leaves and never widens the window: when every item in full
does not fit, the items say less, in steps (the devices' last reads go first, then what a status
item says after its first " · ", then the names and the short word of what is wrong: "Peek: link
down", "Pit stopped…"), and each item's tooltip keeps its full words.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QSizePolicy, QWidget

from dealer_assist.table.device_state import Condition, Device, DeviceState, Light
from devices.table_owner.device_status import DeviceLink
from ui.common.theme import AMBER, COLLECT, PAY

SPACING = 18
DOT = "●"
LEVELS = 4  # 0: in full; 1: no last reads; 2: status items to their first " · "; 3: names, and what is wrong
DOTS = {Light.GREEN: PAY, Light.AMBER: AMBER, Light.RED: COLLECT}
WORD_STYLES = {
    Light.AMBER: f"background:{AMBER}; color:#111; font-weight:bold",
    Light.RED: f"background:{COLLECT}; color:#111; font-weight:bold",
}
BACK_STYLE = f"color:{PAY}; font-weight:bold"


def device_state(link: DeviceLink) -> DeviceState:
    """The device's state: the table owner's word for it, after the link's own up or down, which
    its reader thread tells first."""
    state = link.state or DeviceState(Device(link.name.lower()))
    return state if link.up == state.link_up else state.linked(link.up)


def words(link: DeviceLink, level: int) -> str:
    """What the item says after its dot at `level`."""
    if link.text is not None:  # a status item: its own words
        if level >= 3 and link.up:
            return link.name
        head, sep, _ = link.text.partition(" · ")
        return f"{link.name} {head}…" if level >= 2 and sep else f"{link.name} {link.text}"
    state = device_state(link)
    if level >= 3:
        return state.short
    last = f" · last {link.last_read}" if link.last_read and level == 0 and state.condition is Condition.UP else ""
    return f"{state.word}{last}"


def tooltip(link: DeviceLink) -> str:
    """The item's full words, and for a device what it said and its last read."""
    if link.text is not None:
        return f"{link.name}: {link.text}"
    state = device_state(link)
    if state.condition is Condition.UP:
        return f"{link.name}: {words(link, 0).removeprefix(link.name + ' ')}"
    said = f" · {state.detail}" if state.detail else ""
    last = f" · last {link.last_read}" if link.last_read else ""
    return f"{state.word}{said}{last}"


def rich(link: DeviceLink, level: int) -> str:
    said = escape(words(link, level))
    if link.text is not None:
        return f"<span style='color:{PAY if link.up else COLLECT}'>{DOT}</span> {said}"
    state = device_state(link)
    dot = f"<span style='color:{DOTS[state.light]}'>{DOT}</span>"
    if state.light is not Light.GREEN:
        return f"{dot} <span style='{WORD_STYLES[state.light]}'>&nbsp;{said}&nbsp;</span>"
    return f"{dot} <span style='{BACK_STYLE}'>{said}</span>" if state.condition is Condition.BACK else f"{dot} {said}"


class DeviceBar(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(SPACING)
        self._layout.addStretch(1)  # the items stand at the right
        self._layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.labels: dict[str, QLabel] = {}
        self._links: tuple[DeviceLink, ...] = ()
        self._shown: dict[str, str] = {}
        self._ruler = QLabel(self)  # measures a text as a label of the bar lays it out; never shown
        self._ruler.hide()
        self._widths: dict[str, int] = {}
        self._least: int | None = None

    def show_links(self, links: tuple[DeviceLink, ...]) -> None:
        self._links = links
        self._least = None
        for link in links:
            if link.name not in self.labels:
                label = self.labels[link.name] = QLabel()
                self._layout.addWidget(label)
            self.labels[link.name].setToolTip(tooltip(link))
        self._fit()

    def least_width(self) -> int:
        """The width the items need when they say the least."""
        if self._least is None:
            texts = [rich(link, LEVELS - 1) for link in self._links]
            self._least = SPACING * max(len(texts) - 1, 0) + sum(self._width(text) for text in texts)
        return self._least

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: QEvent) -> None:
        """A new style sheet (the window's scale) or font: every text measures anew."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange):
            self._widths.clear()
            self._least = None
            self._fit()

    def _fit(self) -> None:
        """The fullest level whose words fit the bar's width."""
        if not self._links:
            return
        gaps = SPACING * (len(self._links) - 1)
        for level in range(LEVELS):
            texts = {link.name: rich(link, level) for link in self._links}
            if gaps + sum(self._width(text) for text in texts.values()) <= self.width():
                break
        for name, shown in texts.items():
            if self._shown.get(name) != shown:  # an unchanged label is not laid out again
                self._shown[name] = shown
                self.labels[name].setText(shown)

    def _width(self, text: str) -> int:
        if text not in self._widths:
            if len(self._widths) > 1000:  # every card read is a new text: keep the cache small
                self._widths.clear()
            self._ruler.setText(text)
            self._widths[text] = self._ruler.sizeHint().width()
        return self._widths[text]

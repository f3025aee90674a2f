"""One guard against double taps for every button of the dealer's screen.

A finger that bounces, or a dealer who taps twice because the first tap seemed slow, must not
decide twice: the second tap on the same button within `GUARD_S` does nothing (Stand tapped twice
would otherwise stand the next seat too). Chips are exempt: tapping one twice means two chips,
each going on the wager at once, shown on the seat, and Clear takes the wager off.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QChildEvent, QEvent, QObject
from PySide6.QtWidgets import QAbstractButton, QWidget

__all__ = ["TapGuard", "repeatable"]

GUARD_S = 0.4
REPEATABLE = "repeatable"  # the dynamic property that exempts a button (a chip)
Button = TypeVar("Button", bound=QAbstractButton)


def repeatable(button: Button) -> Button:
    """Mark `button` as one that may be tapped again at once (a chip that adds to an amount)."""
    button.setProperty(REPEATABLE, True)
    return button


class TapGuard(QObject):
    """Swallows a press, and its release, on a button of the screen that was clicked less than
    `GUARD_S` ago; a tap on any other button of the window (a confirmation's too) ends the guard.
    It watches buttons one by one, never the whole application, whose every event (each paint of
    every widget) would otherwise cross into Python on its way."""

    def __init__(self, parent: QObject | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(parent)
        self.clock = clock  # a test moves its own clock past the guard instead of waiting
        self._screen: QWidget | None = None
        self._last: QObject | None = None
        self._at = 0.0
        self._swallowing: QObject | None = None

    def guard(self, screen: QWidget) -> None:
        """Guard every button `screen` has, but the repeatable ones (call it once the screen is built)."""
        self._screen = screen
        self._watch_buttons(screen)

    def watch(self, window: QWidget) -> None:
        """See the taps on every button of `window`, and of what it shows later over the screen
        (a confirmation), so that they end the guard."""
        self._watch_buttons(window)
        window.installEventFilter(self)

    def _watch_buttons(self, widget: QWidget) -> None:
        for button in widget.findChildren(QAbstractButton):
            button.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind not in _MOUSE:
            if isinstance(event, QChildEvent) and kind == QEvent.Type.ChildPolished:
                child = event.child()
                if isinstance(child, QWidget):
                    self._watch_buttons(child)
            return False
        if not isinstance(watched, QAbstractButton):
            return False
        if kind == QEvent.Type.MouseButtonRelease:
            if watched is self._swallowing:
                self._swallowing = None
                return True
            self._last, self._at = watched, self.clock()
            return False
        guarded = self._screen is not None and self._screen.isAncestorOf(watched) and not watched.property(REPEATABLE)
        if guarded and watched is self._last and self.clock() - self._at < GUARD_S:
            self._swallowing = watched
            return True
        self._swallowing = None
        return False


_MOUSE = (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick, QEvent.Type.MouseButtonRelease)

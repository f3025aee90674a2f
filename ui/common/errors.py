"""What the screens cannot do, as codes: no screen to open on, the screens' font missing, the VNC
screen not starting, autoplay stalled."""

from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import Failure

__all__ = ["ScreenCode", "ScreenError"]


class ScreenCode(StrEnum):
    NO_SCREEN = "no_screen"
    SCREEN_FONT_MISSING = "screen_font_missing"
    VNC_UNAVAILABLE = "vnc_unavailable"
    AUTOPLAY_STALLED = "autoplay_stalled"


class ScreenError(Failure):
    """A screen, or what drives one, that cannot do what was asked."""

    def __init__(self, code: ScreenCode, message: str) -> None:
        super().__init__(code, message)

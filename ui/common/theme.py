"""The dark, high-contrast look of every screen: read from a metre under card-room lighting."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QWidget

from ui.common.screen_font import FAMILY

__all__ = [
    "ACCENT",
    "ALERT",
    "AMBER",
    "BACKGROUND",
    "COLLECT",
    "MUTED",
    "PANEL",
    "PAY",
    "RED_SUIT",
    "TEXT",
    "TOUCH",
    "hold_place",
    "see_through",
    "set_flag",
    "style",
]

BACKGROUND = "#0d1117"
PANEL = "#161d27"
FELT = "#0f3b2a"
TEXT = "#f5f7fa"
MUTED = "#9aa7b5"
ACCENT = "#ffd166"
PAY = "#3ddc84"
COLLECT = "#ff6b6b"
ALERT = "#e5484d"
AMBER = "#ffb020"
RED_SUIT = "#d32f2f"
TOUCH = 56  # the smallest touch target in pixels (at least 48)


def style(scale: float = 1.0) -> str:
    """The style sheet with every size multiplied by `scale` (1.0 at 1280x800)."""

    def px(size: int) -> int:
        return round(size * scale)

    return f"""
QWidget {{ background: {BACKGROUND}; color: {TEXT}; font-family: "{FAMILY}"; font-size: {px(18)}px; }}
QLabel, QWidget[layer="true"] {{ background: none; }}
QFrame#panel {{ background: {PANEL}; border-radius: {px(10)}px; }}
QFrame#seat {{ background: {FELT}; border: {px(2)}px solid #1f5a42; border-radius: {px(12)}px; }}
QFrame#seat[acting="true"] {{ border: {px(4)}px solid {ACCENT}; }}
QFrame#seat[selected="true"] {{ border: {px(4)}px solid #5aa9ff; }}
QFrame#seat[bank="true"] {{ background: #2a2340; border: {px(2)}px solid #6b5ca5; }}
QFrame#dealer {{ background: #1b2a3a; border: {px(2)}px solid #35506e; border-radius: {px(12)}px; }}
QLabel#prompt {{ font-size: {px(34)}px; font-weight: bold; color: {ACCENT}; padding: 0 {px(12)}px; }}
QLabel#title {{ font-size: {px(20)}px; font-weight: bold; }}
QLabel#muted {{ color: {MUTED}; font-size: {px(16)}px; }}
QLabel#seatName {{ font-size: {px(22)}px; font-weight: bold; }}
QLabel#amount {{ font-size: {px(22)}px; font-weight: bold; }}
QLabel#big {{ font-size: {px(30)}px; font-weight: bold; }}
QLabel#total {{ font-size: {px(24)}px; font-weight: bold; color: {ACCENT}; }}
QLabel#status {{ font-size: {px(16)}px; color: {MUTED}; }}
QLabel#button {{ background: {ACCENT}; color: #111; border-radius: {px(14)}px; font-weight: bold;
                padding: {px(2)}px {px(6)}px; }}
/* A seat's "1st action" badge is smaller, on two lines no taller than "Seat 8": beside it, it fits the
   narrowest seat, eight at 1280 px, and moves nothing below it. */
QFrame#seat QLabel#button {{ font-size: {px(11)}px; padding: 0px {px(3)}px; border-radius: {px(5)}px; }}
QLabel#pay {{ color: {PAY}; font-size: {px(24)}px; font-weight: bold; }}
QLabel#collect {{ color: {COLLECT}; font-size: {px(24)}px; font-weight: bold; }}
QLabel#row {{ font-size: {px(20)}px; font-weight: bold; }}
QLabel#return {{ color: {MUTED}; font-size: {px(22)}px; font-weight: bold; }}
QLabel#reader {{ color: {ACCENT}; font-size: {px(16)}px; font-weight: bold; }}
QLabel#reader[warn="true"] {{ color: {COLLECT}; }}
QPushButton {{ background: #243244; color: {TEXT}; border: {px(2)}px solid #3a4f68; border-radius: {px(10)}px;
              min-height: {px(TOUCH)}px; min-width: {px(TOUCH)}px; font-size: {px(22)}px; font-weight: bold;
              padding: 0 {px(14)}px; }}
QPushButton:pressed {{ background: #3a4f68; }}
QPushButton:checked {{ background: #5aa9ff; color: #0d1117; border-color: #9ccaff; }}
QPushButton:disabled {{ background: #161d27; color: #4a5663; border-color: #222c38; }}
QPushButton#primary {{ background: {ACCENT}; color: #111; border-color: #ffe3a1; }}
QPushButton#primary:disabled {{ background: #161d27; color: #4a5663; border-color: #222c38; }}
QFrame#banner {{ background: {ALERT}; border-radius: {px(10)}px; }}
QFrame#banner[kind="refused"] {{ background: #8a5a00; }}
QFrame#banner[kind="reader_back"] {{ background: #8a5a00; }}
QFrame#banner[kind="device-amber"] {{ background: #8a5a00; }}
QFrame#banner[kind="device-green"] {{ background: #1d6b43; }}
QFrame#banner QLabel {{ color: white; font-size: {px(22)}px; font-weight: bold; }}
QScrollArea {{ border: none; }}
QScrollBar:vertical {{ width: {px(28)}px; background: {PANEL}; border: none; }}
QScrollBar::handle:vertical {{ background: #3a4f68; min-height: {px(TOUCH)}px; border-radius: {px(8)}px; }}
QScrollBar::add-line:vertical, QScrollBar::sub-line:vertical {{ height: 0; }}
QFrame#bench {{ background: {PANEL}; border-radius: {px(10)}px; min-width: {px(210)}px; max-width: {px(210)}px; }}
QFrame#bench QPushButton {{ font-size: {px(17)}px; padding: 0 {px(6)}px; }}
/* The wager pad's rows, and the chip row of every keypad alike, fit beside eight seats and the bench at 1280 px. */
#wagers QPushButton, #chips QPushButton {{ padding: 0 {px(6)}px; }}
"""


Container = TypeVar("Container", bound=QWidget)


def see_through(widget: Container) -> Container:
    """A container that only holds other widgets paints no background of its own: the window's
    shows through. Every background painted under a changed widget is a fill of its whole area,
    and nested containers each painted theirs at every frame. Call before the widget is shown."""
    widget.setProperty("layer", True)
    return widget


def set_flag(widget: QWidget, name: str, value: bool | str) -> None:
    """Set a dynamic property the style sheet selects on, and have the style read it again."""
    if widget.property(name) != value:
        widget.setProperty(name, value)
        widget.style().unpolish(widget)
        widget.style().polish(widget)


def hold_place(widget: Container) -> Container:
    """A widget that comes and goes keeps its room in the layout, so nothing around it moves."""
    policy = widget.sizePolicy()
    policy.setRetainSizeWhenHidden(True)
    widget.setSizePolicy(policy)
    return widget

"""The dark, high-contrast look of every screen: read from a metre under card-room lighting."""
from __future__ import annotations

from PySide6.QtWidgets import QWidget

BACKGROUND = "#0d1117"
PANEL = "#161d27"
FELT = "#0f3b2a"
TEXT = "#f5f7fa"
MUTED = "#9aa7b5"
ACCENT = "#ffd166"
PAY = "#3ddc84"
COLLECT = "#ff6b6b"
WARN = "#ffb020"
ALERT = "#e5484d"
RED_SUIT = "#d32f2f"
TOUCH = 56  # the smallest touch target in pixels (at least 48)

STYLE = f"""
QWidget {{ background: {BACKGROUND}; color: {TEXT}; font-family: "DejaVu Sans"; font-size: 18px; }}
QLabel {{ background: transparent; }}
QFrame#panel {{ background: {PANEL}; border-radius: 10px; }}
QFrame#seat {{ background: {FELT}; border: 2px solid #1f5a42; border-radius: 12px; }}
QFrame#seat[acting="true"] {{ border: 4px solid {ACCENT}; }}
QFrame#seat[selected="true"] {{ border: 4px solid #5aa9ff; }}
QFrame#seat[bank="true"] {{ background: #2a2340; border: 2px solid #6b5ca5; }}
QFrame#dealer {{ background: #1b2a3a; border: 2px solid #35506e; border-radius: 12px; }}
QLabel#prompt {{ font-size: 34px; font-weight: bold; color: {ACCENT}; padding: 6px 12px; }}
QLabel#title {{ font-size: 20px; font-weight: bold; }}
QLabel#muted {{ color: {MUTED}; font-size: 16px; }}
QLabel#seatName {{ font-size: 22px; font-weight: bold; }}
QLabel#amount {{ font-size: 22px; font-weight: bold; }}
QLabel#big {{ font-size: 30px; font-weight: bold; }}
QLabel#total {{ font-size: 24px; font-weight: bold; color: {ACCENT}; }}
QLabel#status {{ font-size: 16px; color: {MUTED}; }}
QLabel#button {{ background: {ACCENT}; color: #111; border-radius: 14px; font-weight: bold; padding: 2px 8px; }}
QLabel#pay {{ color: {PAY}; font-size: 24px; font-weight: bold; }}
QLabel#collect {{ color: {COLLECT}; font-size: 24px; font-weight: bold; }}
QLabel#return {{ color: {MUTED}; font-size: 22px; font-weight: bold; }}
QPushButton {{ background: #243244; color: {TEXT}; border: 2px solid #3a4f68; border-radius: 10px;
              min-height: {TOUCH}px; min-width: {TOUCH}px; font-size: 22px; font-weight: bold; padding: 0 14px; }}
QPushButton:pressed {{ background: #3a4f68; }}
QPushButton:checked {{ background: #5aa9ff; color: #0d1117; border-color: #9ccaff; }}
QPushButton:disabled {{ background: #161d27; color: #4a5663; border-color: #222c38; }}
QPushButton#primary {{ background: {ACCENT}; color: #111; border-color: #ffe3a1; }}
QPushButton#primary:disabled {{ background: #161d27; color: #4a5663; border-color: #222c38; }}
QFrame#banner {{ background: {ALERT}; border-radius: 10px; }}
QFrame#banner[kind="refused"] {{ background: #8a5a00; }}
QFrame#banner QLabel {{ color: white; font-size: 22px; font-weight: bold; }}
QScrollArea {{ border: none; }}
"""


def set_role(widget: QWidget, role: str) -> None:
    """Give a widget another style role (its object name) and have the style read it again."""
    if widget.objectName() != role:
        widget.setObjectName(role)
        widget.style().unpolish(widget)
        widget.style().polish(widget)


def set_flag(widget: QWidget, name: str, value: bool | str) -> None:
    """Set a dynamic property the style sheet selects on, and have the style read it again."""
    if widget.property(name) != value:
        widget.setProperty(name, value)
        widget.style().unpolish(widget)
        widget.style().polish(widget)

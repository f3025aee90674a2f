"""The dealer's window as a kiosk: full screen, no frame, no mouse cursor, the screen kept awake.
Without a window manager (a table PC straight on X11, eglfs) nobody but the window itself sizes it:
full screen is then the screen's own geometry, set here, and a window that is not a kiosk is never
larger than the screen it opens on."""

from __future__ import annotations

import shutil
import subprocess
import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget


def present(window: QWidget, kiosk: bool) -> None:
    """Show the window: at its size as far as the screen has room, or as a kiosk over the whole screen."""
    screen = window.screen()
    if not kiosk:
        window.resize(window.size().boundedTo(screen.availableGeometry().size()))
        window.show()
        return
    window.setWindowFlag(Qt.WindowType.FramelessWindowHint, True)
    QApplication.setOverrideCursor(Qt.CursorShape.BlankCursor)
    window.setGeometry(screen.geometry())  # what a window manager would do for full screen, done without one
    window.showFullScreen()
    _keep_awake()


def _keep_awake() -> None:
    """On X11, the screen saver and power saving off (xset); elsewhere the README says how."""
    if QGuiApplication.platformName() != "xcb":
        return
    xset = shutil.which("xset")
    if xset is None:
        print(
            "dealer-assist run: --kiosk cannot keep the screen awake: xset is not installed (Debian:"
            " x11-xserver-utils)",
            file=sys.stderr,
        )
        return
    done = subprocess.run([xset, "s", "off", "s", "noblank", "-dpms"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"dealer-assist run: --kiosk cannot keep the screen awake: xset: {done.stderr.strip()}", file=sys.stderr)

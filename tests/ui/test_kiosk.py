"""`run --kiosk`: the dealer's window fills the screen, without a frame and without a mouse cursor,
with or without a window manager; without --kiosk it opens no larger than the screen."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

from tests.ui.test_run_stop import start_run, stop
from ui.dealer.dealer_window import DealerWindow
from ui.shell import kiosk
from ui.shell.run_command import main
from ui.shell.vnc_screen import start_xvfb


def _watch_the_window(seen: dict[str, object], before: set[int], tries: int = 40) -> None:
    """Once this run's window is up and placed (a loaded machine places it a moment after it
    shows; 2 s at the most): how it is shown, then close it as a dealer would. Windows an earlier
    test left in the same application are not looked at."""
    windows = [
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, DealerWindow) and w.isVisible() and id(w) not in before
    ]
    if not windows:
        QTimer.singleShot(50, lambda: _watch_the_window(seen, before, tries))
        return
    window = windows[0]
    cursor = QApplication.overrideCursor()
    screen = window.screen().geometry()  # offscreen, the screen is narrower than the table can shrink: covered
    seen.update(
        full_screen=window.isFullScreen(),
        screen_covered=window.geometry().topLeft() == screen.topLeft() and window.geometry().contains(screen),
        frameless=bool(window.windowFlags() & Qt.WindowType.FramelessWindowHint)
        and window.frameGeometry() == window.geometry(),
        cursor=None if cursor is None else cursor.shape(),
    )
    if seen["full_screen"] and not seen["screen_covered"] and tries > 0:
        QTimer.singleShot(50, lambda: _watch_the_window(seen, before, tries - 1))
        return
    window.close()


def _run(tmp_path, monkeypatch, *options: str) -> dict[str, object]:
    seen: dict[str, object] = {}
    before = {id(w) for w in QApplication.topLevelWidgets()}
    present = kiosk.present

    def presented(window: QWidget, as_kiosk: bool) -> None:
        # The state the run asked for, as it is shown: the offscreen platform's screen is smaller
        # than the table's window may shrink, and a later growth of the window may drop the state.
        present(window, as_kiosk)
        seen["shown_full_screen"] = window.isFullScreen()

    monkeypatch.setattr(kiosk, "present", presented)
    QTimer.singleShot(50, lambda: _watch_the_window(seen, before))
    try:
        assert main(["--journal", str(tmp_path / "t.db"), "--seed", "2", *options]) == 0
    finally:
        while QApplication.overrideCursor() is not None:
            QApplication.restoreOverrideCursor()
    return seen


def test_kiosk_fills_the_screen_without_a_frame_or_a_cursor(qapp, tmp_path, monkeypatch):
    seen = _run(tmp_path, monkeypatch, "--kiosk")
    assert seen.pop("shown_full_screen") is True
    assert {key: seen[key] for key in ("screen_covered", "frameless", "cursor")} == {
        "screen_covered": True,
        "frameless": True,
        "cursor": Qt.CursorShape.BlankCursor,
    }


def test_without_kiosk_the_window_has_its_frame_and_the_cursor_shows(qapp, tmp_path, monkeypatch):
    assert _run(tmp_path, monkeypatch) == {
        "shown_full_screen": False,
        "full_screen": False,
        "screen_covered": False,
        "frameless": False,
        "cursor": None,
    }


def test_a_kiosk_takes_the_screens_geometry_itself(qtbot):
    """No window manager sizes a kiosk's window: it has the whole screen as soon as it is shown."""
    window = QWidget()
    qtbot.addWidget(window)
    window.resize(1280, 800)
    try:
        kiosk.present(window, True)
        assert window.geometry() == QGuiApplication.primaryScreen().geometry()
    finally:
        QApplication.restoreOverrideCursor()


def test_a_window_that_is_not_a_kiosk_opens_no_larger_than_the_screen(qtbot):
    screen = QGuiApplication.primaryScreen().availableGeometry()
    window = QWidget()
    qtbot.addWidget(window)
    window.resize(screen.width() + 480, screen.height() + 200)
    kiosk.present(window, False)
    assert window.width() <= screen.width() and window.height() <= screen.height(), (window.size(), screen)
    smaller = QWidget()
    qtbot.addWidget(smaller)
    smaller.resize(screen.width() - 100, screen.height() - 100)
    kiosk.present(smaller, False)
    assert (smaller.width(), smaller.height()) == (screen.width() - 100, screen.height() - 100), (
        "a size that fits is kept"
    )


GRAB_OUTSIDE = textwrap.dedent("""
    import sys
    from PySide6.QtGui import QGuiApplication
    app = QGuiApplication([sys.argv[0], "-platform", "xcb"])
    image = app.primaryScreen().grabWindow(0).toImage()
    image.save(sys.argv[1])
    right = {image.pixel(x, y) for x in range(1300, image.width(), 8) for y in range(0, image.height(), 8)}
    below = {image.pixel(x, y) for x in range(0, image.width(), 8) for y in range(820, image.height(), 8)}
    print(len(right), len(below))
""")


@pytest.mark.slow
def test_kiosk_fills_a_1920x1080_display_without_a_window_manager(tmp_path):
    """Straight on X11 (Xvfb, no window manager): the table covers the screen beyond 1280x800 too."""
    xvfb, display = start_xvfb(1920, 1080)
    try:
        process = start_run("--journal", str(tmp_path / "t.db"), "--kiosk", env={"DISPLAY": display})
        try:
            time.sleep(2.0)  # shown and painted
            shot = tmp_path / "screen.png"
            grabbed = subprocess.run(
                [sys.executable, "-c", GRAB_OUTSIDE, str(shot)],
                env=os.environ | {"DISPLAY": display},
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert grabbed.returncode == 0, grabbed.stderr
            right, below = (int(n) for n in grabbed.stdout.split())
            assert right > 10 and below > 10, f"the screen right of and below 1280x800 is bare ({shot})"
        finally:
            code, err = stop(process, signal.SIGTERM)
        assert code == 0, err
    finally:
        xvfb.terminate()
        xvfb.wait(10)

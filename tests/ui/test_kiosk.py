"""`run --kiosk`: the dealer's window fills the screen, without a frame and without a mouse cursor."""
from __future__ import annotations

from PySide6.QtCore import QTimer, Qt
from PySide6.QtWidgets import QApplication, QWidget

from ui import kiosk
from ui.dealer_window import DealerWindow
from ui.run_command import main


def _watch_the_window(seen: dict[str, object], before: set[int], tries: int = 40) -> None:
    """Once this run's window is up and placed (a loaded machine places it a moment after it
    shows; 2 s at the most): how it is shown, then close it as a dealer would. Windows an earlier
    test left in the same application are not looked at."""
    windows = [w for w in QApplication.topLevelWidgets()
               if isinstance(w, DealerWindow) and w.isVisible() and id(w) not in before]
    if not windows:
        QTimer.singleShot(50, lambda: _watch_the_window(seen, before, tries))
        return
    window = windows[0]
    cursor = QApplication.overrideCursor()
    screen = window.screen().geometry()  # offscreen, the screen is narrower than the table can shrink: covered
    seen.update(full_screen=window.isFullScreen(),
                screen_covered=window.geometry().topLeft() == screen.topLeft() and window.geometry().contains(screen),
                frameless=bool(window.windowFlags() & Qt.WindowType.FramelessWindowHint) and window.frameGeometry() == window.geometry(),
                cursor=None if cursor is None else cursor.shape())
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
        "screen_covered": True, "frameless": True, "cursor": Qt.CursorShape.BlankCursor}


def test_without_kiosk_the_window_has_its_frame_and_the_cursor_shows(qapp, tmp_path, monkeypatch):
    assert _run(tmp_path, monkeypatch) == {"shown_full_screen": False, "full_screen": False, "screen_covered": False,
                                           "frameless": False, "cursor": None}

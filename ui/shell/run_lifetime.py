"""How a running table is stopped: closing the dealer's window, Ctrl-C or SIGTERM each end the
screen's loop, so `run` goes on to stop the devices, close the table and seal its journal.

The screen turns a loop of its own (see `run_command`), and Qt emits `lastWindowClosed` only from
`QApplication.exec()`, so the window's close is watched directly. Python runs a signal handler only
between bytecodes, never while Qt waits in C++, so the signal's number is also written to a socket
that the loop watches (`signal.set_wakeup_fd`). The handlers stay in place until the journal is
sealed: a second Ctrl-C while the table closes does not cut the seal short.
"""

from __future__ import annotations

import signal
import socket
from types import FrameType, TracebackType

from PySide6.QtCore import QEvent, QEventLoop, QObject, QSocketNotifier, QTimer
from PySide6.QtWidgets import QWidget

from ui.common.closing import CLOSED_BY

STOP_SIGNALS = {signal.SIGINT: "Ctrl-C (SIGINT)", signal.SIGTERM: "SIGTERM"}


class _CloseWatch(QObject):
    def __init__(self, lifetime: Lifetime) -> None:
        super().__init__()
        self.lifetime = lifetime

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Close:
            self.lifetime.stop(str(watched.property(CLOSED_BY) or "the window was closed"))
        return False


class Lifetime:
    """From `with Lifetime()` on, SIGINT and SIGTERM stop the run instead of killing it; `watch`
    ties the stops to the screen's loop. `reason` says what stopped it."""

    def __init__(self) -> None:
        self.reason: str | None = None
        self._loop: QEventLoop | None = None
        self._receive, self._send = socket.socketpair()
        self._receive.setblocking(False)
        self._send.setblocking(False)
        self._kept: list[QObject] = []
        self._previous: dict[signal.Signals, object] = {}
        self._previous_fd = -1

    def __enter__(self) -> Lifetime:
        self._previous = {number: signal.signal(number, self._signalled) for number in STOP_SIGNALS}
        self._previous_fd = signal.set_wakeup_fd(self._send.fileno())
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        signal.set_wakeup_fd(self._previous_fd)
        for number, handler in self._previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
        self._kept.clear()
        self._receive.close()
        self._send.close()

    def _signalled(self, number: int, frame: FrameType | None) -> None:
        self.stop(STOP_SIGNALS[signal.Signals(number)])

    def stop(self, reason: str, status: int = 0) -> None:
        """End the screen's loop with `status`; the first reason given is the one said."""
        if self.reason is None:
            self.reason = reason
        if self._loop is not None:
            self._loop.exit(status)

    def watch(self, loop: QEventLoop, window: QWidget) -> None:
        """End `loop` when the window closes or a stop signal comes; at once if one came already."""
        self._loop = loop
        close_watch = _CloseWatch(self)
        window.installEventFilter(close_watch)
        notifier = QSocketNotifier(self._receive.fileno(), QSocketNotifier.Type.Read)
        notifier.activated.connect(self._drain)
        self._kept += [close_watch, notifier]
        if self.reason is not None:
            QTimer.singleShot(0, loop.quit)

    def _drain(self) -> None:
        """The bytes only wake the loop; the Python handler has already set the reason and quit."""
        try:
            self._receive.recv(256)
        except BlockingIOError:
            pass

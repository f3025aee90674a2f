"""The pinned Qt binding keeps Python's reference counts: PySide6 6.12.0 drops a reference to
None on every void call and to True on every emit, which aborts a long-running touchscreen on
Python 3.11 ("deallocating None"). This guards the pin."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QLabel


class _Pinger(QObject):
    ping = Signal(int)


def test_void_calls_and_emits_keep_the_reference_counts_of_none_and_true(qtbot):
    pinger, label = _Pinger(), QLabel()
    qtbot.addWidget(label)
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for number in range(5_000):
        pinger.ping.emit(number)
        label.setText("seat")
    assert sys.getrefcount(None) - none_before > -100
    assert sys.getrefcount(True) - true_before > -100

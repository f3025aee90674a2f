"""Keep None, True and False alive under PySide6 6.12 on Python 3.11.

PySide6 6.12 hands back None from every void call, and True from `Signal.emit`, without taking
a reference: harmless where those objects are immortal (Python 3.12 on), fatal on 3.11, where a
touchscreen aborts after some thousands of calls ("deallocating None"). Giving each singleton a
reference count no program can spend makes them as immortal as 3.12 does.
"""
from __future__ import annotations

import ctypes
import sys

_PLENTY = 1 << 48


def pin_singletons() -> None:
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return
    for singleton in (None, True, False):
        count = ctypes.c_ssize_t.from_address(id(singleton))
        if count.value < _PLENTY:
            count.value += _PLENTY

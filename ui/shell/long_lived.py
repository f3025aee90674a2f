"""The screen's long-lived objects, kept out of the cycle collector's full passes.

A full collection walks every object the process holds, mostly what was built before the screen
first showed (modules, the profile, the window and its widgets): 20-30 ms on whichever card it fell,
in the UI benchmark's rounds one that opened the settlement, a frame late. Set aside once the window
is up (`gc.freeze`), they are no longer walked; they are still freed when nothing refers to them,
and given back to the collector when the screen closes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def set_aside() -> Iterator[None]:
    """While the screen runs: what start-up left over collected, the rest kept out of later passes."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()

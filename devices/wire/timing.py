"""The link's clocks, in seconds, exactly as DEVICES.md §1 fixes them; both ends use these."""

from __future__ import annotations

__all__ = ["HEARTBEAT_EVERY", "MAX_REPEATS", "PEEK_TIMEOUT", "REPEAT_EVERY"]

REPEAT_EVERY = 0.2  # an unacknowledged ✓ frame is sent again after this long
MAX_REPEATS = 5  # ... at most this many times, then the link is treated as down
ID_EVERY = 1.0  # the host repeats ID until HELLO
HEARTBEAT_EVERY = 1.0  # a device sends HB this often
SILENCE_LIMIT = 3.0  # no frame for this long on a link that is up = link down
BACKOFF_FIRST = 0.5  # first wait before reopening a port
BACKOFF_MAX = 8.0  # the wait doubles up to this
PEEK_TIMEOUT = 1.5  # a PEEK unanswered this long after its first sending has no answer

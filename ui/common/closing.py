"""Who closed the table, as a property the window carries: the supervisor's screen sets it when a
floor supervisor closes the table, and `run` says it when the table stops."""

from __future__ import annotations

__all__ = ["CLOSED_BY"]

CLOSED_BY = "closed_by"  # a window property: who closed the table, when it was not the window's own close button

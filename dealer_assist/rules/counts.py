"""How a count reads wherever one is said, from a refusal to a report: '1 round', '2 rounds'."""

from __future__ import annotations

__all__ = ["count"]


def count(n: int, thing: str) -> str:
    """`n` and `thing`, the plural after any number but 1: '1 card', '0 cards', '2 cards'."""
    return f"{n} {thing}" + ("" if n == 1 else "s")

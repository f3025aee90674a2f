"""What a check of a journal's hash chain found, and where every chain begins: kept apart from the
journal's file so that the errors that carry a verdict need not import the file that raises them."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GENESIS", "Verdict"]

GENESIS = b"\x00" * 32  # the "previous hash" of a journal's first record


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    records: int
    message: str
    first_bad: int | None = None
    checkpoint: int = 0  # seq of the last record the table can restart from
    head: bytes = GENESIS
    closed: int = 0  # closing records among those checked: the rounds closed, for a full check

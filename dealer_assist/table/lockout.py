"""The lockout after wrong tries, one policy for the supervisor's PIN at a table and for the pit's
passwords: five wrong tries in a row lock for 60 s. The messages that tell of it are made from it."""

from __future__ import annotations

__all__ = ["LOCKED_FOR", "LOCK_SECONDS", "MAX_TRIES", "wrong_tries"]

MAX_TRIES = 5
LOCK_SECONDS = 60.0
_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")
LOCKED_FOR = f"locked for {LOCK_SECONDS:.0f} s"


def wrong_tries(noun: str = "tries") -> str:
    """'five wrong tries': the policy's count of wrong tries, as a message says it."""
    count = _WORDS[MAX_TRIES] if MAX_TRIES < len(_WORDS) else str(MAX_TRIES)
    return f"{count} wrong {noun}"

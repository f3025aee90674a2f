"""The table's rosters: its floor supervisors, `supervisors.txt` beside the table's journal, and its
house dealers, `dealers.txt` beside it (RULES.md §8.25); one name or badge a line (blank lines and
lines starting with # are skipped). The corrections screen and the dealer's sign-in offer these
names as buttons, so nobody types a name on a touchscreen they can tap instead."""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEALERS_FILE", "read_roster"]

ROSTER_FILE = "supervisors.txt"
DEALERS_FILE = "dealers.txt"
MAX_NAMES = 6  # as many as fit beside the name field at 1280x800


def roster_path(journal: Path, file: str = ROSTER_FILE) -> Path:
    return journal.parent / file


def read_roster(journal: Path, file: str = ROSTER_FILE) -> tuple[str, ...]:
    """The names of `file` for the table whose journal is `journal`; none when there is no such file."""
    try:
        lines = roster_path(journal, file).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return ()
    names = [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
    return tuple(dict.fromkeys(names))[:MAX_NAMES]

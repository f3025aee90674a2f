"""The table's roster of floor supervisors: `supervisors.txt` beside the table's journal, one
name or badge a line (blank lines and lines starting with # are skipped). The corrections screen
offers these names as buttons, so nobody types a name on a touchscreen they can tap instead."""
from __future__ import annotations

from pathlib import Path

ROSTER_FILE = "supervisors.txt"
MAX_NAMES = 6  # as many as fit beside the name field at 1280x800


def roster_path(journal: Path) -> Path:
    return journal.parent / ROSTER_FILE


def read_roster(journal: Path) -> tuple[str, ...]:
    """The names for the table whose journal is `journal`; none when there is no roster file."""
    try:
        lines = roster_path(journal).read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return ()
    names = [line.strip() for line in lines if line.strip() and not line.strip().startswith("#")]
    return tuple(dict.fromkeys(names))[:MAX_NAMES]

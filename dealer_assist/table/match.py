"""An existing journal is one table: a start that names another profile or other settings is refused,
so `run --profile c21-8.0` never opens a No Bust table's journal as if it were new."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from pathlib import Path

from dealer_assist.errors import Failure
from dealer_assist.journal.errors import JournalCode, JournalError
from dealer_assist.table.header import table_config
from dealer_assist.table.session import TableConfig

FIELDS = ("table_id", "profile", "settings", "seats", "burn_cards", "rotation_rules")


def refuse_other_table(journal: Path, wanted: TableConfig, named: Mapping[str, str]) -> None:
    """Raise when a field the start named (`named`: field -> where it was named, e.g. "--profile")
    differs from the journal's own table. A journal whose header cannot be read is left to the
    journal's verification to report."""
    try:
        existing = table_config(journal)
    except (OSError, sqlite3.Error, StopIteration, KeyError, TypeError, Failure):
        return
    differ = [
        (field, where)
        for field, where in named.items()
        if field in FIELDS and _value(existing, field) != _value(wanted, field)
    ]
    if not differ:
        return
    said = "; ".join(
        f"{where} says {field} {_value(wanted, field)!r}, the journal's table has {_value(existing, field)!r}"
        for field, where in differ
    )
    raise JournalError(
        JournalCode.OTHER_TABLE,
        f"{journal} is the journal of table {existing.table_id} ({existing.profile}): {said}. "
        "Give a new table its own --journal, or leave out what disagrees to resume this one",
    )


def _value(config: TableConfig, field: str) -> object:
    value = getattr(config, field)
    return dict(value) if field == "settings" else value

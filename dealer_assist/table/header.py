"""A journal's first record, its header: the table's configuration and the rule profile it was made
under, written once when the journal is made and read back by every reader of the journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.journal.errors import JournalCode, JournalError
from dealer_assist.journal.journal_file import RecordKind
from dealer_assist.journal.record_source import RecordSource, as_source
from dealer_assist.rules.profile import Profile
from dealer_assist.table.session import TableConfig

__all__ = ["table_config"]


def header_body(config: TableConfig, profile: Profile, devices: dict[str, Any], software: str) -> dict[str, Any]:
    """The header record's body: the profile by id and content hash, so a changed profile is seen."""
    return {
        "config": config.to_json(),
        "profile": {"id": profile.id, "hash": profile.content_hash, "settings": profile.settings()},
        "devices": devices,
        "software": software,
    }


def table_config(where: RecordSource | Path | str) -> TableConfig:
    """The table's configuration, from its journal's header record."""
    source = as_source(where)
    header = next(source.records(), None)
    if header is None or header.kind is not RecordKind.TABLE:
        raise JournalError(JournalCode.BAD_JOURNAL, f"{source.name}: record 1 is not a table header")
    return TableConfig.from_json(header.body["config"])

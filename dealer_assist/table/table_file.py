"""The table file (`--config table.toml`): the table's id, profile and settings, its journal, its
devices, its pit link and the hash of its first supervisor PIN. `run` and `pin set` read it, so
both name the same table and the same journal."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from dealer_assist.errors import CommandCode, CommandError
from dealer_assist.rules.profile import load_profile
from dealer_assist.table.session import TableConfig

__all__ = ["DEFAULT_PROFILE", "DEFAULT_TABLE_ID", "table_start"]

DEFAULT_PROFILE, DEFAULT_TABLE_ID = "nobust-4.0", "TABLE-1"
TABLE_KEYS = {
    "table_id",
    "profile",
    "settings",
    "seats",
    "burn_cards",
    "rotation_rules",
    "journal",
    "shoe",
    "peek",
    "wagers",
    "camera",
    "calibration",
    "pit",
    "supervisor_pin",
}


@dataclass(frozen=True, slots=True)
class TableStart:
    """What a start names: the table, its journal, the fields it named and where (an existing
    journal must agree with them), and the table file's own keys."""

    config: TableConfig
    journal: Path
    named: dict[str, str]
    file: dict[str, Any]


def read_table_file(path: Path | None) -> dict[str, Any]:
    """The table file's keys (none without a file); raises naming the file and the wrong key."""
    if path is None:
        return {}
    try:
        keys = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise CommandError(CommandCode.BAD_TABLE_FILE, f"{path}: {error}") from None
    unknown = sorted(set(keys) - TABLE_KEYS)
    if unknown:
        raise CommandError(
            CommandCode.BAD_TABLE_FILE,
            f"{path}: unknown key {unknown[0]!r}; a table file has {', '.join(sorted(TABLE_KEYS))}",
        )
    return keys


def table_start(config: Path | None, table_id: str | None, profile: str | None, journal: Path | None) -> TableStart:
    """The table a start names by its table file and its options (the file's keys win)."""
    keys = read_table_file(config)
    table = TableConfig(
        keys.get("table_id", table_id or DEFAULT_TABLE_ID),
        load_profile(keys.get("profile", profile or DEFAULT_PROFILE)).id,
        keys.get("settings", {}),
        keys.get("seats"),
        keys.get("burn_cards", 0),
        keys.get("rotation_rules", False),
    )
    path = journal or (
        Path(keys["journal"])
        if "journal" in keys
        else Path(platformdirs.user_data_dir("dealer-assist")) / f"{table.table_id}.db"
    )
    named = {key: f"--config {config}" for key in keys}
    named |= {
        key: flag
        for key, flag, given in (("profile", "--profile", profile), ("table_id", "--table-id", table_id))
        if given
    }
    return TableStart(table, path, named, keys)

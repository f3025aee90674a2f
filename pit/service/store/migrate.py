"""Schema changes as numbered migrations (`migrations/NNN_name.sql`), applied in order where the store
is set up (`pit init`, `pit serve`'s start).

Each migration runs in its own transaction together with its row in `schema_migrations`, so a
migration is applied whole or not at all, and never twice. An advisory lock keeps two pit
services starting at once from racing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

FOLDER = Path(__file__).with_name("migrations")
NAME = re.compile(r"(\d{3})_([a-z0-9_]+)\.sql")
LOCK = 0x5049_5400  # "PIT\0": the advisory lock of migrating


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(folder: Path = FOLDER) -> list[Migration]:
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = NAME.fullmatch(path.name)
        if match is None:
            raise ValueError(f"{path}: a migration is named NNN_name.sql")
        found.append(Migration(int(match[1]), match[2], path.read_text()))
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise ValueError(f"{folder}: migrations must be numbered 001, 002, ... without gaps: {versions}")
    return found


def not_applied(conn: psycopg.Connection, folder: Path = FOLDER) -> list[Migration]:
    """The migrations of this release the store has not applied (all of them on an empty store)."""
    exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()
    done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")} if exists and exists[0] else set()
    return [migration for migration in migrations(folder) if migration.version not in done]


def migrate(conn: psycopg.Connection, folder: Path = FOLDER) -> list[Migration]:
    """Apply every migration not yet applied; returns those applied now."""
    conn.autocommit = True
    conn.execute("SELECT pg_advisory_lock(%s)", (LOCK,))
    try:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, name text NOT NULL,"
            " applied timestamptz NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        applied = []
        for migration in migrations(folder):
            if migration.version in done:
                continue
            with conn.transaction():
                conn.execute(migration.sql)
                conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (migration.version, migration.name)
                )
            applied.append(migration)
        return applied
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK,))

"""What every part of the pit's store stands on: its connection pool, and a query's rows."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from psycopg_pool import ConnectionPool

from pit.service.store.migrate import Migration


def units(value: Decimal | int | float | None) -> int | float:
    """An amount for JSON: whole amounts as integers, as the ledger writes them."""
    if value is None:
        return 0
    number = Decimal(str(value))
    return int(number) if number == number.to_integral_value() else float(number)


class StoreBase:
    def __init__(self, dsn: str, pool: ConnectionPool[Any], applied: list[Migration] | None = None) -> None:
        self.dsn = dsn
        self.pool = pool
        self.applied = applied or []  # the migrations `set_up` applied

    def close(self) -> None:
        self.pool.close()

    def _all(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self.pool.connection() as conn:
            rows: list[tuple[Any, ...]] = conn.execute(sql, args).fetchall()
            return rows

    def _one(self, sql: str, args: tuple[Any, ...] = ()) -> tuple[Any, ...] | None:
        rows = self._all(sql, args)
        return rows[0] if rows else None

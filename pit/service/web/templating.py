"""The pages' templates, with the journal's own wording for amounts, cards and times as filters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.templating import Jinja2Templates

from dealer_assist.rules.counts import count
from dealer_assist.text.journal_text import card_code, clock, signed_units, stamp, units


def fee_total(fees: Any) -> float:
    """A round's fees: the ledger's {"players", "player_dealer"} or already one amount."""
    if isinstance(fees, dict):
        return float(fees.get("players", 0) or 0) + float(fees.get("player_dealer", 0) or 0)
    return float(fees or 0)


def optional_units(amount: float | None) -> str:
    return "—" if amount is None else signed_units(amount)


def figure(value: float | None) -> str:
    """A report's figure, or a dash where there is none (no time at a table, no round)."""
    return "—" if value is None else f"{value:,.1f}" if isinstance(value, float) else f"{value:,}"


def hours(value: float | None) -> str:
    """Time at the tables: '2 h 05 min', '12 min'."""
    if value is None:
        return "—"
    whole, minutes = divmod(round(value * 60), 60)
    return f"{whole} h {minutes:02d} min" if whole else f"{minutes} min"


def templates(folder: Path) -> Jinja2Templates:
    found = Jinja2Templates(directory=folder)
    found.env.autoescape = True
    found.env.filters.update(
        {
            "units": units,
            "signed": optional_units,
            "card": card_code,
            "clock": clock,
            "stamp": stamp,
            "fee_total": fee_total,
            "figure": figure,
            "hours": hours,
            "count": count,
        }
    )
    return found

"""How journal records read for a supervisor: plain words for inputs and operations, amounts in
dollars, cards with suit symbols, hands and cards counted from 1 as people count them (the journal
counts from 0), times to the millisecond. Used by the table's screens, its report and the pit's pages."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from dealer_assist.history.recall import HIDDEN

# A card's words are the rules' own, for the dealer's prompt too; named here for the screens and pages.
from dealer_assist.rules.cards import card_text, parse_card
from dealer_assist.rules.counts import count
from dealer_assist.rules.money import Cents
from dealer_assist.text.record_words import QUIET_FIELDS, field_value, money_text, wager_name

__all__ = ["RED_SUITS", "card_code", "clock", "money", "signed_units", "stamp", "units", "words"]

RED_SUITS = frozenset("HD")
CARD_FIELDS = frozenset({"card", "was", "now"})
FIELD_NAMES = {"index": "card no.", "n": "shoe card"}
FIRST_FIELDS = ("seat", "hand", "kind", "action", "card", "was", "now", "amount")
LAST_FIELDS = ("supervisor", "reason")
FREE_TEXT_FIELDS = frozenset(LAST_FIELDS)  # typed by a supervisor: shown as typed


def money(cents: Cents) -> str:
    """$25 or $2.50: cents only when there are some."""
    return money_text(cents)


def words(type_name: str) -> str:
    """'PlaceWager' -> 'Place wager'."""
    parts = re.findall(r"[A-Z][a-z]*", type_name) or [type_name]
    return " ".join([parts[0], *(part.lower() for part in parts[1:])])


def card_code(code: str) -> str:
    """A journal card code on screen; the masked hole card stays masked."""
    return code if code == HIDDEN else card_text(parse_card(code))


def _readings(reads: list[dict[str, Any]]) -> str:
    """A scan's readings: how many spots, and those that hold chips ("28 spots: 3.base $25, 4.ll $5")."""
    held = [
        f"{r['spot']} {money(r['amount'])}" + (f" + {r['alien']} alien" if r.get("alien") else "")
        for r in reads
        if r.get("amount") or r.get("alien")
    ]
    return count(len(reads), "spot") + (f": {', '.join(held)}" if held else ", all empty")


def _value(key: str, value: Any, typed: frozenset[str]) -> str:
    if key == "reads" and isinstance(value, list):
        return _readings(value)
    if key == "spots" and isinstance(value, list):
        return f"{len(value)} spots" if len(value) > 4 else ", ".join(map(str, value)) or "none"
    if key in CARD_FIELDS and isinstance(value, str):
        return card_code(value)
    if key == "wager" and isinstance(value, str):
        return wager_name(value)
    shown = field_value(key, value)
    if isinstance(value, str) and key not in typed:
        return shown.replace("_", " ")  # a journaled code ("dealer_draw", a hand's end "must_stand") in words
    return shown


def describe(data: dict[str, Any]) -> str:
    """An input or an operation in one line: its kind, then each field that has a value. A card
    or a hand without a seat is the dealer's, and says so (never "hand 1")."""
    dealers = "seat" in data and data["seat"] is None
    typed = FREE_TEXT_FIELDS if "supervisor" in data else frozenset()  # a reason without a supervisor is a code
    order = [*FIRST_FIELDS, *(key for key in data if key not in FIRST_FIELDS + LAST_FIELDS), *LAST_FIELDS]
    fields = [
        f"{FIELD_NAMES.get(key, key.replace('_', ' '))} {_value(key, data[key], typed)}"
        for key in order
        if key in data and key not in QUIET_FIELDS and data[key] is not None and not (dealers and key == "hand")
    ]
    fields = ["dealer", *fields] if dealers else fields
    return words(str(data.get("type", "?"))) + ("  ·  " + " · ".join(fields) if fields else "")


def clock(wall: str | None) -> str:
    """The time of day of a record, to the millisecond."""
    return "—" if wall is None else datetime.fromisoformat(wall).strftime("%H:%M:%S.%f")[:-3]


def stamp(wall: str | None) -> str:
    """Date and time of a record, in UTC as the journal keeps it."""
    return "—" if wall is None else datetime.fromisoformat(wall).strftime("%Y-%m-%d %H:%M:%S UTC")


def units(amount: float) -> str:
    """A ledger amount (currency units) as dollars."""
    return money(Cents(round(amount * 100)))


def signed_units(amount: float) -> str:
    return ("+" if amount > 0 else "") + units(amount)

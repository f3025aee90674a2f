"""How journal records read for a person, wherever they are printed: amounts as currency (the
journal keeps cents in inputs and operations, currency units in ledgers), hands and cards counted
from 1 (the journal and JSON count from 0, as ROUND-FILE.md says), wagers by their names."""

from __future__ import annotations

from typing import Any

from dealer_assist.rules.money import Cents, format_money
from dealer_assist.rules.outcomes import Result
from dealer_assist.rules.settlement import Wager

__all__ = ["RESULT_WORDS", "WAGER_NAMES", "amount_text", "money_text", "result_word", "wager_name"]

CENTS_FIELDS = frozenset({"amount", "bank", "player_fees", "player_dealer_fee", "player_dealer_net", "held", "due"})
COUNTED_FIELDS = frozenset({"hand", "index"})
QUIET_FIELDS = frozenset({"type", "seq", "wall"})
WAGER_NAMES = {
    Wager.LUCKY_LUCKY: "Lucky Lucky",
    Wager.INSURANCE: "Insurance",
    Wager.BASE: "Base",
    Wager.BUSTER: "Buster",
    Wager.FREE_BONUS: "Free bonus",
}

RESULT_WORDS = {
    Result.WIN: "win",
    Result.LOSE: "lose",
    Result.PUSH: "push",
    Result.SURRENDER: "surrender",
    Result.NO_ACTION: "no action",
}


def money_text(cents: Cents, signed: bool = False) -> str:
    """$25 or $2.50: cents only when there are some."""
    return format_money(cents, signed)


def amount_text(units: float, signed: bool = False) -> str:
    """A ledger amount (currency units, as ledger-v1 has it) as currency."""
    return money_text(Cents(round(units * 100)), signed)


def wager_name(kind: str) -> str:
    return WAGER_NAMES.get(Wager(kind), kind) if kind in set(Wager) else kind.replace("_", " ")


def result_word(result: str) -> str:
    """A ledger's result ("no_action") as the dealer and the supervisor read it ("no action")."""
    return RESULT_WORDS[Result(result)] if result in set(Result) else result.replace("_", " ")


def field_value(key: str, value: Any) -> str:
    """One field of a journal input or operation as a person reads it (cards left as their codes)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if key in CENTS_FIELDS and isinstance(value, int):
        return money_text(value)
    if key in COUNTED_FIELDS and isinstance(value, int):
        return str(value + 1)
    if key == "kind" and isinstance(value, str) and value in set(Wager):
        return wager_name(value)
    return str(value)

"""Money is integer cents; odds are fractions; every payout rounds down to the cent (RULES.md §8.9)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction

from dealer_assist.rules.refusals import InputError, Refusal

__all__ = ["CHIP_VALUES", "Cents", "format_money", "parse_amount", "to_units"]

Cents = int
# the chips an amount is keyed in, $1 to $1,000
CHIP_VALUES: tuple[Cents, ...] = (100, 500, 2_500, 10_000, 50_000, 100_000)


def parse_amount(value: object, field: str) -> Cents:
    """Currency units with at most two decimals -> cents; anything else names the field."""
    if type(value) is int and value >= 0:
        return value * 100
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputError(Refusal.BAD_AMOUNT, f"{field}: {value!r} is not an amount", None)
    try:
        units = Decimal(str(value))
    except InvalidOperation:
        raise InputError(Refusal.BAD_AMOUNT, f"{field}: {value!r} is not an amount", None) from None
    if not units.is_finite():
        raise InputError(Refusal.BAD_AMOUNT, f"{field}: {value!r} is not an amount", None)
    cents = units * 100
    if cents != cents.to_integral_value():
        raise InputError(Refusal.BAD_AMOUNT, f"{field}: {value!r} has more than two decimals", None)
    if cents < 0:
        raise InputError(Refusal.BAD_AMOUNT, f"{field}: {value!r} is negative", None)
    return int(cents)


def to_units(cents: Cents) -> int | float:
    """Cents -> currency units for JSON: whole amounts stay integers."""
    return cents // 100 if cents % 100 == 0 else cents / 100


def format_money(cents: Cents, signed: bool = False) -> str:
    """$25 or $2.50: cents only when there are some; `signed` puts + before a gain."""
    sign = "-" if cents < 0 else "+" if signed and cents > 0 else ""
    units, rest = divmod(abs(cents), 100)
    return f"{sign}${units:,}" + (f".{rest:02d}" if rest else "")


def payout(stake: Cents, odds: Fraction) -> Cents:
    """What a win of `stake` at `odds` to 1 pays, rounded down to the cent."""
    return (stake * odds.numerator) // odds.denominator


def parse_odds(text: str, field: str) -> Fraction:
    """'3:2' -> Fraction(3, 2)."""
    parts = text.split(":")
    if len(parts) != 2 or not all(p.isdigit() for p in parts) or int(parts[1]) == 0:
        raise InputError(Refusal.BAD_SETTING, f"{field}: {text!r} is not odds like '3:2'", None)
    return Fraction(int(parts[0]), int(parts[1]))

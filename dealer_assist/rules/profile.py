"""Rule profiles as data: TOML files in the package, validated on load into a frozen Profile.

Every setting of RULES.md §7 has one parser here; an unknown name or a value out of range is an
error that names the setting. A profile's hash covers its id and every resolved setting, so the
journal can prove which rules a round was played under.
"""

from __future__ import annotations

import functools
import hashlib
import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from fractions import Fraction
from importlib import resources
from types import MappingProxyType
from typing import Any

from dealer_assist.rules.money import Cents, parse_amount, parse_odds
from dealer_assist.rules.refusals import InputError, Refusal, RuleError

__all__ = [
    "FreeBonus",
    "MONEY_SETTINGS",
    "PayoutCheck",
    "Profile",
    "Surrender",
    "load_profile",
    "profile_names",
    "profile_sources",
]


class PlayStart(StrEnum):
    SEAT_1 = "seat_1"
    AFTER_PLAYER_DEALER = "after_player_dealer"


class OverTie(StrEnum):
    PUSH = "push"
    DEALER = "dealer"


class Surrender(StrEnum):
    NONE = "none"
    ANY_TWO = "any_two"
    NO_ACE_12_PLUS = "no_ace_12_plus"


class Coverage(StrEnum):
    RUNNING = "running"
    STAKE = "stake"


class PayoutCheck(StrEnum):
    """At a table with a wager reader, whether the dealer's "Paid" waits for the spots to match (RULES.md §8.24)."""

    HOLD = "hold"
    OFF = "off"


class FreeBonus(StrEnum):
    NONE = "none"
    B1 = "B1"
    B3 = "B3"


@dataclass(frozen=True, slots=True)
class FeeTier:
    upto: Cents
    player: Cents
    pd: Cents


@dataclass(frozen=True, slots=True)
class Profile:
    id: str
    title: str
    natural_total: int
    player_must_hit_to: int
    player_must_stand_from: int
    decks: int
    seats: int
    player_dealer: bool
    dealer_hole_card: bool
    lucky_lucky: bool
    play_starts: PlayStart
    dealer_up_card: int
    dealer_hits_soft_17: bool
    natural_pays: Fraction
    no_bust_push_totals: tuple[int, ...]
    over_tie: OverTie
    surrender: Surrender
    split_same_value: bool
    max_hands: int
    coverage: Coverage | None
    buster_pays: tuple[int, ...]
    free_bonus: FreeBonus
    max_table_payout: Cents | None
    table_min: Cents
    table_max: Cents
    buster_min: Cents
    buster_max: Cents
    insurance_min: Cents
    fees: tuple[FeeTier, ...]
    payout_check: PayoutCheck
    content_hash: str
    rules: Mapping[str, str]

    @property
    def up_index(self) -> int:
        """Where the up card lies in the dealer's two cards: dealt first or second (RULES.md §7)."""
        return self.dealer_up_card - 1

    @property
    def hole_index(self) -> int:
        """Where the hole card lies in the dealer's two cards: the one of them that is not up."""
        return 1 - self.up_index

    def buster_odds(self, dealer_cards: int) -> int:
        """To-1 odds for a dealer bust of this many cards (3..8+)."""
        return self.buster_pays[min(dealer_cards, 8) - 3]

    def settings(self) -> dict[str, Any]:
        """The resolved settings in their RULES.md §7 names and file form (money in units)."""
        return {name: _SETTINGS[name].dump(getattr(self, name)) for name in SETTING_NAMES}


# --- one parser per setting -------------------------------------------------------------------


def _int_in(low: int, high: int) -> Callable[[str, object], int]:
    def parse(name: str, value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InputError(
                Refusal.BAD_SETTING, f"setting {name}: {value!r} is not a whole number from {low} to {high}", "7"
            )
        return value

    return parse


def _bool(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise InputError(Refusal.BAD_SETTING, f"setting {name}: {value!r} is not true or false", "7")
    return value


def _enum(kind: type[StrEnum]) -> Callable[[str, object], StrEnum]:
    def parse(name: str, value: object) -> StrEnum:
        for member in kind:
            if member.value == value:
                return member
        choices = ", ".join(member.value for member in kind)
        raise InputError(Refusal.BAD_SETTING, f"setting {name}: {value!r} is not one of {choices}", "7")

    return parse


def _money(name: str, value: object) -> Cents:
    try:
        return parse_amount(value, f"setting {name}")
    except RuleError as error:
        raise InputError(Refusal.BAD_SETTING, error.message, "7") from None


def _optional_money(name: str, value: object) -> Cents | None:
    return None if value is None else _money(name, value)


def _odds(name: str, value: object) -> Fraction:
    if not isinstance(value, str):
        raise InputError(Refusal.BAD_SETTING, f"setting {name}: {value!r} is not odds like '3:2'", "7")
    try:
        return parse_odds(value, f"setting {name}")
    except RuleError as error:
        raise InputError(Refusal.BAD_SETTING, error.message, "7") from None


def _totals(name: str, value: object) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and 22 <= v <= 30 for v in value
    ):
        raise InputError(Refusal.BAD_SETTING, f"setting {name}: {value!r} is not a list of totals from 22 to 30", "7")
    return tuple(sorted(set(value)))


def _pays(name: str, value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or len(value) != 6
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 < v <= 10_000 for v in value)
    ):
        raise InputError(
            Refusal.BAD_SETTING, f"setting {name}: {value!r} is not six to-1 odds for 3,4,5,6,7,8+ cards", "7"
        )
    return tuple(value)


def _fees(name: str, value: object) -> tuple[FeeTier, ...]:
    if not isinstance(value, list):
        raise InputError(Refusal.BAD_SETTING, f"setting {name}: {value!r} is not a list of fee tiers", "7")
    tiers = []
    for index, tier in enumerate(value):
        if not isinstance(tier, Mapping) or set(tier) != {"upto", "player", "pd"}:
            raise InputError(
                Refusal.BAD_SETTING, f"setting {name}[{index}]: a tier has exactly upto, player and pd", "7"
            )
        tiers.append(FeeTier(*(_money(f"{name}[{index}].{key}", tier[key]) for key in ("upto", "player", "pd"))))
    if any(a.upto >= b.upto for a, b in zip(tiers, tiers[1:], strict=False)):
        raise InputError(Refusal.BAD_SETTING, f"setting {name}: tiers must rise by upto", "7")
    return tuple(tiers)


def _dump_default(value: object) -> object:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, Fraction):
        return f"{value.numerator}:{value.denominator}"
    if isinstance(value, tuple):
        return [_dump_default(v) for v in value]
    if isinstance(value, FeeTier):
        return {"upto": value.upto / 100, "player": value.player / 100, "pd": value.pd / 100}
    return value


def _dump_money(value: object) -> object:
    return None if value is None else value / 100  # type: ignore[operator]


@dataclass(frozen=True, slots=True)
class _Setting:
    parse: Callable[[str, object], Any]
    dump: Callable[[object], object] = _dump_default


_SETTINGS: dict[str, _Setting] = {
    "decks": _Setting(_int_in(1, 8)),
    "seats": _Setting(_int_in(2, 12)),
    "player_dealer": _Setting(_bool),
    "dealer_hole_card": _Setting(_bool),
    "lucky_lucky": _Setting(_bool),
    "play_starts": _Setting(_enum(PlayStart)),
    "dealer_up_card": _Setting(_int_in(1, 2)),
    "dealer_hits_soft_17": _Setting(_bool),
    "natural_pays": _Setting(_odds),
    "no_bust_push_totals": _Setting(_totals),
    "over_tie": _Setting(_enum(OverTie)),
    "surrender": _Setting(_enum(Surrender)),
    "split_same_value": _Setting(_bool),
    "max_hands": _Setting(_int_in(1, 4)),
    "coverage": _Setting(lambda n, v: None if v is None else _enum(Coverage)(n, v)),
    "buster_pays": _Setting(_pays),
    "free_bonus": _Setting(_enum(FreeBonus)),
    "max_table_payout": _Setting(_optional_money, _dump_money),
    "table_min": _Setting(_money, _dump_money),
    "table_max": _Setting(_money, _dump_money),
    "buster_min": _Setting(_money, _dump_money),
    "buster_max": _Setting(_money, _dump_money),
    "insurance_min": _Setting(_money, _dump_money),
    "fees": _Setting(_fees),
    "payout_check": _Setting(_enum(PayoutCheck)),
}
SETTING_NAMES: tuple[str, ...] = tuple(_SETTINGS)
# Settings kept in currency units in their file form (a fee tier's every field is one): people read them as currency.
MONEY_SETTINGS = frozenset({*(name for name, setting in _SETTINGS.items() if setting.dump is _dump_money), "fees"})
_DEFAULTS: dict[str, object] = {
    "coverage": None,
    "free_bonus": "none",
    "max_table_payout": None,
    "payout_check": "hold",
}


@functools.cache
def _names() -> tuple[str, ...]:
    folder = resources.files("dealer_assist.rules") / "profiles"
    return tuple(sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")))


def profile_names() -> list[str]:
    return list(_names())


@functools.cache
def _read(name: str) -> dict[str, Any]:
    if name not in profile_names():
        raise InputError(
            Refusal.UNKNOWN_PROFILE, f"unknown profile {name!r}; known: {', '.join(profile_names())}", None
        )
    text = (resources.files("dealer_assist.rules") / "profiles" / f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def profile_sources(name: str) -> dict[str, str]:
    """Where each setting of a profile comes from in RULES.md."""
    return dict(_read(name).get("sources", {}))


def load_profile(name: str, overrides: Mapping[str, object] | None = None) -> Profile:
    """The named profile with `overrides` applied, validated as a whole."""
    if not isinstance(name, str):
        raise InputError(Refusal.UNKNOWN_PROFILE, f"profile {name!r} is not a profile name", None)
    return _load(name, json.dumps(overrides or {}, sort_keys=True, default=str))


@functools.lru_cache(maxsize=64)
def _load(name: str, overrides_json: str) -> Profile:
    """Profiles are immutable, so each (name, overrides) pair is read and checked once."""
    overrides: dict[str, object] = json.loads(overrides_json)
    data = _read(name)
    raw: dict[str, object] = {**_DEFAULTS, **data["settings"]}
    for key, value in overrides.items():
        if key not in _SETTINGS:
            raise InputError(
                Refusal.UNKNOWN_SETTING, f"unknown setting {key!r}; known: {', '.join(SETTING_NAMES)}", "7"
            )
        raw[key] = value
    values = {key: _SETTINGS[key].parse(key, value) for key, value in raw.items()}
    _check_fit(name, values, data.get("allowed", {}))
    digest = hashlib.sha256(
        json.dumps(
            {
                "id": data["id"],
                "natural_total": data["natural_total"],
                "player_must_hit_to": data["player_must_hit_to"],
                "player_must_stand_from": data["player_must_stand_from"],
                **{k: _SETTINGS[k].dump(values[k]) for k in SETTING_NAMES},
            },
            sort_keys=True,
        ).encode()
    ).hexdigest()
    profile_fields = {f.name for f in fields(Profile)}
    game = {key: data[key] for key in ("id", "title", "natural_total", "player_must_hit_to", "player_must_stand_from")}
    rules = MappingProxyType(dict(data["rules"]))
    return Profile(content_hash=digest, rules=rules, **game, **{k: v for k, v in values.items() if k in profile_fields})


def _check_fit(name: str, values: dict[str, Any], allowed: Mapping[str, list[object]]) -> None:
    """Settings that cannot go together are refused when loaded (RULES.md §8.19)."""
    for key, choices in allowed.items():
        if values[key] not in choices:
            raise InputError(
                Refusal.BAD_SETTING,
                f"setting {key}: {values[key]!r} is not allowed in {name} (allowed: {choices})",
                "7",
            )
    for low, high in (("table_min", "table_max"), ("buster_min", "buster_max")):
        if values[low] > values[high] or values[low] == 0:
            raise InputError(Refusal.BAD_SETTING, f"settings {low}/{high}: need 0 < {low} <= {high}", "7")
    if values["player_dealer"]:
        if values["free_bonus"] != FreeBonus.NONE:
            raise InputError(
                Refusal.BAD_SETTING, "setting free_bonus: a free bonus does not fit a player-dealer game", "8.19"
            )
        if values["coverage"] is None:
            raise InputError(
                Refusal.BAD_SETTING, "setting coverage: a player-dealer game needs running or stake coverage", "5.3"
            )
    else:
        if values["play_starts"] == PlayStart.AFTER_PLAYER_DEALER:
            raise InputError(
                Refusal.BAD_SETTING, "setting play_starts: after_player_dealer does not fit a house-banked game", "8.19"
            )
        if values["lucky_lucky"]:
            raise InputError(
                Refusal.BAD_SETTING, "setting lucky_lucky: Lucky Lucky is a player-dealer bet (RULES.md §2.17)", "8.19"
            )

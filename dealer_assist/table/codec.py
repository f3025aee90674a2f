"""Inputs and operations <-> plain JSON data, for the journal and the screens' evidence view.

Every journaled record type is a frozen dataclass whose fields are ints, bools, strings, cards,
StrEnums or None; a record is written as {"type": ClassName, field: value...} and read back into
the same dataclass, so a replay from the journal is a replay of the very inputs the table saw.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from enum import StrEnum
from typing import Any

from dealer_assist.journal.errors import JournalCode, JournalError
from dealer_assist.rules import inputs, operations
from dealer_assist.rules.cards import Card, parse_card
from dealer_assist.table import session_inputs, session_operations
from dealer_assist.table.spots import Spot, parse_spot

_MODULES = (inputs, operations, session_inputs, session_operations)
TYPES: dict[str, type] = {
    name: obj
    for module in _MODULES
    for name, obj in vars(module).items()
    if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == module.__name__
}


def encode(record: object) -> dict[str, Any]:
    data: dict[str, Any] = {"type": type(record).__name__}
    for field in dataclasses.fields(record):  # type: ignore[arg-type]
        data[field.name] = _encode_value(getattr(record, field.name))
    return data


def _encode_value(value: object) -> object:
    if isinstance(value, Card | Spot):
        return str(value)
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, tuple):
        return [_encode_value(v) for v in value]
    if dataclasses.is_dataclass(value):
        return encode(value)
    return value


@functools.cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def decode(data: dict[str, Any]) -> Any:
    """The record back as its dataclass; an unknown type or field is an error naming it."""
    name = data.get("type")
    kind = TYPES.get(name) if isinstance(name, str) else None
    if kind is None:
        raise JournalError(JournalCode.BAD_RECORD, f"unknown record type {name!r}")
    hints = _hints(kind)
    values = {}
    for field in dataclasses.fields(kind):
        if field.name not in data:
            if field.default is dataclasses.MISSING:
                raise JournalError(JournalCode.BAD_RECORD, f"{name}: field {field.name!r} is missing")
            continue
        values[field.name] = _decode_value(hints[field.name], data[field.name], f"{name}.{field.name}")
    return kind(**values)


def _decode_value(hint: Any, value: object, where: str) -> object:
    """`value` as the type `hint` names; a value of the wrong shape is an error naming `where`."""
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        return _decode_value(options[0], value, where) if len(options) == 1 else value
    if hint is Card:
        return parse_card(value)
    if hint is Spot:
        try:
            return parse_spot(str(value))
        except ValueError as error:
            raise JournalError(JournalCode.BAD_RECORD, f"{where}: {error}") from None
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        for member in hint:
            if member.value == value:
                return member
        choices = ", ".join(member.value for member in hint)
        raise JournalError(JournalCode.BAD_RECORD, f"{where}: {value!r} is not one of {choices}")
    if origin is tuple:
        if not isinstance(value, list):
            raise JournalError(JournalCode.BAD_RECORD, f"{where}: {value!r} is not a list")
        (item, *_rest) = typing.get_args(hint)
        return tuple(_decode_value(item, v, f"{where}[{i}]") for i, v in enumerate(value))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise JournalError(JournalCode.BAD_RECORD, f"{where}: {value!r} is not a record")
        return decode(value)
    return value

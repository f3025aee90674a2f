"""Frame bodies <-> typed messages (DEVICES.md §1-§3, §6); pure, so it is fuzzed without a port.

`decode` refuses, with `CodecError`, a body whose TYPE the receiver does not know or whose fields do
not fit its TYPE; it never returns a half-filled message.
"""

from __future__ import annotations

from dataclasses import fields
from functools import cache

from dealer_assist.errors import Failure
from devices.wire.fields import FieldKind
from devices.wire.framing import RejectReason, readable_seq
from devices.wire.messages import Message, Vocabulary


class CodecError(Failure):
    """A body refused by the codec: `unknown_type` or `malformed` (its code), with the SEQ when it was readable."""

    def __init__(self, reason: RejectReason, detail: str, seq: int | None) -> None:
        super().__init__(reason, detail)
        self.reason = reason
        self.detail = detail
        self.seq = seq


@cache
def _wire_fields(cls: type[Message]) -> tuple[tuple[str, FieldKind], ...]:
    return tuple((f.name, f.metadata["wire"]) for f in fields(cls) if "wire" in f.metadata)


def encode(message: Message) -> str:
    parts = [f"{message.seq:04X}", message.TYPE]
    # mypy takes a class object's hashability from its instances' __hash__ (python/mypy#20409)
    for name, kind in _wire_fields(type(message)):  # type: ignore[arg-type]
        text = kind.format(getattr(message, name))
        if text or not kind.rest:
            parts.append(text)
    return " ".join(parts)


def decode(body: str, vocabulary: Vocabulary) -> Message:
    seq = readable_seq(body.encode("ascii"))
    tokens = body.split(" ")
    if seq is None:
        raise CodecError(RejectReason.MALFORMED, f"SEQ {tokens[0]!r} is not four uppercase hex digits", None)
    if len(tokens) < 2:
        raise CodecError(RejectReason.MALFORMED, "no TYPE after the SEQ", seq)
    if "" in tokens:
        raise CodecError(RejectReason.MALFORMED, f"empty field {tokens.index('')} (double or trailing space)", seq)
    cls = vocabulary.get(tokens[1])
    if cls is None:
        raise CodecError(RejectReason.UNKNOWN_TYPE, f"TYPE {tokens[1]!r} is not one this receiver knows", seq)
    values = _parse_fields(cls, tokens[2:], seq)
    return cls(seq, **values)


def _parse_fields(cls: type[Message], tokens: list[str], seq: int) -> dict[str, object]:
    specs = _wire_fields(cls)  # type: ignore[arg-type]  # python/mypy#20409, as in encode
    values: dict[str, object] = {}
    for index, (name, kind) in enumerate(specs):
        if not kind.rest and index >= len(tokens):
            raise CodecError(RejectReason.MALFORMED, f"{cls.TYPE} lacks its field {name!r}", seq)
        try:
            values[name] = kind.parse(" ".join(tokens[index:]) if kind.rest else tokens[index])
        except ValueError as error:
            raise CodecError(RejectReason.MALFORMED, f"{cls.TYPE} field {name!r}: {error}", seq) from None
        if kind.rest:
            return values
    if len(tokens) > len(specs):
        raise CodecError(RejectReason.MALFORMED, f"{cls.TYPE} has {len(tokens) - len(specs)} extra field(s)", seq)
    return values

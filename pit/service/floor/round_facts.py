"""What a stored record tells the pit's derived tables: a journal's header, a round opened or
closed with its ledger, a supervisor's correction. Pure, so the derived tables can be rebuilt
from the records at any time with the same code that fills them as records arrive."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from dealer_assist.journal.journal_file import RecordKind
from dealer_assist.rules.money import to_units
from pit.stream.wire import RecordMessage, body_of

__all__ = ["Correction", "Fact", "Header", "RoundClose", "RoundOpen", "facts"]

CORRECTION_OPS = ("RoundVoided", "CardRekeyed", "MisdealDiscarded", "PeekConfirmed", "CardKeyed", "MispayAccepted")


@dataclass(frozen=True, slots=True)
class Header:
    profile_id: str
    profile_hash: str
    software: str
    body: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RoundOpen:
    round_id: int
    wall: str


@dataclass(frozen=True, slots=True)
class RoundClose:
    round_id: int
    wall: str
    seq: int
    voided: bool
    player_dealer_net: Decimal
    fees_players: Decimal
    fees_player_dealer: Decimal
    ledger: dict[str, Any] | None
    dealers: tuple[str, ...]  # who dealt it, in turn (RULES.md §8.25); none when nobody was signed in


@dataclass(frozen=True, slots=True)
class Correction:
    position: int
    round_id: int | None
    wall: str
    type: str
    supervisor: str
    reason: str


Fact = Header | RoundOpen | RoundClose | Correction


def facts(message: RecordMessage) -> list[Fact]:
    body: dict[str, Any] = body_of(message.body)
    if message.kind is RecordKind.TABLE:
        profile = body.get("profile", {})
        return [Header(str(profile.get("id", "")), str(profile.get("hash", "")), str(body.get("software", "")), body)]
    if message.kind not in (RecordKind.INPUT, RecordKind.CLOSE):
        return []
    found: list[Fact] = []
    for position, op in enumerate(body.get("ops", [])):
        kind = op.get("type")
        if kind == "RoundOpened":
            found.append(RoundOpen(int(op["round_id"]), message.wall))
        elif kind == "RoundClosed":
            ledger = body.get("ledger")
            fees = (ledger or {}).get("fees", {})
            found.append(
                RoundClose(
                    int(op["round_id"]),
                    message.wall,
                    message.seq,
                    bool(op.get("voided")),
                    _units(to_units(int(op.get("player_dealer_net", 0)))),
                    _units(fees.get("players", 0)),
                    _units(fees.get("player_dealer", 0)),
                    ledger,
                    tuple(str(name) for name in body.get("dealers", ())),
                )
            )
        elif kind in CORRECTION_OPS:
            found.append(
                Correction(
                    position,
                    message.round_id,
                    message.wall,
                    kind,
                    str(op.get("supervisor", "")),
                    str(op.get("reason", "")),
                )
            )
    return found


def _units(value: object) -> Decimal:
    return Decimal(str(value))

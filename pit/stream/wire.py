"""What a table sends the pit (PIT.md §2): subjects, the record message and the status message.

The table's shipper and the pit's ingest both use these, so the two ends agree by construction.
A message from the wire is parsed into a frozen value or refused with the field that was wrong.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Annotated, Any

import msgspec

from dealer_assist.journal.journal_file import Record, RecordKind, canonical_json, record_hash
from pit.errors import PitCode, PitError

__all__ = [
    "RecordMessage",
    "ResendRequest",
    "STATUS_EVERY_S",
    "STREAM",
    "STREAM_SUBJECTS",
    "StatusMessage",
    "WireError",
    "body_of",
    "check_table_id",
    "journal_identity",
    "json_text",
    "parse_record_message",
    "parse_status_message",
    "records_subject",
    "resend_subject",
]

STREAM = "DA_RECORDS"
STREAM_SUBJECTS = "da.records.>"
STATUS_EVERY_S = 5.0
RESEND_SUBJECT = "da.resend.{table_id}"  # the pit's resend requests to a table (core NATS, not stored)
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_HEX64 = re.compile(r"[0-9a-f]{64}")


class WireError(PitError):
    """A message or a table id that is not what PIT.md §2 describes; the text names the field."""

    def __init__(self, message: str, code: PitCode = PitCode.BAD_VALUE) -> None:
        super().__init__(code, message)


def check_table_id(table_id: str) -> str:
    """A table id is 1-32 characters A-Z a-z 0-9 _ - (PIT.md §2); anything else is refused at start."""
    if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
        raise WireError(f"table id {table_id!r}: use 1-32 characters A-Z a-z 0-9 _ -", PitCode.BAD_TABLE_ID)
    return table_id


@functools.lru_cache(maxsize=4096)
def records_subject(table_id: str, journal: str) -> str:
    """A journal's records subject (asked of every record that comes in: kept for the journals seen)."""
    return f"da.records.{check_table_id(table_id)}.{journal}"


def status_subject(table_id: str) -> str:
    return f"da.status.{check_table_id(table_id)}"


def resend_subject(table_id: str) -> str:
    return RESEND_SUBJECT.format(table_id=check_table_id(table_id))


@dataclass(frozen=True, slots=True)
class ResendRequest:
    """The pit lacks `from_seq` of `journal` while later records wait (PIT.md §2): send again from there."""

    journal: str
    from_seq: int

    def to_json(self) -> bytes:
        return json.dumps({"journal": self.journal, "from_seq": self.from_seq}, separators=(",", ":")).encode()

    @classmethod
    def from_json(cls, data: bytes) -> ResendRequest:
        raw = _object(data, "resend request")
        journal, from_seq = _field(raw, "journal", str), _field(raw, "from_seq", int)
        if not _HEX64.fullmatch(journal):
            raise WireError(f"resend request: journal {journal!r} is not 64 hex digits")
        if from_seq < 1:
            raise WireError(f"resend request: from_seq {from_seq} is not a record's seq (1 or more)")
        return cls(journal, from_seq)


def journal_identity(header: Record) -> str:
    """A journal's identity: the hex hash of its first record (a table can start a new journal)."""
    if header.seq != 1 or header.kind is not RecordKind.TABLE:
        raise WireError(f"record {header.seq} ({header.kind.value}) is not a journal's header")
    return header.hash.hex()


def msg_id(journal: str, seq: int) -> str:
    """The `Nats-Msg-Id` header: the broker drops a resend with the same id."""
    return f"{journal}:{seq}"


def seq_of_msg_id(value: str) -> int:
    """The seq a `Nats-Msg-Id` header names (`msg_id`'s inverse); WireError for another header."""
    journal, _, seq = value.rpartition(":")
    if not _HEX64.fullmatch(journal) or not seq.isdigit():
        raise WireError(f"Nats-Msg-Id {value!r} is not JOURNAL:SEQ")
    return int(seq)


class RecordMessage(msgspec.Struct, frozen=True):
    """One journal record as it travels: the record's own fields, the body as hashed text. A msgspec
    struct, so that ingest reads and checks a message's fields and their types in one pass."""

    table_id: str  # checked with the journal, once per journal (`_well_placed`), as each record comes in
    journal: str
    seq: Annotated[int, msgspec.Meta(ge=1)]
    wall: str
    mono_ns: int
    round_id: int | None
    kind: RecordKind
    body: str
    hash: str  # checked in `parse_record_message`: a pattern here costs more than the check

    @classmethod
    def of(cls, table_id: str, journal: str, record: Record) -> RecordMessage:
        return cls(
            table_id,
            journal,
            record.seq,
            record.wall,
            record.mono_ns,
            record.round_id,
            record.kind,
            canonical_json(record.body),
            record.hash.hex(),
        )

    def encode(self) -> bytes:
        return _encode(self)

    @property
    def subject(self) -> str:
        return records_subject(self.table_id, self.journal)

    @property
    def msg_id(self) -> str:
        return msg_id(self.journal, self.seq)

    def chains_onto(self, prev: bytes) -> bool:
        """True when this record's hash is the hash of its fields on top of `prev` (GENESIS for seq 1)."""
        return (
            record_hash(prev, self.seq, self.wall, self.mono_ns, self.round_id, self.kind.value, self.body).hex()
            == self.hash
        )

    def record(self) -> Record:
        return Record(
            self.seq, self.wall, self.mono_ns, self.round_id, self.kind, json.loads(self.body), bytes.fromhex(self.hash)
        )


@functools.lru_cache(maxsize=4096)
def body_of(text: str) -> Any:
    """A record body's JSON, parsed once for all who read a record on its way in (the wire check,
    the alerts, the round's facts). Shared: never change what it returns."""
    try:
        return _decode(text)
    except msgspec.DecodeError:  # what msgspec will not read (NaN), the standard library may
        return json.loads(text)


_decode = msgspec.json.Decoder().decode
_decode_record = msgspec.json.Decoder(RecordMessage).decode
_encode = msgspec.json.Encoder().encode


def json_text(value: Any) -> str:
    """A value read from a record's body as JSON text again, for the store: msgspec's encoder, about
    ten times the standard library's speed on a round's ledger."""
    return _encode(value).decode()


def parse_record_message(data: bytes) -> RecordMessage:
    """The record message, or WireError naming the field that is wrong. Ingest reads every record
    through here: a well-formed message is read, typed and checked by msgspec in one pass; anything
    else is read again field by field, to say which field is wrong."""
    try:
        message = _decode_record(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return _parse_slowly(data)
    if not _well_placed(message.table_id, message.journal) or _HEX64.fullmatch(message.hash) is None:
        return _parse_slowly(data)
    try:
        if not isinstance(body_of(message.body), dict):
            raise ValueError
    except ValueError:
        raise WireError("record message: body is not the JSON text of an object") from None
    return message


@functools.lru_cache(maxsize=4096)
def _well_placed(table_id: str, journal: str) -> bool:
    """A table id and a journal as PIT.md §2 has them; a backlog's records share a few of each."""
    return TABLE_ID.fullmatch(table_id) is not None and _HEX64.fullmatch(journal) is not None


def _parse_slowly(data: bytes) -> RecordMessage:
    raw = _object(data, "record message")
    table_id = check_table_id(_field(raw, "table_id", str))
    journal = _field(raw, "journal", str)
    if not _HEX64.fullmatch(journal):
        raise WireError(f"record message: journal {journal!r} is not 64 lowercase hex digits")
    seq = _field(raw, "seq", int)
    if seq < 1:
        raise WireError(f"record message: seq {seq} is not 1 or more")
    round_id = raw.get("round_id")
    if round_id is not None and (not isinstance(round_id, int) or isinstance(round_id, bool)):
        raise WireError(f"record message: round_id {round_id!r} is not an integer or null")
    try:
        kind = RecordKind(_field(raw, "kind", str))
    except ValueError:
        raise WireError(f"record message: kind {raw['kind']!r} is not a record kind") from None
    body = _field(raw, "body", str)
    try:
        if not isinstance(body_of(body), dict):
            raise ValueError
    except ValueError:
        raise WireError("record message: body is not the JSON text of an object") from None
    digest = _field(raw, "hash", str)
    if not _HEX64.fullmatch(digest):
        raise WireError(f"record message: hash {digest!r} is not 64 lowercase hex digits")
    return RecordMessage(
        table_id, journal, seq, _field(raw, "wall", str), _field(raw, "mono_ns", int), round_id, kind, body, digest
    )


@dataclass(frozen=True, slots=True)
class StatusMessage:
    """A table's state every 5 s and at once when it changes (core NATS, not stored)."""

    table_id: str
    journal: str
    profile: str
    round_id: int | None
    phase: str
    player_dealer: dict[str, Any] | None  # {"seat", "bank", "turn"}: bank in currency units
    devices: dict[str, str]  # device name -> "up" / "down"
    last_seq: int  # the last journaled seq
    to_ship: int  # records journaled but not yet in the stream
    sent: str = ""  # the table's wall clock, ISO 8601 UTC
    divergence: str | None = None  # the table saw its journal behind the stream (PIT.md §4)
    cannot_store: str | None = None  # the broker refuses the table's records: why (PIT.md §2)
    extra: dict[str, Any] = field(default_factory=dict)

    def encode(self) -> bytes:
        return json.dumps(asdict(self), separators=(",", ":"), ensure_ascii=False).encode()

    @property
    def subject(self) -> str:
        return status_subject(self.table_id)


def parse_status_message(data: bytes) -> StatusMessage:
    raw = _object(data, "status message")
    player_dealer = raw.get("player_dealer")
    if player_dealer is not None and not isinstance(player_dealer, dict):
        raise WireError("status message: player_dealer is not an object or null")
    devices = raw.get("devices", {})
    if not isinstance(devices, dict):
        raise WireError("status message: devices is not an object")
    round_id = raw.get("round_id")
    if round_id is not None and not isinstance(round_id, int):
        raise WireError(f"status message: round_id {round_id!r} is not an integer or null")
    extra = raw.get("extra", {})
    sent = str(raw.get("sent", ""))
    if sent:
        try:
            datetime.fromisoformat(sent)
        except ValueError:
            raise WireError(f"status message: sent {sent!r} is not an ISO 8601 time") from None
    return StatusMessage(
        check_table_id(_field(raw, "table_id", str)),
        _field(raw, "journal", str),
        _field(raw, "profile", str),
        round_id,
        _field(raw, "phase", str),
        player_dealer,
        {str(k): str(v) for k, v in devices.items()},
        _field(raw, "last_seq", int),
        _field(raw, "to_ship", int),
        sent,
        raw.get("divergence"),
        _optional_text(raw, "cannot_store"),
        extra if isinstance(extra, dict) else {},
    )


def _object(data: bytes, what: str) -> dict[str, Any]:
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError) as error:
        raise WireError(f"{what}: not JSON ({error})") from None
    if not isinstance(raw, dict):
        raise WireError(f"{what}: not a JSON object")
    return raw


def _optional_text(raw: dict[str, Any], name: str) -> str | None:
    value = raw.get(name)
    if value is not None and not isinstance(value, str):
        raise WireError(f"message: field {name!r} is {type(value).__name__}, not a string or null")
    return value


def _field(raw: dict[str, Any], name: str, kind: type) -> Any:
    if name not in raw:
        raise WireError(f"message: field {name!r} is missing")
    value = raw[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise WireError(f"message: field {name!r} is {type(value).__name__}, not {kind.__name__}")
    return value

"""The room log's leaf, `da-leaf-1` (PIT.md §9): one journal's records from the one after the previous
leaf's last to the record that closes a round (or, for a segment without a round, the last one that
waited), as canonical JSON: sorted keys, no spaces, UTF-8. No cards, wagers or names: the log is public."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from pit.tlog.errors import Malformed

__all__ = ["Leaf", "ZERO_HASH"]

VERSION = "da-leaf-1"
ZERO_HASH = "0" * 64  # the prev_hash of a journal's first leaf
_HEX = re.compile(r"[0-9a-f]{64}")
_KEYS = frozenset(
    [
        "v",
        "table_id",
        "journal",
        "round_id",
        "first_seq",
        "last_seq",
        "prev_hash",
        "head_hash",
        "records",
        "closed_wall",
    ]
)


@dataclass(frozen=True, slots=True)
class Leaf:
    table_id: str
    journal: str
    round_id: int | None  # None: a segment of records after the journal's last round
    first_seq: int
    last_seq: int
    prev_hash: str  # hex hash of the record before first_seq; ZERO_HASH for a journal's first
    head_hash: str  # hex hash of last_seq
    closed_wall: str  # last_seq's wall

    @property
    def records(self) -> int:
        return self.last_seq - self.first_seq + 1

    def text(self) -> bytes:
        body = {
            "v": VERSION,
            "table_id": self.table_id,
            "journal": self.journal,
            "round_id": self.round_id,
            "first_seq": self.first_seq,
            "last_seq": self.last_seq,
            "prev_hash": self.prev_hash,
            "head_hash": self.head_hash,
            "records": self.records,
            "closed_wall": self.closed_wall,
        }
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

    @classmethod
    def parse(cls, data: bytes) -> Leaf:
        """A leaf from its text, refused unless it is da-leaf-1 written exactly as `text` writes it."""
        try:
            body: Any = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise Malformed("leaf: not UTF-8 JSON") from None
        if not isinstance(body, dict) or set(body) != _KEYS:
            raise Malformed(f"leaf: the keys of {VERSION} are {sorted(_KEYS)}")
        if body["v"] != VERSION:
            raise Malformed(f"leaf: version {body['v']!r}, not {VERSION!r}")
        for name in ("table_id", "journal", "closed_wall"):
            if not isinstance(body[name], str):
                raise Malformed(f"leaf: {name} is a string")
        for name in ("first_seq", "last_seq", "records"):
            if type(body[name]) is not int or body[name] < 1:
                raise Malformed(f"leaf: {name} is a whole number from 1")
        if body["round_id"] is not None and type(body["round_id"]) is not int:
            raise Malformed("leaf: round_id is a whole number or null")
        for name in ("prev_hash", "head_hash"):
            if not isinstance(body[name], str) or not _HEX.fullmatch(body[name]):
                raise Malformed(f"leaf: {name} is 64 lowercase hex digits")
        leaf = cls(
            body["table_id"],
            body["journal"],
            body["round_id"],
            body["first_seq"],
            body["last_seq"],
            body["prev_hash"],
            body["head_hash"],
            body["closed_wall"],
        )
        if body["last_seq"] < body["first_seq"] or body["records"] != leaf.records:
            raise Malformed(f"leaf: records {body['records']} is not last_seq - first_seq + 1")
        if (leaf.first_seq == 1) != (leaf.prev_hash == ZERO_HASH):
            raise Malformed("leaf: prev_hash is 64 zeros for a journal's first record, and only then")
        if leaf.text() != data:
            raise Malformed("leaf: not written as canonical JSON (keys sorted, no spaces)")
        return leaf

"""The body of `POST /add-checkpoint`: `old <size>`, up to 63 base64 consistency-proof hashes, a blank
line, and the checkpoint note, every line ending in a newline."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from pit.tlog.checkpoint import decimal
from pit.tlog.errors import Malformed
from pit.tlog.keys import b64decode
from pit.tlog.merkle import HASH_SIZE

__all__ = ["AddCheckpoint"]

MAX_PROOF = 63
MAX_BODY = 1 << 20


@dataclass(frozen=True)
class AddCheckpoint:
    old_size: int
    proof: tuple[bytes, ...]
    checkpoint: bytes  # the signed note, as sent

    @classmethod
    def parse(cls, body: bytes) -> AddCheckpoint:
        if len(body) > MAX_BODY:
            raise Malformed(f"add-checkpoint: a body of {len(body)} bytes, more than {MAX_BODY}")
        head, blank, checkpoint = body.partition(b"\n\n")
        if not blank:
            raise Malformed("add-checkpoint: no blank line before the checkpoint")
        try:
            lines = head.decode("ascii").split("\n")
        except UnicodeDecodeError:
            raise Malformed("add-checkpoint: the old size and proof lines are ASCII") from None
        if not lines[0].startswith("old "):
            raise Malformed(f"add-checkpoint: the first line is 'old <size>', not {lines[0]!r}")
        old = decimal(lines[0][len("old ") :], "add-checkpoint old size")
        if len(lines) - 1 > MAX_PROOF:
            raise Malformed(f"add-checkpoint: {len(lines) - 1} proof lines, more than {MAX_PROOF}")
        proof = []
        for number, line in enumerate(lines[1:], start=2):
            hashed = b64decode(line, f"add-checkpoint line {number}")
            if len(hashed) != HASH_SIZE:
                raise Malformed(f"add-checkpoint line {number}: a hash is {HASH_SIZE} bytes, not {len(hashed)}")
            proof.append(hashed)
        return cls(old, tuple(proof), checkpoint)

    def render(self) -> bytes:
        """The body a log sends (for a client of any witness, and the tests)."""
        lines = [f"old {self.old_size}", *(base64.b64encode(h).decode() for h in self.proof)]
        return "".join(line + "\n" for line in lines).encode() + b"\n" + self.checkpoint

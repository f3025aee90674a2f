"""The offline proof of one entry (c2sp.org/tlog-proof@v1): an optional `extra` line, the entry's
index, its inclusion proof one base64 hash a line, a blank line, and the checkpoint verbatim."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from pit.tlog.checkpoint import decimal
from pit.tlog.errors import Malformed
from pit.tlog.keys import b64decode
from pit.tlog.merkle import HASH_SIZE

__all__ = ["TlogProof"]

HEADER = "c2sp.org/tlog-proof@v1"


@dataclass(frozen=True)
class TlogProof:
    index: int
    hashes: tuple[bytes, ...]  # from the leaf's sibling to the root's child (RFC 6962 §2.1.1)
    checkpoint: bytes  # the signed checkpoint note, with its cosignatures
    extra: bytes | None = None

    def render(self) -> bytes:
        lines = [HEADER]
        if self.extra is not None:
            lines.append("extra " + base64.b64encode(self.extra).decode())
        lines.append(f"index {self.index}")
        lines += [base64.b64encode(h).decode() for h in self.hashes]
        return ("\n".join(lines) + "\n\n").encode() + self.checkpoint

    @classmethod
    def parse(cls, data: bytes) -> TlogProof:
        head, blank, checkpoint = data.partition(b"\n\n")
        if not blank:
            raise Malformed("tlog-proof: no blank line before the checkpoint")
        try:
            lines = head.decode("ascii").split("\n")
        except UnicodeDecodeError:
            raise Malformed("tlog-proof: its lines before the checkpoint are ASCII") from None
        if lines[0] != HEADER:
            raise Malformed(f"tlog-proof: the first line is {HEADER!r}, not {lines[0]!r}")
        at, extra = 1, None
        if len(lines) > at and lines[at].startswith("extra "):
            extra, at = b64decode(lines[at][len("extra ") :], "tlog-proof extra"), at + 1
        if len(lines) <= at or not lines[at].startswith("index "):
            raise Malformed("tlog-proof: an 'index N' line after the header (and extra)")
        index = decimal(lines[at][len("index ") :], "tlog-proof index")
        hashes = []
        for number, line in enumerate(lines[at + 1 :], start=at + 2):
            hashed = b64decode(line, f"tlog-proof line {number}")
            if len(hashed) != HASH_SIZE:
                raise Malformed(f"tlog-proof line {number}: a hash is {HASH_SIZE} bytes, not {len(hashed)}")
            hashes.append(hashed)
        if not checkpoint:
            raise Malformed("tlog-proof: no checkpoint after the blank line")
        return cls(index, tuple(hashes), checkpoint, extra)

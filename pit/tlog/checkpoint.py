"""Checkpoints (c2sp.org/tlog-checkpoint): a note whose text is the origin, the tree size, the base64
root hash and optional extension lines."""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pit.tlog.errors import Malformed, Unverified
from pit.tlog.keys import SignerKey, b64decode
from pit.tlog.merkle import EMPTY_ROOT, HASH_SIZE
from pit.tlog.note import Note, NoteVerifier, OpenedNote, open_note, sign_text

__all__ = ["Checkpoint", "decimal", "open_checkpoint"]

_SIZE = re.compile(r"0|[1-9][0-9]*")


def decimal(text: str, what: str) -> int:
    """An ASCII decimal with no leading zeroes, as every tlog format writes a size or an index."""
    if not _SIZE.fullmatch(text) or len(text) > 20 or int(text) >= 1 << 63:
        raise Malformed(f"{what} {text!r}: an ASCII decimal below 2**63 with no leading zeroes")
    return int(text)


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    @classmethod
    def empty(cls, origin: str) -> Checkpoint:
        return cls(origin, 0, EMPTY_ROOT)

    @classmethod
    def parse(cls, text: str) -> Checkpoint:
        """A checkpoint from its note text (ending in a newline)."""
        if not text.endswith("\n"):
            raise Malformed("checkpoint: its text ends in a newline")
        lines = text[:-1].split("\n")
        if len(lines) < 3:
            raise Malformed(f"checkpoint: {len(lines)} lines, not origin, size and root")
        origin, size, root, *extensions = lines
        if not origin:
            raise Malformed("checkpoint: an empty origin line")
        if any(not line for line in extensions):
            raise Malformed("checkpoint: an empty extension line")
        return cls(origin, decimal(size, "checkpoint size"), _root(root), tuple(extensions))

    def text(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return "".join(line + "\n" for line in lines)

    def sign(self, key: SignerKey) -> bytes:
        """The signed note of this checkpoint with the log's key (type 0x01)."""
        if key.name != self.origin:
            raise Malformed(f"checkpoint: the log key's name {key.name!r} is not the origin {self.origin!r}")
        return Note(self.text(), (sign_text(self.text(), key),)).render()


def _root(text: str) -> bytes:
    root = b64decode(text, "checkpoint root hash")
    if len(root) != HASH_SIZE:
        raise Malformed(f"checkpoint root hash: {HASH_SIZE} bytes, not {len(root)}")
    return root


def open_checkpoint(data: bytes, logs: Sequence[NoteVerifier]) -> tuple[Checkpoint, OpenedNote]:
    """A checkpoint signed by one of the `logs` keys whose name is its origin."""
    opened = open_note(data, logs)
    checkpoint = Checkpoint.parse(opened.note.text)
    if not any(sig.name == checkpoint.origin for sig in opened.verified):
        raise Unverified(f"checkpoint: no signature of the log {checkpoint.origin!r} verifies")
    return checkpoint, opened

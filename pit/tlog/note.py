"""Signed notes (c2sp.org/signed-note), read and checked as golang.org/x/mod/sumdb/note does.

A note is its text (ending in a newline), a blank line, and signature lines
`— <key name> base64(4-byte key id || signature)`. Signatures from unknown keys are kept but not
trusted; one from a known key that fails rejects the whole note; a note with no verified signature
is rejected.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from pit.tlog.errors import Malformed, Unverified
from pit.tlog.keys import SignatureType, SignerKey, VerifierKey, b64decode, check_name

__all__ = ["Note", "NoteVerifier", "Signature"]

DASH = "\u2014"  # the em dash that opens a signature line
MAX_SIGNATURES = 100  # the spec asks for at least 16; Go's reader takes 100


@dataclass(frozen=True)
class Signature:
    name: str
    key_id: int
    signature: bytes  # what follows the key id: the algorithm's bytes

    @classmethod
    def parse_line(cls, line: str) -> Signature:
        """One signature line, without its newline."""
        if not line.startswith(DASH + " "):
            raise Malformed(f"signature line {line!r}: it starts with '{DASH} '")
        fields = line[2:].split(" ")
        if len(fields) != 2:
            raise Malformed(f"signature line {line!r}: it is '{DASH} NAME BASE64'")
        name, encoded = fields
        raw = b64decode(encoded, f"signature of {check_name(name)}")
        if len(raw) < 5:
            raise Malformed(f"signature of {name}: a key id and at least one byte, not {len(raw)} bytes")
        return cls(name, int.from_bytes(raw[:4], "big"), raw[4:])

    def line(self) -> str:
        return f"{DASH} {self.name} {base64.b64encode(self.key_id.to_bytes(4, 'big') + self.signature).decode()}\n"


class Verifier(Protocol):
    """A trusted key: its name and id, and the check of one signature over a note's text."""

    @property
    def name(self) -> str: ...

    @property
    def key_id(self) -> int: ...

    def verify_note(self, text: bytes, signature: bytes) -> bool: ...


@dataclass(frozen=True)
class KeyedVerifier:
    """A verifier over one vkey of the type its kind of signature takes (`kind`, said as `role`)."""

    kind: ClassVar[SignatureType] = SignatureType.ED25519
    role: ClassVar[str] = "a note key"
    key: VerifierKey

    def __post_init__(self) -> None:
        if self.key.kind is not self.kind:
            raise Malformed(f"vkey {self.key.name}: {self.role} is of type {self.kind:02x}, not {self.key.kind:02x}")

    @property
    def name(self) -> str:
        return self.key.name

    @property
    def key_id(self) -> int:
        return self.key.key_id


@dataclass(frozen=True)
class NoteVerifier(KeyedVerifier):
    """An Ed25519 (type 0x01) key checking a signature over the note's text itself."""

    def verify_note(self, text: bytes, signature: bytes) -> bool:
        return self.key.verify(text, signature)


@dataclass(frozen=True)
class Note:
    text: str  # ending in a newline, without the blank line that follows it
    signatures: tuple[Signature, ...]

    @classmethod
    def parse(cls, data: bytes) -> Note:
        try:
            message = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Malformed(f"note: byte {error.start} is not UTF-8") from None
        for at, char in enumerate(message):
            if char < " " and char != "\n":
                raise Malformed(f"note: character {at} is a control character ({ord(char):#04x})")
        split = message.rfind("\n\n")
        if split < 0:
            raise Malformed("note: no blank line between the text and the signatures")
        text, lines = message[: split + 1], message[split + 2 :]
        if not lines.endswith("\n"):
            raise Malformed("note: the signature lines end with a newline")
        signatures = tuple(Signature.parse_line(line) for line in lines[:-1].split("\n"))
        if len(signatures) > MAX_SIGNATURES:
            raise Malformed(f"note: {len(signatures)} signatures, more than {MAX_SIGNATURES}")
        return cls(text, signatures)

    def render(self) -> bytes:
        return (self.text + "\n" + "".join(s.line() for s in self.signatures)).encode()


@dataclass(frozen=True)
class OpenedNote:
    note: Note
    verified: tuple[Signature, ...]  # each once, in the note's order
    unverified: tuple[Signature, ...]  # from keys not trusted here


def open_note(data: bytes, verifiers: Sequence[Verifier]) -> OpenedNote:
    """The note and its signatures sorted into verified and unknown; raises `Malformed` or
    `Unverified` (a known key's signature that fails, two trusted keys with one name and id, or no
    verified signature)."""
    note = Note.parse(data)
    text = note.text.encode()
    verified: list[Signature] = []
    unverified: list[Signature] = []
    for sig in note.signatures:
        known = [v for v in verifiers if v.name == sig.name and v.key_id == sig.key_id]
        if len(known) > 1:
            raise Unverified(f"ambiguous key {sig.name}+{sig.key_id:08x}")
        if not known:
            if sig not in unverified:
                unverified.append(sig)
        elif not known[0].verify_note(text, sig.signature):
            raise Unverified(f"invalid signature for key {sig.name}+{sig.key_id:08x}")
        elif sig not in verified:
            verified.append(sig)
    if not verified:
        raise Unverified("note has no verifiable signatures")
    return OpenedNote(note, tuple(verified), tuple(unverified))


def check_text(text: str) -> str:
    """A note's text as signing takes it: valid, ending in a newline, no control characters."""
    if not text.endswith("\n") or any(c < " " and c != "\n" for c in text):
        raise Malformed("note text: it ends in a newline and has no control characters")
    return text


def sign_text(text: str, key: SignerKey) -> Signature:
    """The signature line of an Ed25519 (type 0x01) key over a note's text."""
    if key.kind is not SignatureType.ED25519:
        raise Malformed(f"key {key.name}: a note is signed by a key of type 01, not {key.kind:02x}")
    return Signature(key.name, key.verifier().key_id, key.sign(check_text(text).encode()))

"""Note keys (c2sp.org/signed-note): Ed25519 key ids, verifier keys and Go's private key text.

    vkey:  <name>+<hex key id>+<base64(type || public key)>
    skey:  PRIVATE+KEY+<name>+<hex key id>+<base64(type || 32-byte seed)>   (golang.org/x/mod/sumdb/note)

Both types used here are Ed25519: 0x01 signs a note's text (the log's checkpoints), 0x04 a
cosignature/v1 message (a witness's, c2sp.org/tlog-cosignature).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from dataclasses import dataclass
from enum import IntEnum

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from pit.tlog.errors import Malformed

__all__ = ["SignatureType", "SignerKey", "VerifierKey", "b64decode"]

ED25519_SIZE = 32
_HEX_ID = re.compile(r"[0-9a-f]{8}")
_SKEY_PREFIX = "PRIVATE+KEY+"


class SignatureType(IntEnum):
    ED25519 = 0x01  # a note signature over the text (signed-note)
    COSIGNATURE_V1 = 0x04  # a timestamped Ed25519 cosignature (tlog-cosignature)


def check_name(name: str) -> str:
    """A key name: non-empty, no Unicode space, no '+' (signed-note §Format)."""
    if not name or "+" in name or any(c.isspace() for c in name):
        raise Malformed(f"key name {name!r}: a key name is non-empty, with no space and no '+'")
    return name


def key_id(name: str, kind: SignatureType, public: bytes) -> int:
    """SHA-256(name || 0x0A || type || public key)[:4], big-endian (signed-note §Signatures)."""
    return int.from_bytes(hashlib.sha256(name.encode() + b"\n" + bytes([kind]) + public).digest()[:4], "big")


def b64decode(text: str, what: str) -> bytes:
    """Standard base64 (RFC 4648 §4), in its one canonical spelling."""
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise Malformed(f"{what}: {text!r} is not base64") from None
    if base64.b64encode(data).decode() != text:
        raise Malformed(f"{what}: {text!r} is not base64 in its canonical form")
    return data


def _typed_key(encoded: str, what: str) -> tuple[SignatureType, bytes]:
    raw = b64decode(encoded, what)
    if not raw or raw[0] not in set(SignatureType):
        raise Malformed(
            f"{what}: signature type {raw[:1].hex() or 'missing'} is not Ed25519 (01) or cosignature/v1 (04)"
        )
    if len(raw) != 1 + ED25519_SIZE:
        raise Malformed(f"{what}: an Ed25519 key is {ED25519_SIZE} bytes, not {len(raw) - 1}")
    return SignatureType(raw[0]), raw[1:]


def _key_hash(text: str, what: str) -> int:
    if not _HEX_ID.fullmatch(text):
        raise Malformed(f"{what}: key id {text!r} is not 8 lowercase hex digits")
    return int(text, 16)


@dataclass(frozen=True)
class VerifierKey:
    name: str
    kind: SignatureType
    public: bytes

    @property
    def key_id(self) -> int:
        return key_id(self.name, self.kind, self.public)

    @classmethod
    def parse(cls, vkey: str) -> VerifierKey:
        parts = vkey.split("+", 2)
        if len(parts) != 3:
            raise Malformed(f"vkey {vkey!r}: a vkey is NAME+ID+KEY")
        name, hex_id, encoded = parts
        kind, public = _typed_key(encoded, f"vkey {check_name(name)}")
        key = cls(name, kind, public)
        if _key_hash(hex_id, f"vkey {name}") != key.key_id:
            raise Malformed(f"vkey {name}: key id {hex_id} is not the key's ({key.key_id:08x})")
        return key

    def __str__(self) -> str:
        return f"{self.name}+{self.key_id:08x}+{base64.b64encode(bytes([self.kind]) + self.public).decode()}"

    def verify(self, message: bytes, signature: bytes) -> bool:
        """The raw Ed25519 check (RFC 8032) of `signature` over `message`."""
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True)
class SignerKey:
    name: str
    kind: SignatureType
    seed: bytes

    @classmethod
    def generate(cls, name: str, kind: SignatureType) -> SignerKey:
        seed = Ed25519PrivateKey.generate().private_bytes_raw()
        return cls(check_name(name), kind, seed)

    @classmethod
    def parse(cls, skey: str) -> SignerKey:
        if not skey.startswith(_SKEY_PREFIX):
            raise Malformed(f"private key: it starts with {_SKEY_PREFIX!r}")
        parts = skey[len(_SKEY_PREFIX) :].split("+", 2)
        if len(parts) != 3:
            raise Malformed("private key: it is PRIVATE+KEY+NAME+ID+KEY")
        name, hex_id, encoded = parts
        kind, seed = _typed_key(encoded, f"private key {check_name(name)}")
        key = cls(name, kind, seed)
        if _key_hash(hex_id, f"private key {name}") != key.verifier().key_id:
            raise Malformed(f"private key {name}: key id {hex_id} is not the key's")
        return key

    def __str__(self) -> str:
        encoded = base64.b64encode(bytes([self.kind]) + self.seed).decode()
        return f"{_SKEY_PREFIX}{self.name}+{self.verifier().key_id:08x}+{encoded}"

    def verifier(self) -> VerifierKey:
        private = Ed25519PrivateKey.from_private_bytes(self.seed)
        public = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return VerifierKey(self.name, self.kind, public)

    def sign(self, message: bytes) -> bytes:
        """The raw Ed25519 signature (RFC 8032, deterministic) of `message`."""
        return Ed25519PrivateKey.from_private_bytes(self.seed).sign(message)

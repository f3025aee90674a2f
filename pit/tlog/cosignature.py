"""Ed25519 cosignatures, v1 (c2sp.org/tlog-cosignature): a witness's type 0x04 key signs

    cosignature/v1
    time <POSIX seconds>
    <the checkpoint's note text>

and its signature line carries the 8-byte big-endian timestamp followed by the 64-byte signature.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pit.tlog.errors import Malformed
from pit.tlog.keys import SignatureType, SignerKey
from pit.tlog.note import KeyedVerifier, Signature

__all__ = ["CosignatureVerifier", "cosign"]

ED25519_SIGNATURE_SIZE = 64
MAX_TIME = (1 << 63) - 1


def signed_message(body: str, timestamp: int) -> bytes:
    """What a v1 cosignature signs: the header line, the time line and the checkpoint's whole text."""
    return f"cosignature/v1\ntime {timestamp}\n{body}".encode()


def timestamp_of(signature: Signature) -> int:
    """The time a cosignature's line says; raises `Malformed` for one not 8 + 64 bytes long."""
    if len(signature.signature) != 8 + ED25519_SIGNATURE_SIZE:
        raise Malformed(
            f"cosignature of {signature.name}: 8 + {ED25519_SIGNATURE_SIZE} bytes, not {len(signature.signature)}"
        )
    timestamp = int.from_bytes(signature.signature[:8], "big")
    if timestamp > MAX_TIME:
        raise Malformed(f"cosignature of {signature.name}: time {timestamp} is past 2**63 - 1")
    return timestamp


def cosign(body: str, key: SignerKey, timestamp: int) -> Signature:
    """A witness's cosignature line on a checkpoint's text, at `timestamp` (never 0, tlog-witness)."""
    if key.kind is not SignatureType.COSIGNATURE_V1:
        raise Malformed(f"key {key.name}: a cosignature is made by a key of type 04, not {key.kind:02x}")
    if not 0 < timestamp <= MAX_TIME:
        raise Malformed(f"cosignature time {timestamp}: from 1 to 2**63 - 1")
    signed = key.sign(signed_message(body, timestamp))
    return Signature(key.name, key.verifier().key_id, timestamp.to_bytes(8, "big") + signed)


@dataclass(frozen=True)
class CosignatureVerifier(KeyedVerifier):
    """A witness's type 0x04 key, as a note verifier over the checkpoint it cosigned."""

    kind: ClassVar[SignatureType] = SignatureType.COSIGNATURE_V1
    role: ClassVar[str] = "a cosigner key"

    def verify_note(self, text: bytes, signature: bytes) -> bool:
        if len(signature) != 8 + ED25519_SIGNATURE_SIZE:
            return False
        timestamp = int.from_bytes(signature[:8], "big")
        if timestamp > MAX_TIME:
            return False
        return self.key.verify(signed_message(text.decode(), timestamp), signature[8:])

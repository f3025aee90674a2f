"""What the log's formats refuse, each naming the field, line or step that was wrong."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

from dealer_assist.errors import Failure

__all__ = ["Inconsistent", "Malformed", "TlogCode", "Unverified"]


class TlogCode(StrEnum):
    """The log commands' failures."""

    BAD_KEY = "bad_key"  # a key file or vkey that is not a note key of the type wanted
    OUT_OF_RANGE = "out_of_range"  # a leaf, subtree or proof asked of a tree that has no such thing
    MALFORMED = "malformed"  # text or bytes not in the format its specification gives
    UNVERIFIED = "unverified"  # no trusted signature verifies, or a trusted one fails
    INCONSISTENT = "inconsistent"  # a Merkle proof that does not join what it should
    NOT_IN_LOG = "not_in_log"  # a tile, leaf or checkpoint the log does not hold
    NOT_PUBLISHED = "not_published"  # what the log holds but no published checkpoint covers yet
    WITNESS_REFUSED = "witness_refused"  # a witness's answer that is neither a cosignature nor its size
    UNUSABLE = "unusable"  # input that is not a round-proof-v1 file at all
    PROOF_FAILED = "proof_failed"  # a step of a round's proof that does not hold
    AUDIT_BREAK = "audit_break"  # what an audit found wrong: a fork, a gap, a bad signature, a malformed leaf


class TlogError(Failure):
    """A note, checkpoint, proof, policy or tile path that is malformed or does not verify."""

    code_for: ClassVar[TlogCode] = TlogCode.OUT_OF_RANGE

    def __init__(self, message: str) -> None:
        super().__init__(self.code_for, message, 1)


class Malformed(TlogError):
    """Text or bytes not in the format its specification gives."""

    code_for = TlogCode.MALFORMED


class Unverified(TlogError):
    """No signature from a trusted key verifies, or one from a trusted key fails (signed-note)."""

    code_for = TlogCode.UNVERIFIED


class Inconsistent(TlogError):
    """A Merkle proof that does not join what it should (RFC 9162 §2.1.3.2, §2.1.4.2)."""

    code_for = TlogCode.INCONSISTENT


class KeyFailure(Failure):
    def __init__(self, message: str) -> None:
        super().__init__(TlogCode.BAD_KEY, message, 1)

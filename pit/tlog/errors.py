"""What the log's formats refuse, each naming the field, line or step that was wrong."""
from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import Failure


class TlogError(ValueError):
    """A note, checkpoint, proof, policy or tile path that is malformed or does not verify."""


class Malformed(TlogError):
    """Text or bytes not in the format its specification gives."""


class Unverified(TlogError):
    """No signature from a trusted key verifies, or one from a trusted key fails (signed-note)."""


class Inconsistent(TlogError):
    """A Merkle proof that does not join what it should (RFC 9162 §2.1.3.2, §2.1.4.2)."""


class TlogCode(StrEnum):
    """The log commands' failures."""

    BAD_KEY = "bad_key"  # a key file or vkey that is not a note key of the type wanted


class KeyFailure(Failure):
    def __init__(self, message: str) -> None:
        super().__init__(TlogCode.BAD_KEY, message, 1)

"""Pit users' passwords and API tokens: a salted slow hash for each password, only a hash of a token.

Wrong tries in a row lock the name as the table's PIN is locked (`dealer_assist.table.lockout`); tries
while it is locked do not count toward the next lock. The rule is a pure function of the name's tries,
which the store keeps forever.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

from dealer_assist.table.lockout import LOCK_SECONDS, MAX_TRIES
from pit.errors import BadValue

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
MIN_LENGTH = 8


def hash_password(password: str, salt: bytes | None = None) -> tuple[bytes, bytes]:
    """(salt, hash) of a password."""
    salt = secrets.token_bytes(16) if salt is None else salt
    return salt, hashlib.scrypt(password.encode(), salt=salt, dklen=32, **SCRYPT)


def password_matches(password: str, salt: bytes, digest: bytes) -> bool:
    return hmac.compare_digest(hash_password(password, salt)[1], digest)


def check_new_password(password: str) -> str:
    if len(password) < MIN_LENGTH:
        raise BadValue(f"password: use at least {MIN_LENGTH} characters")
    return password


def locked_until(tries: Iterable[tuple[float, str]]) -> float | None:
    """When the name's last lock ends (it may be over), from its tries in order ((epoch seconds,
    "ok"/"wrong"/"locked")); None when no `MAX_TRIES` wrong tries since its last good one locked it."""
    wrong, until = 0, None
    for at, outcome in tries:
        if until is not None and at < until:
            continue  # a try while locked: refused without counting
        if outcome == "ok":
            wrong, until = 0, None
        elif outcome == "wrong":
            wrong += 1
            if wrong == MAX_TRIES:
                wrong, until = 0, at + LOCK_SECONDS
    return until


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()

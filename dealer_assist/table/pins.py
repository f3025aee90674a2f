"""The floor supervisor's PIN: a salted slow hash, and a lockout after five wrong tries.

Pure: the guard is given the time and the recorded history, and says what to record next, so
a lockout survives a restart of the table.
"""
from __future__ import annotations

import hashlib
import hmac
import math
import os
from dataclasses import dataclass
from typing import Any

from dealer_assist.rules.refusals import Refusal, RuleError

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
MAX_TRIES = 5
LOCK_SECONDS = 60.0
MIN_DIGITS, MAX_DIGITS = 4, 12


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **SCRYPT)


def check_new_pin(pin: str) -> None:
    """Raises, saying what is wrong, unless `pin` can be a supervisor PIN; a screen asks before
    the PIN is entered the second time."""
    if pin and not pin.isdigit():
        raise RuleError(Refusal.BAD_PIN, f"a PIN is digits only ({MIN_DIGITS} to {MAX_DIGITS})")
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        raise RuleError(Refusal.BAD_PIN, f"a PIN is {MIN_DIGITS} to {MAX_DIGITS} digits, this one has {len(pin)}")


def new_pin(pin: str) -> dict[str, Any]:
    """The record of a new PIN: salt and hash, never the PIN itself."""
    check_new_pin(pin)
    salt = os.urandom(16)
    return {"event": "pin_set", "salt": salt.hex(), "hash": _hash(pin, salt).hex(), "kdf": "scrypt", **SCRYPT}


@dataclass
class PinGuard:
    """Knows the current PIN hash, the wrong tries in a row and any lock in force."""

    salt: bytes | None = None
    digest: bytes | None = None
    wrong: int = 0
    locked_until: float = 0.0

    def replay(self, event: dict[str, Any]) -> None:
        """Bring the guard up to date with one recorded security event."""
        kind = event.get("event")
        if kind == "pin_set":
            self.salt, self.digest = bytes.fromhex(event["salt"]), bytes.fromhex(event["hash"])
            self.wrong, self.locked_until = 0, 0.0
        elif kind == "pin_wrong":
            self.wrong += 1
        elif kind == "pin_locked":
            self.locked_until = float(event["until"])
        elif kind == "pin_ok":
            self.wrong = 0

    def check(self, pin: str, now: float) -> list[dict[str, Any]]:
        """The events to record for this try; raises after they are known if the PIN is refused."""
        if self.digest is None or self.salt is None:
            raise RuleError(Refusal.NO_PIN, "no supervisor PIN is set for this table")
        if now < self.locked_until:
            raise RuleError(Refusal.PIN_LOCKED, f"the supervisor PIN is locked for {math.ceil(self.locked_until - now)} s more after {MAX_TRIES} wrong tries")
        if hmac.compare_digest(_hash(pin, self.salt), self.digest):
            return [{"event": "pin_ok"}]
        events: list[dict[str, Any]] = [{"event": "pin_wrong", "try": (self.wrong % MAX_TRIES) + 1}]
        if (self.wrong + 1) % MAX_TRIES == 0:
            events.append({"event": "pin_locked", "until": now + LOCK_SECONDS})
        return events

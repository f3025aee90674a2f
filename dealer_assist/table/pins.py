"""The floor supervisor's PIN: a salted slow hash, and a lockout after five wrong tries.

Pure: the guard is given the time and the recorded history, and says what to record next, so
a lockout survives a restart of the table. Nobody gets in by being first: a table's first PIN is
set where the table is set up (`dealer-assist pin set`, or its hash in the table file), never on
its screen; a tool that needs one (the bench, an emulated table) gives the journal a PIN it prints,
and such a journal is never dealt live until a supervisor has set a PIN of their own.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.lockout import LOCK_SECONDS, MAX_TRIES

__all__ = ["MAX_DIGITS", "MIN_DIGITS", "PinSetter", "bench_pin", "check_new_pin", "pin_hash_text"]

SCRYPT = {"n": 2**14, "r": 8, "p": 1}
MIN_DIGITS, MAX_DIGITS = 4, 12


class PinSetter(StrEnum):
    """Who set the table's PIN, journaled with it."""

    SETUP = "setup"  # `dealer-assist pin set`, where the table is set up
    TABLE_FILE = "table file"  # the hash in the table file's `supervisor_pin`
    SUPERVISOR = "supervisor"  # changed on the supervisor's screens, behind the current PIN
    BENCH = "bench"  # a tool's PIN for an emulated table, printed: the table never deals live with it


HASH_PREFIX = "scrypt"


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **SCRYPT)


def guessable(pin: str) -> bool:
    """A PIN the first guesses try: one digit throughout (0000) or a straight run up or down, the
    count wrapping past 9 (1234, 7890, 4321)."""
    steps = {(int(b) - int(a)) % 10 for a, b in zip(pin, pin[1:], strict=False)}
    return len(steps) == 1 and steps <= {0, 1, 9}


def check_new_pin(pin: str) -> None:
    """Raises, saying what is wrong, unless `pin` can be a supervisor PIN: the one rule of every way
    a PIN is set (`pin set` from a terminal or a pipe, the table file's hash, the screen's change);
    a screen asks before the PIN is entered the second time."""
    if pin and not pin.isdigit():
        raise RuleError(Refusal.BAD_PIN, f"a PIN is digits only ({MIN_DIGITS} to {MAX_DIGITS})")
    if not MIN_DIGITS <= len(pin) <= MAX_DIGITS:
        raise RuleError(Refusal.BAD_PIN, f"a PIN is {MIN_DIGITS} to {MAX_DIGITS} digits, this one has {len(pin)}")
    if guessable(pin):
        raise RuleError(
            Refusal.BAD_PIN,
            "a PIN of one digit repeated or of digits in a row (0000, 1234, 4321) "
            "is the first one guessed: choose another",
        )


def lock_refusal() -> RuleError:
    """The refusal while the PIN is locked: it says why, not for how long, which the screen counts
    down on a line of its own (`PinGuard.locked_until`)."""
    return RuleError(Refusal.PIN_LOCKED, f"the supervisor PIN is locked after {MAX_TRIES} wrong tries in a row")


def new_pin(pin: str, by: PinSetter) -> dict[str, Any]:
    """The record of a new PIN: salt and hash, never the PIN itself, and who set it."""
    check_new_pin(pin)
    salt = os.urandom(16)
    return _record(salt, _hash(pin, salt), by)


def _record(salt: bytes, digest: bytes, by: PinSetter) -> dict[str, Any]:
    return {"event": "pin_set", "salt": salt.hex(), "hash": digest.hex(), "kdf": "scrypt", **SCRYPT, "by": by.value}


def pin_hash_text(pin: str) -> str:
    """A PIN as the table file's `supervisor_pin` keeps it: `scrypt$SALT$HASH`, never the PIN."""
    record = new_pin(pin, PinSetter.TABLE_FILE)
    return f"{HASH_PREFIX}${record['salt']}${record['hash']}"


def pin_from_hash_text(text: str) -> dict[str, Any]:
    """The record of the table file's `supervisor_pin`; raises naming what is wrong with it."""
    kind, _, rest = text.partition("$")
    salt, _, digest = rest.partition("$")
    try:
        raw_salt, raw_digest = bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        raw_salt = raw_digest = b""
    if kind != HASH_PREFIX or len(raw_salt) != 16 or len(raw_digest) != 32:
        raise RuleError(
            Refusal.BAD_PIN, "supervisor_pin: not a PIN hash from `dealer-assist pin hash` (scrypt$SALT$HASH)"
        )
    return _record(raw_salt, raw_digest, PinSetter.TABLE_FILE)


def bench_pin(journal_header: bytes) -> str:
    """The PIN a tool gives a journal it deals (the bench, an emulated table): worked out from the
    journal's own first record, so every start of the tool knows it; printed, and never dealt live.
    A guessable one is worked out again, so it is a PIN the table takes."""
    seed = b"dealer-assist bench pin" + journal_header
    while guessable(pin := f"{int.from_bytes(hashlib.sha256(seed).digest()[:8], 'big') % 10**6:06d}"):
        seed += b"+"
    return pin


@dataclass
class PinGuard:
    """Knows the current PIN hash, the wrong tries in a row and any lock in force."""

    salt: bytes | None = None
    digest: bytes | None = None
    set_by: PinSetter | None = None
    wrong: int = 0
    locked_until: float = 0.0

    def replay(self, event: dict[str, Any]) -> None:
        """Bring the guard up to date with one recorded security event."""
        kind = event.get("event")
        if kind == "pin_set":
            self.salt, self.digest = bytes.fromhex(event["salt"]), bytes.fromhex(event["hash"])
            self.set_by = PinSetter(event.get("by", PinSetter.SUPERVISOR))  # before `by` was kept: on the screens
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
            raise lock_refusal()
        if hmac.compare_digest(_hash(pin, self.salt), self.digest):
            return [{"event": "pin_ok"}]
        events: list[dict[str, Any]] = [{"event": "pin_wrong", "try": (self.wrong % MAX_TRIES) + 1}]
        if (self.wrong + 1) % MAX_TRIES == 0:
            events.append({"event": "pin_locked", "until": now + LOCK_SECONDS})
        return events

"""Fault injection for the emulators: what can go wrong on a serial line, made on purpose.

Every injected fault is counted in `SimStats`, so a test can check that the host saw exactly what
was injected: each bad frame rejected once for its reason, each duplicate dropped once, each gap
named.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from devices.wire.framing import STX, encode_frame, lrc


class FaultKind(StrEnum):
    NOISE = "noise"  # junk bytes between frames
    SPLIT = "split"  # a good frame written a few bytes at a time
    LRC = "lrc"
    NONPRINTABLE = "nonprintable"
    TOO_LONG = "too_long"
    UNKNOWN_TYPE = "unknown_type"
    MALFORMED = "malformed"
    TRUNCATED = "truncated"  # an unfinished frame cut short by the next STX
    DUPLICATE = "duplicate"  # a ✓ frame written twice with its SEQ
    WITHHELD_ACK = "withheld_ack"  # the host's ACK ignored once, so the frame is repeated
    REPEAT_CARD = "repeat_card"  # a card sent again under a new SEQ (caught by its number)
    GAP = "gap"  # a card whose frame never comes (MISSED_CARD at the host)
    NOREAD = "noread"  # a card that could not be read / a peek that could not read
    LID = "lid"  # the lid opened and closed
    JAM = "jam"  # FAULT JAM
    DISCONNECT = "disconnect"  # the line dropped between frames
    SILENCE = "silence"  # nothing sent for longer than the host's 3000 ms limit


BAD_FRAMES = (
    FaultKind.LRC,
    FaultKind.NONPRINTABLE,
    FaultKind.TOO_LONG,
    FaultKind.UNKNOWN_TYPE,
    FaultKind.MALFORMED,
    FaultKind.TRUNCATED,
)
# Faults of the line, drawn per frame written: how many frames there are depends on the link's timing
# (heartbeats, repeats), so they draw from a generator of their own and leave the device's draws (each
# card's faults) the same for a seed however the line fared.
LINE_FAULTS = frozenset({FaultKind.NOISE, FaultKind.SPLIT, *BAD_FRAMES, FaultKind.DUPLICATE, FaultKind.WITHHELD_ACK})
RATED = tuple(kind for kind in FaultKind if kind not in (FaultKind.DISCONNECT, FaultKind.SILENCE))
SILENCE_LENGTH = 3.5  # seconds: past the 3000 ms limit, so the host must notice


@dataclass(slots=True)
class SimStats:
    """What an emulator sent and injected, in the terms of the host's stats line."""

    frames: int = 0  # good frames written to an attached host, repeats and duplicates included
    bad: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    missed: list[int] = field(default_factory=list)
    noreads: list[int] = field(default_factory=list)
    disconnects: int = 0
    silences: int = 0

    def to_json(self) -> dict[str, object]:
        return {
            "frames": self.frames,
            "bad": dict(sorted(self.bad.items())),
            "rejected": sum(self.bad.values()),
            "duplicates": self.duplicates,
            "missed": self.missed,
            "noreads": self.noreads,
            "disconnects": self.disconnects,
            "silences": self.silences,
        }


def noise(rng: random.Random) -> bytes:
    """1-16 bytes of anything but STX, which would open a frame."""
    return bytes(rng.choice([b for b in range(256) if b != STX]) for _ in range(rng.randint(1, 16)))


SHOE_MALFORMED = ("CARD 7 1X", "CARD", "CARD 0 AS", "LID AJAR", "HB x", "SHOE S1", "CUT 3 4")


def bad_frame(kind: FaultKind, seq: int, rng: random.Random, malformed: Sequence[str] = SHOE_MALFORMED) -> bytes:
    """A frame the host must reject for exactly the reason `kind` names; `malformed` are bodies after
    the SEQ that the receiving host knows by TYPE and must call malformed."""
    head = f"{seq:04X}"
    if kind is FaultKind.LRC:
        good = encode_frame(f"{head} HB 0")
        return good[:-4] + b"%02X" % (lrc(good[1:-5]) ^ rng.randint(1, 255)) + good[-2:]
    if kind is FaultKind.NONPRINTABLE:
        return encode_frame(f"{head} HB ".encode() + bytes([rng.choice([0x00, 0x07, 0x0A, 0x7F, 0x80, 0xFF])]))
    if kind is FaultKind.TOO_LONG:
        return encode_frame(f"{head} FAULT LONG " + "X" * rng.randint(240, 400))
    if kind is FaultKind.UNKNOWN_TYPE:
        return encode_frame(f"{head} {rng.choice(['BOGUS', 'CARDS', 'hb', 'PING'])} 1")
    if kind is FaultKind.MALFORMED:
        return encode_frame(f"{head} {rng.choice(malformed)}")
    if kind is FaultKind.TRUNCATED:
        return encode_frame(f"{head} CARD 9 AS")[: rng.randint(1, 12)]
    raise ValueError(f"{kind} is not a bad-frame fault")


def parse_rates(items: list[str]) -> dict[FaultKind, float]:
    """`NAME=RATE` pairs from the command line; the error names the pair that is wrong."""
    rates: dict[FaultKind, float] = {}
    for item in items:
        name, _, value = item.partition("=")
        try:
            kind = FaultKind(name)
            rate = float(value)
            if kind not in RATED:
                raise ValueError
        except ValueError:
            raise ValueError(f"fault {item!r} is not NAME=RATE with NAME one of {', '.join(RATED)}") from None
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"fault {item!r}: the rate must be between 0 and 1")
        rates[kind] = rate
    return rates

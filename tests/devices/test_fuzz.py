"""DEVICES.md §1 receiving rules under fuzzing: 100,000+ random and mutated frames per decoder.

Every STX opens exactly one frame, and every frame ends in exactly one outcome, so the count of
STX bytes fed must equal accepted + rejected: no frame is lost, none half-used, nothing raises.
"""

from __future__ import annotations

import dataclasses
import random
import string
from collections.abc import Callable

import pytest

from dealer_assist.rules.cards import RANKS, SUITS
from dealer_assist.table.spots import layout
from devices.wire.codec import encode
from devices.wire.decoding import Decoder
from devices.wire.framing import STX, Rejection, RejectReason, encode_frame
from devices.wire.messages import (
    HOST_TO_PEEK,
    HOST_TO_SHOE,
    HOST_TO_WAGERS,
    PEEK_TO_HOST,
    SHOE_TO_HOST,
    WAGERS_TO_HOST,
    Message,
    Vocabulary,
)

pytestmark = pytest.mark.slow  # a fuzz run: 100,000 frames a decoder

FRAMES_PER_DECODER = 100_000
WORD = string.ascii_letters + string.digits + "-._"


def _token(rng: random.Random) -> str:
    return "".join(rng.choices(WORD, k=rng.randint(1, 10)))


SPOT_NAMES = [str(spot) for spot in layout(12)]


GENERATORS: dict[str, Callable[[random.Random], object]] = {
    "seq": lambda rng: rng.randrange(0x10000),
    "count": lambda rng: rng.randrange(1000),
    "positive number": lambda rng: rng.randint(1, 999),
    "card": lambda rng: f"{rng.choice(RANKS)}{rng.choice(SUITS)}",
    "token": _token,
    "boot id": lambda rng: f"{rng.getrandbits(32):08X}",
    "up-card rank": lambda rng: rng.choice("ATJQK"),
    "text": lambda rng: " ".join(_token(rng) for _ in range(rng.randint(0, 4))),
    "spot": lambda rng: rng.choice(SPOT_NAMES),
    "spot or -": lambda rng: rng.choice([*SPOT_NAMES, "-"]),
    "spots": lambda rng: " ".join(rng.sample(SPOT_NAMES, rng.randint(1, 20))),
    "alien": lambda rng: rng.choice(["", f"ALIEN {rng.randint(1, 99)}"]),
}


def valid_body(cls: type[Message], rng: random.Random) -> str:
    """A body that must decode, written as text field by field rather than by the codec under test."""
    parts = [f"{rng.randrange(0x10000):04X}", cls.TYPE]
    for field in dataclasses.fields(cls):
        kind = field.metadata.get("wire")
        if kind is None:
            continue
        text = rng.choice(kind.choices) if kind.choices else str(GENERATORS[kind.name](rng))
        if kind.name == "seq":
            text = f"{int(text):04X}"
        if text or not kind.rest:
            parts.append(text)
    return " ".join(parts)


def mutate(frame: bytes, rng: random.Random) -> bytes:
    """One to three edits: a byte changed, added or dropped, a cut, or a piece that breaks framing."""
    data = bytearray(frame)
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(data) + 1)
        edit = rng.randrange(5)
        if edit == 0 and at < len(data):
            data[at] = rng.randrange(256)
        elif edit == 1:
            data.insert(at, rng.randrange(256))
        elif edit == 2 and at < len(data):
            del data[at]
        elif edit == 3:
            del data[at:]
        else:
            data[at:at] = rng.choice([b" ", b"  ", b"X" * 260, b"\x02", b"\x03", b"\r\n"])
    return bytes(data)


def random_frame(rng: random.Random) -> bytes:
    body = rng.randbytes(rng.randint(0, 40))
    return encode_frame(body) if rng.random() < 0.5 else b"\x02" + body


@pytest.mark.parametrize(
    "vocabulary",
    [SHOE_TO_HOST, HOST_TO_SHOE, PEEK_TO_HOST, HOST_TO_PEEK, WAGERS_TO_HOST, HOST_TO_WAGERS],
    ids=["shoe-to-host", "host-to-shoe", "peek-to-host", "host-to-peek", "wagers-to-host", "host-to-wagers"],
)
def test_icd_1_fuzzed_frames_are_each_accepted_or_rejected_and_counted(vocabulary: Vocabulary) -> None:
    rng = random.Random(20261129)
    decoder = Decoder(vocabulary)
    classes = list(vocabulary.values())
    stx_fed = accepted = 0
    outcomes: list[Message | Rejection] = []
    for _ in range(FRAMES_PER_DECODER):
        roll = rng.random()
        if roll < 0.3:
            body = valid_body(rng.choice(classes), rng)
            frame = encode_frame(body)
            got = list(decoder.feed(frame))
            assert got and isinstance(got[-1], Message) and encode(got[-1]) == body
            accepted += 1
        else:
            body_bytes = valid_body(rng.choice(classes), rng).encode()
            if roll < 0.5:
                frame = random_frame(rng)
            elif roll < 0.75:
                frame = mutate(encode_frame(body_bytes), rng)  # mostly caught by the LRC
            else:
                frame = encode_frame(mutate(body_bytes, rng))  # a sound LRC: the codec must catch it
            got = list(decoder.feed(frame))
        stx_fed += frame.count(STX)
        outcomes.extend(got)
    closing = decoder.reset()
    outcomes.extend([closing] if closing else [])
    rejections = [item for item in outcomes if isinstance(item, Rejection)]
    assert len(outcomes) == stx_fed == decoder.accepted + sum(decoder.rejected.values())
    assert decoder.accepted >= accepted and len(rejections) == sum(decoder.rejected.values())
    assert set(decoder.rejected) == set(RejectReason)
    assert all(item.detail for item in rejections)

"""Bytes to frames for the serial link (DEVICES.md §1), with no I/O so every edge case is testable.

A frame is `STX body ETX LRC CR LF`; the LRC is two uppercase hex digits, the XOR of the body bytes.
The framer only checks the envelope: it knows nothing of TYPEs, which the codec checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum, StrEnum, auto

__all__ = ["MAX_BODY", "RejectReason", "Rejection", "STX", "encode_frame", "lrc"]

STX = 0x02
ETX = 0x03
CRLF = b"\r\n"
MAX_BODY = 250
HEX_DIGITS = b"0123456789ABCDEF"


class RejectReason(StrEnum):
    """Why a frame was refused; the names are the ones `devices monitor` prints (§5)."""

    LRC = "lrc"
    NONPRINTABLE = "nonprintable"
    TOO_LONG = "too_long"
    UNKNOWN_TYPE = "unknown_type"
    TRUNCATED = "truncated"
    MALFORMED = "malformed"


@dataclass(frozen=True, slots=True)
class Frame:
    """A frame whose envelope is sound; `body` is printable ASCII of at most 250 characters."""

    body: str


@dataclass(frozen=True, slots=True)
class Rejection:
    """A refused frame: the reason, what exactly was wrong, and the SEQ when it could be read.

    `seq` is set only for a well-framed frame (ETX, LRC and CR LF all present), the ones the ICD
    answers with `NAK <seq>`.
    """

    reason: RejectReason
    detail: str
    seq: int | None = None


def lrc(body: bytes) -> int:
    """XOR of every body byte."""
    value = 0
    for byte in body:
        value ^= byte
    return value


def encode_frame(body: str | bytes) -> bytes:
    """Wrap a body in STX/ETX, LRC and CR LF; the body is sent as given, so emulators can send bad ones."""
    raw = body.encode("latin-1") if isinstance(body, str) else body
    return bytes([STX]) + raw + bytes([ETX]) + b"%02X" % lrc(raw) + CRLF


def readable_seq(body: bytes) -> int | None:
    """The frame's SEQ if its first field is four uppercase hex digits, else None."""
    head = body[:5]
    if len(body) < 4 or (len(body) > 4 and head[4:5] != b" "):
        return None
    if all(byte in HEX_DIGITS for byte in head[:4]):
        return int(head[:4], 16)
    return None


def _next_marker(data: bytes, at: int) -> int:
    """Index of the next STX or ETX at or after `at`, or the end of the data."""
    found = [index for index in (data.find(STX, at), data.find(ETX, at)) if index >= 0]
    return min(found) if found else len(data)


class _State(Enum):
    HUNT = auto()  # outside a frame: everything but STX is noise
    BODY = auto()
    TRAILER = auto()  # after ETX: two LRC digits, CR, LF


class Framer:
    """Cuts a byte stream into frames and rejections; feed it whatever the port returned.

    An over-long body is refused as soon as its 251st byte arrives, and what follows it up to the
    next STX is noise, so a stream without ETX never grows the buffer.
    """

    def __init__(self) -> None:
        self._state = _State.HUNT
        self._body = bytearray()
        self._trailer = bytearray()

    def feed(self, data: bytes) -> Iterator[Frame | Rejection]:
        """Frames and rejections completed by these bytes; bodies are scanned in bulk, not byte by byte."""
        at, end = 0, len(data)
        while at < end:
            if self._state is _State.HUNT:
                at = data.find(STX, at)
                if at < 0:
                    return
                at += 1
                self._start()
            else:
                scan = self._scan_body if self._state is _State.BODY else self._scan_trailer
                at, result = scan(data, at)
                if result is not None:
                    yield result

    def reset(self) -> Rejection | None:
        """Forget a partial frame when the port closes; an unfinished frame counts as truncated."""
        pending = self._state is not _State.HUNT
        self._state = _State.HUNT
        if pending:
            return Rejection(RejectReason.TRUNCATED, "the port closed inside a frame")
        return None

    def _start(self) -> None:
        self._state = _State.BODY
        self._body.clear()
        self._trailer.clear()

    def _scan_body(self, data: bytes, at: int) -> tuple[int, Frame | Rejection | None]:
        stop = _next_marker(data, at)
        room = MAX_BODY - len(self._body)
        if stop - at > room:
            self._state = _State.HUNT  # the rest, up to the next STX, is noise
            return at + room, Rejection(RejectReason.TOO_LONG, f"body longer than {MAX_BODY} bytes")
        self._body += data[at:stop]
        if stop == len(data):
            return stop, None
        if data[stop] == ETX:
            self._state = _State.TRAILER
            return stop + 1, None
        self._start()
        return stop + 1, Rejection(RejectReason.TRUNCATED, "a new STX arrived before the frame ended")

    def _scan_trailer(self, data: bytes, at: int) -> tuple[int, Frame | Rejection | None]:
        chunk = data[at : at + 4 - len(self._trailer)]
        if STX in chunk:
            self._start()
            return at + chunk.index(STX) + 1, Rejection(
                RejectReason.TRUNCATED, "a new STX arrived before the frame ended"
            )
        self._trailer += chunk
        if len(self._trailer) < 4:
            return at + len(chunk), None
        self._state = _State.HUNT
        return at + len(chunk), self._check(bytes(self._body), bytes(self._trailer))

    @staticmethod
    def _check(body: bytes, trailer: bytes) -> Frame | Rejection:
        if trailer[2:] != CRLF:
            return Rejection(RejectReason.MALFORMED, f"bytes {trailer[2:]!r} after the LRC where CR LF belongs")
        seq = readable_seq(body)
        digits = trailer[:2]
        if any(byte not in HEX_DIGITS for byte in digits):
            return Rejection(RejectReason.LRC, f"LRC {digits!r} is not two uppercase hex digits", seq)
        if int(digits, 16) != lrc(body):
            return Rejection(RejectReason.LRC, f"LRC {digits.decode()} but the body gives {lrc(body):02X}", seq)
        for index, byte in enumerate(body):
            if not 0x20 <= byte <= 0x7E:
                return Rejection(RejectReason.NONPRINTABLE, f"byte 0x{byte:02X} at body offset {index}", seq)
        return Frame(body.decode("ascii"))

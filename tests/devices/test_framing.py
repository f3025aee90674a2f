"""DEVICES.md §1 frame envelope: the framer alone, byte by byte."""

from __future__ import annotations

import pytest

from devices.wire.framing import MAX_BODY, Frame, Framer, Rejection, RejectReason, encode_frame, lrc


def feed(data: bytes) -> list[Frame | Rejection]:
    return list(Framer().feed(data))


def reasons(data: bytes) -> list[RejectReason]:
    return [item.reason for item in feed(data) if isinstance(item, Rejection)]


def test_icd_1_frame_is_stx_body_etx_lrc_crlf() -> None:
    assert encode_frame("0001 CARD 7 TS") == b"\x020001 CARD 7 TS\x0305\r\n"
    assert feed(b"\x020001 CARD 7 TS\x0305\r\n") == [Frame("0001 CARD 7 TS")]


def test_icd_1_bytes_outside_a_frame_are_noise() -> None:
    frame = encode_frame("0002 HB 3")
    assert feed(b"\xff\x03junk\r\n" + frame + b"\x00\x7f" + frame) == [Frame("0002 HB 3")] * 2


def test_icd_1_a_frame_split_into_single_bytes_is_reassembled() -> None:
    framer = Framer()
    frame = encode_frame("0003 LID OPEN")
    items = [item for byte in frame for item in framer.feed(bytes([byte]))]
    assert items == [Frame("0003 LID OPEN")]


def test_icd_1_new_stx_restarts_frame_as_truncated() -> None:
    items = feed(b"\x020004 CARD 9" + encode_frame("0005 CARD 9 AS"))
    assert [type(item) for item in items] == [Rejection, Frame]
    assert items[0].reason is RejectReason.TRUNCATED and items[1] == Frame("0005 CARD 9 AS")


def test_icd_1_stx_inside_the_trailer_also_truncates() -> None:
    assert reasons(b"\x020001 HB 0\x033" + encode_frame("0002 HB 0")) == [RejectReason.TRUNCATED]


def test_icd_1_bad_lrc_is_rejected_with_its_seq_readable() -> None:
    (item,) = feed(b"\x020007 CARD 7 TS\x0300\r\n")
    assert isinstance(item, Rejection) and item.reason is RejectReason.LRC and item.seq == 7
    assert f"gives {lrc(b'0007 CARD 7 TS'):02X}" in item.detail


def test_icd_1_lowercase_lrc_digits_are_rejected() -> None:
    assert reasons(b"\x020001 HB 0\x033f\r\n") == [RejectReason.LRC]


@pytest.mark.parametrize("byte", [0x00, 0x07, 0x09, 0x0A, 0x0D, 0x1F, 0x7F, 0x80, 0xFF])
def test_icd_1_non_printable_byte_is_rejected_and_named(byte: int) -> None:
    (item,) = feed(encode_frame(b"0008 HB " + bytes([byte])))
    assert isinstance(item, Rejection) and item.reason is RejectReason.NONPRINTABLE
    assert f"0x{byte:02X}" in item.detail and item.seq == 8


def test_icd_1_body_of_250_bytes_is_accepted_and_251_rejected_as_too_long() -> None:
    longest = "0009 FAULT X " + "Y" * (MAX_BODY - 13)
    assert feed(encode_frame(longest)) == [Frame(longest)]
    assert reasons(encode_frame(longest + "Y") + encode_frame("000A HB 0")) == [RejectReason.TOO_LONG]


def test_icd_1_an_endless_body_is_cut_at_251_bytes_and_the_rest_is_noise() -> None:
    framer = Framer()
    items = list(framer.feed(b"\x02" + b"Z" * 100_000))
    assert [item.reason for item in items] == [RejectReason.TOO_LONG]
    assert list(framer.feed(encode_frame("000B HB 1"))) == [Frame("000B HB 1")]


def test_icd_1_missing_crlf_after_the_lrc_is_malformed() -> None:
    assert reasons(b"\x020001 HB 0\x0334XY") == [RejectReason.MALFORMED]


def test_icd_1_a_frame_cut_by_the_port_closing_counts_as_truncated() -> None:
    framer = Framer()
    assert list(framer.feed(b"\x020001 CA")) == []
    closed = framer.reset()
    assert closed is not None and closed.reason is RejectReason.TRUNCATED
    assert framer.reset() is None

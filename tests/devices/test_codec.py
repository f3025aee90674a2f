"""DEVICES.md §1-§3 bodies: typed messages, strict fields, each receiver's own TYPEs."""

from __future__ import annotations

import pytest

from dealer_assist.rules.cards import Card
from devices.wire.codec import CodecError, decode, encode
from devices.wire.framing import RejectReason
from devices.wire.messages import (
    HOST_TO_PEEK,
    HOST_TO_SHOE,
    PEEK_TO_HOST,
    SHOE_TO_HOST,
    Ack,
    CardOut,
    CutCard,
    Fault,
    Heartbeat,
    Hello,
    Ident,
    Lid,
    LidState,
    Lock,
    LockState,
    Message,
    Nak,
    NewShoe,
    NoRead,
    PeekAnswer,
    PeekRequest,
    PeekResult,
    Status,
)

EXAMPLES: list[tuple[Message, str]] = [
    (Hello(0, "ACME", "S-9", "A1B2", "2.0.1", "1.2", "0BADF00D"), "0000 HELLO ACME S-9 A1B2 2.0.1 1.2 0BADF00D"),
    (NewShoe(1, "SH-42", 6), "0001 SHOE SH-42 6"),
    (CardOut(0xFFFF, 52, Card("T", "S")), "FFFF CARD 52 TS"),
    (NoRead(0x00A0, 3), "00A0 NOREAD 3"),
    (CutCard(2, 234), "0002 CUT 234"),
    (Lid(3, LidState.CLOSED), "0003 LID CLOSED"),
    (Lock(4, LockState.ON), "0004 LOCK ON"),
    (Heartbeat(5, 0), "0005 HB 0"),
    (Fault(6, "JAM", "card stuck at exit"), "0006 FAULT JAM card stuck at exit"),
    (Fault(7, "POWER", ""), "0007 FAULT POWER"),
    (Ack(8, 0x1234), "0008 ACK 1234"),
    (Nak(9, 0xABCD), "0009 NAK ABCD"),
    (Ident(10), "000A ID"),
    (Status(11), "000B STATUS"),
    (PeekRequest(12, "A"), "000C PEEK A"),
    (PeekResult(13, 12, PeekAnswer.NOCARD), "000D RESULT 000C NOCARD"),
]
ALL = {**SHOE_TO_HOST, **HOST_TO_SHOE, **PEEK_TO_HOST, **HOST_TO_PEEK}


@pytest.mark.parametrize(("message", "body"), EXAMPLES, ids=[type(m).__name__ + str(m.seq) for m, _ in EXAMPLES])
def test_icd_2_3_messages_round_trip_through_their_bodies(message: Message, body: str) -> None:
    assert encode(message) == body
    assert decode(body, ALL) == message


def refusal(body: str, vocabulary: object = ALL) -> CodecError:
    with pytest.raises(CodecError) as caught:
        decode(body, vocabulary)  # type: ignore[arg-type]
    return caught.value


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("0001 CARD 7 1X", "'1X'"),
        ("0001 CARD 7", "'card'"),
        ("0001 CARD", "'n'"),
        ("0001 CARD 0 AS", "'0'"),
        ("0001 CARD 7 as", "'as'"),
        ("0001 CARD 7 10S", "'10S'"),
        ("0001 CARD 7 TS 9", "extra"),
        ("0001 LID AJAR", "'AJAR'"),
        ("0001 SHOE S1", "'decks'"),
        ("0001 HB -1", "'-1'"),
        ("0001 ACK 12", "'12'"),
        ("0001 HELLO A B C D E 1234", "'1234'"),
        ("0001 PEEK 7", "'7'"),
        ("0001 RESULT 0001 MAYBE", "'MAYBE'"),
        ("0001  HB 0", "empty field"),
        ("0001 HB 0 ", "empty field"),
        ("0001", "no TYPE"),
    ],
)
def test_icd_1_fields_that_do_not_fit_their_type_are_malformed(body: str, named: str) -> None:
    error = refusal(body)
    assert error.reason is RejectReason.MALFORMED and named in error.detail and error.seq == 1


@pytest.mark.parametrize("seq", ["001", "00G1", "abcd", "00001", "+001"])
def test_icd_1_an_unreadable_seq_is_malformed_and_gets_no_nak(seq: str) -> None:
    error = refusal(f"{seq} HB 0")
    assert error.reason is RejectReason.MALFORMED and error.seq is None and repr(seq) in error.detail


@pytest.mark.parametrize(
    ("body", "vocabulary"),
    [
        ("0001 BOGUS 1", SHOE_TO_HOST),
        ("0001 PEEK A", SHOE_TO_HOST),
        ("0001 CARD 1 AS", PEEK_TO_HOST),
        ("0001 RESULT 0001 NONE", HOST_TO_SHOE),
        ("0001 LOCK ON", HOST_TO_PEEK),
        ("0001 ID", SHOE_TO_HOST),
        ("0001 hb 0", SHOE_TO_HOST),
    ],
)
def test_icd_1_a_type_the_receiver_does_not_know_is_unknown_type(body: str, vocabulary: object) -> None:
    error = refusal(body, vocabulary)
    assert error.reason is RejectReason.UNKNOWN_TYPE and error.seq == 1


def test_icd_2_3_the_acknowledged_types_are_those_marked_in_the_tables() -> None:
    acked = {name for name, cls in SHOE_TO_HOST.items() if cls.ACKED}
    assert acked == {"SHOE", "CARD", "NOREAD", "CUT", "LID", "LOCK", "FAULT"}
    assert {name for name, cls in PEEK_TO_HOST.items() if cls.ACKED} == {"RESULT", "FAULT"}
    assert {name for name, cls in HOST_TO_PEEK.items() if cls.ACKED} == {"PEEK"}

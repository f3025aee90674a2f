"""DEVICES.md §6 bodies: the wager reader's messages, its strict spot names and amounts, each field named."""

from __future__ import annotations

import pytest

from dealer_assist.table.spots import BANK, Spot, SpotKind, layout, parse_spot
from devices.wire.codec import CodecError, decode, encode
from devices.wire.decoding import Decoder
from devices.wire.framing import Rejection, RejectReason, encode_frame
from devices.wire.messages import (
    HOST_TO_WAGERS,
    WAGERS_TO_HOST,
    Ack,
    Heartbeat,
    Ident,
    Message,
    Nak,
    ReaderFault,
    ReaderHello,
    Scan,
    Scanned,
    SpotClear,
    SpotContent,
    SpotList,
    Status,
)

BASE_3 = Spot(3, SpotKind.BASE)
EXAMPLES: list[tuple[Message, str]] = [
    (
        ReaderHello(0, "ACME", "W-7", "A1B2", "3.0", "1.3", "0BADF00D", "CASINO-42"),
        "0000 HELLO ACME W-7 A1B2 3.0 1.3 0BADF00D CASINO-42",
    ),
    (SpotList(1, (Spot(1, SpotKind.BASE), Spot(1, SpotKind.LUCKY_LUCKY), BANK)), "0001 SPOTS 1.base 1.ll pd.bank"),
    (SpotContent(2, BASE_3, 4, 10000, 0), "0002 SPOT 3.base 4 10000"),
    (SpotContent(3, Spot(12, SpotKind.BUSTER), 0, 0, 2), "0003 SPOT 12.buster 0 0 ALIEN 2"),
    (SpotContent(4, Spot(7, SpotKind.INSURANCE), 1, 500, 0), "0004 SPOT 7.ins 1 500"),
    (Scanned(5, 0x00A1, 29), "0005 SCANNED 00A1 29"),
    (Heartbeat(6, 31), "0006 HB 31"),
    (ReaderFault(7, "ANTENNA", BASE_3, "no field on the coil"), "0007 FAULT ANTENNA 3.base no field on the coil"),
    (ReaderFault(8, "POWER", None, ""), "0008 FAULT POWER -"),
    (SpotClear(9, BANK), "0009 CLEAR pd.bank"),
    (Scan(10), "000A SCAN"),
]


@pytest.mark.parametrize(("message", "body"), EXAMPLES, ids=[type(m).__name__ + str(m.seq) for m, _ in EXAMPLES])
def test_icd_6_messages_round_trip_through_their_bodies(message: Message, body: str) -> None:
    assert encode(message) == body
    assert decode(body, {**WAGERS_TO_HOST, **HOST_TO_WAGERS}) == message


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("0001 SPOT 3.BASE 1 500", "'BASE'"),
        ("0001 SPOT 03.base 1 500", "'03'"),
        ("0001 SPOT 0.base 1 500", "'0'"),
        ("0001 SPOT -3.base 1 500", "'-3'"),
        ("0001 SPOT 3.bet 1 500", "'bet'"),
        ("0001 SPOT 3.bank 1 500", "'bank'"),
        ("0001 SPOT pd.base 1 500", "'pd.base'"),
        ("0001 SPOT base 1 500", "'base'"),
        ("0001 SPOT 3.base 1", "'total'"),
        ("0001 SPOT 3.base", "'chips'"),
        ("0001 SPOT 3.base -1 500", "'-1'"),
        ("0001 SPOT 3.base 1 5.00", "'5.00'"),
        ("0001 SPOT 3.base 1 500 ALIEN 0", "'0'"),
        ("0001 SPOT 3.base 1 500 ALIEN", "'alien'"),
        ("0001 SPOT 3.base 1 500 ALIEN 2 3", "'2 3'"),
        ("0001 SPOT 3.base 1 500 alien 2", "'alien 2'"),
        ("0001 SPOT 3.base 1 500 2", "'2'"),
        ("0001 SPOTS", "no spot"),
        ("0001 SPOTS 1.base 1.bet", "'bet'"),
        ("0001 SCANNED 00A1", "'n'"),
        ("0001 SCANNED A1 3", "'A1'"),
        ("0001 FAULT ANTENNA", "'spot'"),
        ("0001 FAULT ANTENNA 3.base.x", "'base.x'"),
        ("0001 CLEAR -", "'-'"),
        ("0001 HELLO A B C D E 0BADF00D", "'casino'"),
        ("0001 HB 1 2", "extra"),
    ],
)
def test_icd_6_fields_that_do_not_fit_their_type_are_malformed_and_named(body: str, named: str) -> None:
    with pytest.raises(CodecError) as caught:
        decode(body, WAGERS_TO_HOST)
    assert caught.value.reason is RejectReason.MALFORMED and named in caught.value.detail and caught.value.seq == 1


@pytest.mark.parametrize(
    ("body", "vocabulary"),
    [("0001 CARD 1 AS", WAGERS_TO_HOST), ("0001 SCAN", WAGERS_TO_HOST), ("0001 SPOT 3.base 1 500", HOST_TO_WAGERS)],
)
def test_icd_6_a_type_of_the_other_direction_is_unknown(body: str, vocabulary: object) -> None:
    with pytest.raises(CodecError) as caught:
        decode(body, vocabulary)  # type: ignore[arg-type]
    assert caught.value.reason is RejectReason.UNKNOWN_TYPE


def test_icd_6_the_acknowledged_types_are_those_marked_in_the_table() -> None:
    assert {name for name, cls in WAGERS_TO_HOST.items() if cls.ACKED} == {"SPOTS", "SPOT", "SCANNED", "FAULT", "CLEAR"}
    assert {name for name, cls in HOST_TO_WAGERS.items() if cls.ACKED} == {"SCAN"}
    assert set(HOST_TO_WAGERS.values()) == {Ack, Nak, Ident, Status, Scan}


def test_icd_6_a_layout_names_each_seats_four_spots_and_the_bank() -> None:
    spots = layout(2)
    assert [str(spot) for spot in spots] == [
        "1.base",
        "1.ll",
        "1.buster",
        "1.ins",
        "2.base",
        "2.ll",
        "2.buster",
        "2.ins",
        "pd.bank",
    ]
    assert all(parse_spot(str(spot)) == spot for spot in spots)
    assert BANK not in layout(2, bank=False)


def test_icd_6_a_spot_the_reader_did_not_list_is_malformed_by_name_and_nothing_else_is() -> None:
    """The receiver names what it refuses after decoding: a frame is then rejected as malformed, never used."""
    listed = {BASE_3}
    decoder = Decoder(WAGERS_TO_HOST, lambda m: "not listed" if getattr(m, "spot", BASE_3) not in listed else None)
    got = list(decoder.feed(encode_frame("0001 SPOT 3.base 1 500") + encode_frame("0002 SPOT 4.base 1 500")))
    assert got[0] == SpotContent(1, BASE_3, 1, 500, 0)
    assert got[1] == Rejection(RejectReason.MALFORMED, "not listed", 2)
    assert decoder.accepted == 1 and decoder.rejected == {RejectReason.MALFORMED: 1}

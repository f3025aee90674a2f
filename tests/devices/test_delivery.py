"""DEVICES.md §1 delivery rules, on the pure state machine with the clock in the test's hands."""

from __future__ import annotations

from device_rig import Wire

from dealer_assist.rules.cards import Card
from dealer_assist.table.spots import Spot, SpotKind
from devices.wire.delivery import Delivery
from devices.wire.messages import SHOE_TO_HOST, WAGERS_TO_HOST, Ack, CardOut, Heartbeat, SpotContent, SpotList
from devices.wire.timing import MAX_REPEATS, REPEAT_EVERY


def card(n: int) -> CardOut:
    return CardOut(0, n, Card("A", "S"))


def test_icd_1_at_most_one_acknowledged_frame_is_outstanding() -> None:
    wire = Wire(SHOE_TO_HOST)
    delivery = Delivery(wire)
    delivery.post(card(1), 0.0)
    delivery.post(card(2), 0.0)
    assert [m.n for m in wire.sent] == [1]
    delivery.send(Heartbeat(0, 1))  # frames that are not ✓ may go in between
    delivery.acknowledged(wire.sent[0].seq, 0.01)
    assert [type(m).__name__ for m in wire.sent] == ["CardOut", "Heartbeat", "CardOut"]
    assert wire.sent[2].n == 2 and len({m.seq for m in wire.sent}) == 3


def test_icd_1_unacknowledged_frame_repeats_every_200_ms_with_its_seq_at_most_5_times() -> None:
    wire = Wire(SHOE_TO_HOST)
    delivery = Delivery(wire)
    delivery.post(card(1), 0.0)
    step = REPEAT_EVERY * 1.01
    for repeat in range(MAX_REPEATS):
        assert delivery.pump(repeat * step + REPEAT_EVERY * 0.9)
        assert delivery.pump((repeat + 1) * step)
    now = MAX_REPEATS * step
    assert len(wire.sent) == 1 + MAX_REPEATS and len({m.seq for m in wire.sent}) == 1
    assert not delivery.pump(now + step)  # the link is treated as down
    assert len(wire.sent) == 1 + MAX_REPEATS and not delivery.idle


def test_icd_1_a_frame_held_through_an_outage_is_sent_again_after_the_link_is_back() -> None:
    wire = Wire(SHOE_TO_HOST)
    delivery = Delivery(wire)
    delivery.post(card(1), 0.0)
    for step in range(1, MAX_REPEATS + 2):
        delivery.pump(step * REPEAT_EVERY * 1.01)
    delivery.post(card(2), 2.0)
    sent_before = len(wire.sent)
    delivery.resume(5.0, renumber=False)
    assert wire.sent[sent_before:] == [wire.sent[0]]
    delivery.acknowledged(wire.sent[0].seq, 5.01)
    assert wire.sent[-1].n == 2


def test_icd_1_a_nak_repeats_at_once() -> None:
    wire = Wire(SHOE_TO_HOST)
    delivery = Delivery(wire)
    delivery.post(card(1), 0.0)
    delivery.refused(wire.sent[0].seq + 1, 0.01)  # a NAK for some other frame changes nothing
    delivery.refused(wire.sent[0].seq, 0.01)
    assert wire.sent == [wire.sent[0]] * 2


def test_icd_1_a_repeated_seq_is_acknowledged_again_and_reported_duplicate() -> None:
    wire = Wire(SHOE_TO_HOST)
    delivery = Delivery(wire)
    assert delivery.accept(CardOut(7, 1, Card("K", "H")))
    assert not delivery.accept(CardOut(7, 1, Card("K", "H")))
    assert delivery.accept(CardOut(8, 2, Card("K", "H")))
    assert [m.of for m in wire.sent if isinstance(m, Ack)] == [7, 7, 8]
    delivery.forget_peer()
    assert delivery.accept(CardOut(8, 2, Card("K", "H")))


def test_icd_1_seq_wraps_from_ffff_to_0000() -> None:
    delivery = Delivery(Wire(SHOE_TO_HOST))
    seqs = [delivery.stamp(Heartbeat(0, 0)).seq for _ in range(0x10001)]
    assert seqs[0xFFFF] == 0xFFFF and seqs[0x10000] == 0


def test_icd_6_frames_put_first_go_out_after_the_held_one_and_replace_queued_ones_of_their_type() -> None:
    """A reader's SPOTS after each HELLO: ahead of everything queued, but not of a frame held over an outage."""
    one, two = Spot(1, SpotKind.BASE), Spot(2, SpotKind.BASE)
    wire = Wire(WAGERS_TO_HOST)
    delivery = Delivery(wire)
    delivery.post(SpotContent(0, one, 1, 500, 0), 0.0)  # sent, and held
    delivery.post(SpotList(0, (one,)), 0.0)
    delivery.post(SpotContent(0, two, 2, 1000, 0), 0.0)
    delivery.post_first([SpotList(0, (one, two))], 0.0)
    for _ in range(3):
        delivery.acknowledged(wire.sent[-1].seq, 0.01)
    assert (
        wire.sent
        == [
            SpotContent(0, one, 1, 500, 0),
            SpotList(1, (one, two)),
            SpotContent(2, two, 2, 1000, 0),
        ]
        and delivery.idle
    )

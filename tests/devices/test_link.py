"""DEVICES.md §1 start-up, supervision and duplicate state of the host link, with a hand-held clock."""

from __future__ import annotations

from device_rig import Wire

from dealer_assist.rules.cards import Card
from devices.wire.codec import encode
from devices.wire.framing import Rejection, encode_frame
from devices.wire.link import HostLink, LinkHandler, LinkState
from devices.wire.messages import HOST_TO_SHOE, SHOE_TO_HOST, Ack, CardOut, Hello, Ident, Lock, LockState, Message, Nak
from devices.wire.timing import ID_EVERY, SILENCE_LIMIT


class Recorder(LinkHandler):
    def __init__(self) -> None:
        self.states: list[LinkState] = []
        self.messages: list[Message] = []
        self.rejections: list[Rejection] = []

    def link_changed(self, state: LinkState) -> None:
        self.states.append(state)

    def message(self, message: Message) -> None:
        self.messages.append(message)

    def rejected(self, rejection: Rejection) -> None:
        self.rejections.append(rejection)


def hello(boot: str = "0000BEEF") -> bytes:
    return encode_frame(encode(Hello(0, "V", "M", "S", "F", "1.2", boot)))


def frame(message: Message) -> bytes:
    return encode_frame(encode(message))


def opened() -> tuple[HostLink, Recorder, Wire]:
    handler, wire = Recorder(), Wire(HOST_TO_SHOE)
    link = HostLink(SHOE_TO_HOST, handler)
    link.opened(wire, 0.0)
    return link, handler, wire


def test_icd_1_host_sends_id_on_open_and_every_1000_ms_until_hello() -> None:
    link, handler, wire = opened()
    assert link.tick(ID_EVERY * 0.5) and link.tick(ID_EVERY) and link.tick(10 * SILENCE_LIMIT)
    assert [type(m) for m in wire.sent] == [Ident, Ident, Ident]
    link.received(hello(), 31.0)
    assert handler.states == [LinkState.UP] and link.tick(31.0 + ID_EVERY * 2)
    assert len(wire.sent) == 3


def test_icd_1_3000_ms_without_a_frame_is_link_down() -> None:
    link, handler, _ = opened()
    link.received(hello(), 1.0)
    assert link.tick(1.0 + SILENCE_LIMIT * 0.99)
    assert not link.tick(1.0 + SILENCE_LIMIT)
    link.closed()
    assert handler.states == [LinkState.UP, LinkState.DOWN]


def test_icd_1_every_accepted_card_is_acknowledged_and_a_repeat_dropped() -> None:
    link, handler, wire = opened()
    link.received(hello() + frame(CardOut(5, 1, Card("9", "C"))) * 2, 0.1)
    assert [m.of for m in wire.sent if isinstance(m, Ack)] == [5, 5]
    assert [m for m in handler.messages if isinstance(m, CardOut)] == [CardOut(5, 1, Card("9", "C"))]
    assert link.duplicates == 1 and link.decoder.accepted == 3


def test_icd_1_a_reconnect_to_the_same_boot_still_recognises_a_repeated_frame() -> None:
    link, handler, wire = opened()
    link.received(hello("AAAA0001") + frame(CardOut(9, 4, Card("2", "D"))), 0.1)
    link.closed()
    link.opened(wire, 2.0)
    link.received(hello("AAAA0001") + frame(CardOut(9, 4, Card("2", "D"))), 2.1)
    assert link.duplicates == 1


def test_icd_1_a_new_boot_id_forgets_the_duplicate_state() -> None:
    link, handler, wire = opened()
    link.received(hello("AAAA0001") + frame(CardOut(9, 4, Card("2", "D"))), 0.1)
    link.received(hello("AAAA0002") + frame(CardOut(9, 1, Card("3", "D"))), 0.2)
    assert link.duplicates == 0 and len([m for m in handler.messages if isinstance(m, CardOut)]) == 2


def test_icd_1_a_well_framed_bad_frame_is_answered_with_nak_of_its_seq() -> None:
    link, handler, wire = opened()
    link.received(b"\x02002A CARD 1 AS\x0300\r\n", 0.1)
    link.received(encode_frame("002C CARD 1 1X") + encode_frame("zz HB 0"), 0.2)
    assert [m.of for m in wire.sent if isinstance(m, Nak)] == [0x2A, 0x2C]
    assert [r.reason.value for r in handler.rejections] == ["lrc", "malformed", "malformed"]


def test_icd_1_host_restarts_its_seq_at_0000_on_every_open_and_holds_lock_until_hello() -> None:
    link, _, wire = opened()
    link.post(Lock(0, LockState.ON), 0.0)
    assert [type(m) for m in wire.sent] == [Ident]
    link.received(hello(), 0.1)
    assert wire.sent[-1] == Lock(1, LockState.ON)
    link.closed()
    link.opened(wire, 1.0)
    link.received(hello(), 1.1)
    assert wire.sent[-2:] == [Ident(0), Lock(1, LockState.ON)]

"""A delivery's place, read from its acknowledgement subject as nats.py reads it, in both layouts."""

from __future__ import annotations

import pytest
from nats.aio.msg import Msg

from pit.service.ingest.pull import Delivery

REPLIES = [
    "$JS.ACK.DA_RECORDS.pit-ingest.1.4711.42.1796324152820077000.3",  # no JetStream domain
    "$JS.ACK.room-a.ACCHASH.DA_RECORDS.pit-ingest.2.4711.42.1796324152820077000.3.TOKEN",  # a room's domain
    "$JS.ACK._.ACCHASH.DA_RECORDS.pit-ingest.1.4711.42.1796324152820077000.3",  # no token at the end
]


@pytest.mark.parametrize("reply", REPLIES)
def test_a_deliverys_stream_and_delivery_seq_are_nats_pys(reply: str) -> None:
    delivery = Delivery("da.records.T1.00", reply, b"{}")
    metadata = Msg(_client=None, subject=delivery.subject, reply=reply).metadata  # type: ignore[arg-type]
    assert (
        (delivery.stream_seq, delivery.delivery_seq)
        == (metadata.sequence.stream, metadata.sequence.consumer)
        == (4711, 42)
    )

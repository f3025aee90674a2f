"""Shipping against a stream that refuses publishes while it has no leader ("no responders"), then
takes everything once it has one: whatever it refused is sent again, so the stream ends holding every
record of the journal, each once, with no hole behind its last."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Collection
from pathlib import Path
from typing import Any, cast

import pytest
from nats.js.api import PubAck, RawStreamMsg
from nats.js.errors import NoStreamResponseError, NotFoundError

from dealer_assist.journal.journal_file import last_seq
from pit.shipping.link import PitLink
from pit.shipping.outbox import LinkLost, ship_from
from pit.shipping.shipper import Shipper
from pit.stream.wire import parse_record_message
from tests.pit.journals import bench_journal


class LeaderlessStream:
    """The broker's side of one journal's subject: the publishes numbered in `refused` (counted from 1
    over the whole run) meet a stream without a leader and are refused; every other one is stored,
    unless it repeats a record already held (dropped on its Nats-Msg-Id). `taken` is what the stream
    holds, in the stream's order."""

    def __init__(self, refused: Collection[int]) -> None:
        self.refused = set(refused)
        self.published = 0
        self.taken: list[int] = []
        self.payloads: dict[int, bytes] = {}

    async def publish_async(self, subject: str, payload: bytes, headers: dict[str, Any]) -> asyncio.Future[PubAck]:
        self.published += 1
        future: asyncio.Future[PubAck] = asyncio.get_running_loop().create_future()
        if self.published in self.refused:
            future.set_exception(NoStreamResponseError())
            return future
        seq = parse_record_message(payload).seq
        if seq not in self.payloads:
            self.taken.append(seq)
            self.payloads[seq] = payload
        future.set_result(PubAck(stream="DA_RECORDS", seq=len(self.taken)))
        return future

    async def get_last_msg(self, stream: str, subject: str, direct: bool = False) -> RawStreamMsg:
        """The last record the stream stored (in its own order, as JetStream's last-by-subject is)."""
        if not self.taken:
            raise NotFoundError()
        return RawStreamMsg(subject=subject, seq=len(self.taken), data=self.payloads[self.taken[-1]])


class Connection:
    """What the shipper uses of a broker connection: JetStream, core publishes (its status), close."""

    def __init__(self, stream: LeaderlessStream) -> None:
        self.stream = stream

    def jetstream(self, timeout: float) -> LeaderlessStream:
        return self.stream

    async def publish(self, subject: str, payload: bytes) -> None:
        pass

    async def subscribe(self, subject: str, cb: Callable[[Any], Awaitable[None]]) -> None:
        pass  # the pit's resend requests: none come here

    async def close(self) -> None:
        pass


class Link:
    """A pit link whose every connection reaches the same stream."""

    def __init__(self, stream: LeaderlessStream) -> None:
        self.stream = stream
        self.connections = 0

    async def connect(
        self,
        table_id: str,
        error_cb: Callable[[Exception], Awaitable[None]],
        disconnected_cb: Callable[[], Awaitable[None]],
        attempt: int = 0,
    ) -> Connection:
        self.connections += 1
        return Connection(self.stream)


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bench_journal(tmp_path_factory.mktemp("outbox") / "t.db", 4, 3, "T1")


@pytest.mark.parametrize("refused", [1, 5, 40])
def test_a_session_opening_onto_a_stream_without_a_leader_leaves_no_hole(journal: Path, refused: int) -> None:
    """Each session starts from the last record the stream holds, as a shipper that has just started
    does: the first record goes alone, so nothing after it can be stored while it was refused."""
    stream = LeaderlessStream(range(1, refused + 1))

    async def sessions() -> None:
        shipped = 0
        while shipped < last_seq(journal):
            try:
                shipped = await ship_from(
                    cast(Any, stream),
                    "T1",
                    "ab" * 32,
                    journal,
                    stream.taken[-1] if stream.taken else 0,
                    asyncio.Event(),
                    lambda seq: None,
                )
            except LinkLost:
                continue

    asyncio.run(sessions())
    assert stream.taken == list(range(1, last_seq(journal) + 1))


@pytest.mark.parametrize("refused", [{5}, {5, 6, 7}, {2, 30}])
def test_records_refused_mid_window_are_sent_again_though_later_ones_were_stored(
    journal: Path, refused: set[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Records after a refused one were stored (a leader came in between); the stream's last record is
    past the refused one, yet the shipper finds the records the stream lacks and sends them.
    The next session finds the gap in what the stream holds and fills it: the stream then holds every
    record once, the refused ones after the later ones, which the pit's ingest waits for (a record is
    witnessed only on its predecessor)."""
    stream = LeaderlessStream(refused)

    async def held_seqs(client: Connection, table_id: str, journal: str) -> list[int]:
        return list(client.stream.taken)  # what the broker's filtered consumer reads, with the gaps

    monkeypatch.setattr("pit.shipping.outbox.held_seqs", held_seqs)
    link = Link(stream)
    shipper = Shipper(journal, "T1", cast(PitLink, link)).start()
    head = last_seq(journal)
    try:
        assert shipper.wait_shipped(head, 10.0), shipper.state
        deadline = time.monotonic() + 5.0
        while len(stream.taken) < head and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        shipper.stop()
    assert sorted(stream.taken) == list(range(1, head + 1)), (
        f"the stream lacks {set(range(1, head + 1)) - set(stream.taken)}"
    )
    assert stream.taken != sorted(stream.taken)  # the later records were stored before the refused one came again
    assert link.connections >= 2  # each refusal ended a session; the next one asked the stream again

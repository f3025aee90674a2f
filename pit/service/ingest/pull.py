"""The records consumer's messages, pulled in batches onto one inbox of ours.

JetStream's pull requests (`$JS.API.CONSUMER.MSG.NEXT`), kept two batches ahead: the broker sends
each request's messages as they come, serving requests in turn, all on one subscription, so they
arrive in stream order and wait in a buffer, and `fetch` hands out what is there. nats.py's own fetch
awaits every message behind a timer of its own, which costs more than judging and storing the record;
here each message, as the client reads it, costs a tuple and a list append (`IngestClient.hand_over`).
A request the broker ends (its time is up, status 408; nothing left, 404), that goes unanswered past
its expiry, or that was made on a connection since lost, is replaced.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass
from typing import NamedTuple

from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from pit.stream.ingest_client import IngestClient

EXPIRES_S = 5.0  # how long the broker keeps one request open
STATUS_LINE = b"NATS/1.0 "  # a header block that opens with a status code: the broker's word, not a message
SOURCE_HEADER = "Nats-Stream-Source"


class Delivery(NamedTuple):
    """One message the records consumer handed out: its subject, its data, and the reply subject that
    acknowledges it and tells its place (`$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<delivery
    seq>.<time>.<pending>`, or with `<domain>.<account hash>` after `$JS.ACK` and a token at the end)."""

    subject: str
    reply: str
    data: bytes
    source: str = ""  # its Nats-Stream-Source header at a head office: the room's stream it was sourced from

    @classmethod
    def of(cls, msg: Msg) -> Delivery:
        return cls(msg.subject, msg.reply, msg.data, (msg.headers or {}).get(SOURCE_HEADER, ""))

    def _place(self, token: int) -> int:
        tokens = self.reply.split(".")
        return int(tokens[token if len(tokens) == 9 else token + 2])

    @property
    def stream_seq(self) -> int:
        """The message's place in the stream."""
        return self._place(5)

    @property
    def delivery_seq(self) -> int:
        """The consumer's count of deliveries, this one included: one more for every message it hands
        out, to whichever puller, a redelivery too."""
        return self._place(6)


@dataclass(slots=True)
class _Request:
    remaining: int
    deadline: float


class Puller:
    def __init__(self, nc: IngestClient, stream: str, consumer: str, batch: int) -> None:
        self.nc = nc
        self.subject = f"$JS.API.CONSUMER.MSG.NEXT.{stream}.{consumer}"
        self.batch = batch
        self.inbox = nc.new_inbox()
        self._requests: dict[str, _Request] = {}
        self._buffer: list[Delivery] = []
        self._arrived = asyncio.Event()
        self._count = 0
        self._reconnects = nc.stats["reconnects"]
        self._sub: Subscription | None = None

    async def start(self) -> Puller:
        self._sub = await self.nc.hand_over(f"{self.inbox}.*", self._take)
        return self

    async def stop(self) -> None:
        if self._sub is not None:
            try:
                await self.nc.take_back(self._sub)
            except Exception:  # the connection is gone: so is the subscription
                pass

    async def fetch(self, timeout: float) -> list[Delivery]:
        """The next messages, up to a batch, in stream order; [] when none came within `timeout`."""
        await self._request()
        if not self._buffer:
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), timeout)
            except TimeoutError:
                return []
        taken, self._buffer = self._buffer[: self.batch], self._buffer[self.batch :]
        return taken

    async def acknowledge_upto(self, delivery: Delivery) -> None:
        """Acknowledge `delivery`, and with it every message the consumer handed out before it (AckPolicy ALL)."""
        await self.nc.publish(delivery.reply)

    async def _request(self) -> None:
        """Keep two batches asked for; forget requests past their expiry that the broker never ended,
        and every request made before the connection was made again (the broker forgot them)."""
        now = time.monotonic()
        if self.nc.stats["reconnects"] != self._reconnects:
            self._reconnects = self.nc.stats["reconnects"]
            self._requests.clear()
        for reply in [reply for reply, request in self._requests.items() if request.deadline < now]:
            del self._requests[reply]
        while sum(request.remaining for request in self._requests.values()) + len(self._buffer) < 2 * self.batch:
            self._count += 1
            reply = f"{self.inbox}.{self._count}"
            self._requests[reply] = _Request(self.batch, now + EXPIRES_S + 1.0)
            await self.nc.publish(
                self.subject, json.dumps({"batch": self.batch, "expires": int(EXPIRES_S * 1e9)}).encode(), reply=reply
            )

    def _take(self, subject: bytes, reply: bytes, data: bytes, headers: bytes | None) -> None:
        if headers is not None and headers.startswith(STATUS_LINE):  # the broker ended this request
            self._requests.pop(subject.decode(), None)
            return
        self._buffer.append(Delivery(subject.decode(), reply.decode(), data, _source(headers)))
        self._arrived.set()
        # a message shows its own subject, not the request's: the broker serves requests in turn
        for reply_to, request in self._requests.items():
            request.remaining -= 1
            if request.remaining <= 0:
                del self._requests[reply_to]
            break


def _source(headers: bytes | None) -> str:
    """The Nats-Stream-Source header of a raw header block ("" without one)."""
    if headers is None:
        return ""
    for line in headers.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == SOURCE_HEADER.lower().encode():
            return value.strip().decode()
    return ""

"""Ingest acknowledges a batch by its last message (AckPolicy ALL), which the broker takes for every
message the records consumer handed out before it: real nats-server and PostgreSQL show that nothing
handed to another puller is acknowledged unstored, and that a consumer of an earlier release, which
wanted each message acknowledged, is replaced without losing a record."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import nats
import psycopg
import pytest
from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from nats.js.client import JetStreamContext

from pit.service.ingest.consumer import CONSUMER
from pit.service.ingest.leader import Role
from pit.service.store.pit_store import PitStore
from pit.stream.broker import ensure_stream
from pit.stream.wire import STREAM, RecordMessage, parse_record_message
from pit.trial.local_services import NatsServer, PostgresCluster
from tests.pit.journals import bench_journal, messages, publish
from tests.pit.pit_service import fresh_database, running_ingest, stored_counts, wait_for

pytestmark = pytest.mark.slow


def _complete(store: PitStore, *journals: list[RecordMessage]) -> bool:
    counts = stored_counts(store)
    return all(counts.get(found[0].journal) == (len(found),) * 3 for found in journals)


def test_messages_the_consumer_handed_to_another_puller_are_read_again_not_acknowledged_unseen(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    """While ingest waits on its store, another puller on the records consumer (a pit service that lost
    the ingest lock, its requests still open) takes the rest of one journal and never stores it; the
    next batch ingest acknowledges would acknowledge those too. Ingest sees the gap in the consumer's
    deliveries and reads them from the stream first, well before the broker would hand them out
    again (ACK_WAIT_S, 10 s)."""
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    first = messages(bench_journal(tmp_path / "a.db", 2, 31, "GA"), "GA")
    later = messages(bench_journal(tmp_path / "b.db", 1, 32, "GB"), "GB")

    async def other_puller_takes_the_rest(js: JetStreamContext) -> list[int]:
        taken: list[int] = []

        async def take(msg: Msg) -> None:
            if msg.data:  # not the broker's word on the request
                taken.append(parse_record_message(msg.data).seq)

        inbox = js._nc.new_inbox()
        await js._nc.subscribe(inbox, cb=take)
        await js._nc.publish(
            f"$JS.API.CONSUMER.MSG.NEXT.{STREAM}.{CONSUMER}",
            json.dumps({"batch": len(first), "expires": 1_000_000_000}).encode(),
            reply=inbox,
        )
        await asyncio.sleep(1.5)  # its request ends; what it took is never acknowledged
        return taken

    async def ship(found: list[RecordMessage]) -> None:
        nc = await nats.connect(nats_server.url)
        await publish(nc.jetstream(), found)
        await nc.close()

    async def share_first() -> list[int]:
        nc = await nats.connect(nats_server.url)
        await publish(nc.jetstream(), first)
        await asyncio.sleep(1.0)  # ingest has taken what its requests ask for, and waits on its store
        taken = await other_puller_takes_the_rest(nc.jetstream())
        await nc.close()
        return taken

    with running_ingest(nats_server.url, dsn, store.pit_identity().seed, batch=5) as ingest:
        wait_for(lambda: ingest.health().role is Role.INGEST, what="the ingest lock")
        wait_for(lambda: asyncio.run(_consumer_exists(nats_server.url)), what="the records consumer")
        with psycopg.connect(dsn) as holding:
            holding.execute("LOCK TABLE journals IN ACCESS EXCLUSIVE MODE")
            taken = asyncio.run(share_first())
            asyncio.run(ship(later))
        assert taken and taken[-1] == len(first)
        wait_for(lambda: _complete(store, first, later), timeout=6, what="every record of both journals")
    assert store.witness(first[0].journal)["head"] == first[-1].hash
    store.close()


def test_a_consumer_acknowledging_each_message_is_replaced_from_its_first_unacknowledged(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    found = messages(bench_journal(tmp_path / "c.db", 2, 33, "GC"), "GC")

    async def an_earlier_release_took_some() -> int:
        nc = await nats.connect(nats_server.url)
        js = nc.jetstream()
        await ensure_stream(js)
        try:
            await js.delete_consumer(STREAM, CONSUMER)
        except nats.js.errors.NotFoundError:
            pass
        await js.add_consumer(
            STREAM,
            ConsumerConfig(durable_name=CONSUMER, ack_policy=AckPolicy.EXPLICIT, deliver_policy=DeliverPolicy.NEW),
        )
        await publish(js, found)
        sub = await js.pull_subscribe_bind(CONSUMER, STREAM)
        taken = await sub.fetch(12, timeout=5)
        for msg in taken[:8]:
            await msg.ack_sync()
        await nc.close()
        return int(taken[7].metadata.sequence.stream)

    eighth = asyncio.run(an_earlier_release_took_some())
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        wait_for(lambda: _complete(store, found), what="every record")
        info = asyncio.run(_consumer_info(nats_server.url))
    assert info.config.ack_policy == AckPolicy.ALL
    assert info.config.opt_start_seq == eighth + 1
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed) as again:
        wait_for(lambda: again.health().role is Role.INGEST, what="the ingest lock")
        wait_for(lambda: asyncio.run(_consumer_info(nats_server.url)).num_waiting, what="its requests")
    assert asyncio.run(_consumer_info(nats_server.url)).created == info.created  # kept as it is from then on
    store.close()


async def _consumer_info(url: str):  # type: ignore[no-untyped-def]
    nc = await nats.connect(url)
    try:
        return await nc.jetstream().consumer_info(STREAM, CONSUMER)
    finally:
        await nc.close()


async def _consumer_exists(url: str) -> bool:
    try:
        await _consumer_info(url)
    except nats.js.errors.NotFoundError:
        return False
    return True

"""The private broker and store start, answer, and come back after a kill."""

from __future__ import annotations

import asyncio

import nats
import psycopg
import pytest

from pit.trial.local_services import NatsServer, PostgresCluster

pytestmark = pytest.mark.slow


def test_postgres_answers_and_survives_a_kill(postgres: PostgresCluster) -> None:
    with psycopg.connect(postgres.dsn, autocommit=True) as db:
        db.execute("CREATE TABLE IF NOT EXISTS kept (n int)")
        db.execute("INSERT INTO kept VALUES (7)")
    postgres.kill()
    postgres.start()
    with psycopg.connect(postgres.dsn) as db:
        assert db.execute("SELECT n FROM kept").fetchall() == [(7,)]


def test_nats_jetstream_keeps_a_message_across_a_restart(nats_server: NatsServer) -> None:
    async def publish() -> None:
        client = await nats.connect(nats_server.url)
        js = client.jetstream()
        await js.add_stream(name="T", subjects=["t.>"])
        await js.publish("t.a", b"one", headers={"Nats-Msg-Id": "x:1"})
        await client.close()

    async def read() -> bytes:
        client = await nats.connect(nats_server.url)
        message = await client.jetstream().get_last_msg("T", "t.a")
        await client.close()
        return bytes(message.data or b"")

    asyncio.run(publish())
    nats_server.kill()
    nats_server.start()
    assert asyncio.run(read()) == b"one"

"""One subscription to the store's changes serves every open page, and comes back after a failure."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from memory_pit import MemoryPitData
from web_bench import bench_journals, floor_data

from pit.service.floor.data import Change
from pit.service.web.app import create_app
from pit.service.web.context import Context
from pit.service.web.events import Broadcast


@pytest.fixture(scope="module")
def journals(tmp_path_factory) -> Path:
    return bench_journals(tmp_path_factory.mktemp("floor"))


def context(data: MemoryPitData) -> Context:
    return create_app(data).state.ctx


class FailsOnce(MemoryPitData):
    """Its first change stream breaks, as a store's listener does when its connection drops."""

    def __init__(self) -> None:
        super().__init__()
        self.subscriptions = 0

    async def changes(self) -> AsyncIterator[Change]:
        self.subscriptions += 1
        if self.subscriptions == 1:
            raise ConnectionError("the store's notification connection dropped")
        async for change in super().changes():
            yield change


async def until_subscribed(data: MemoryPitData, count: int = 1) -> None:
    while len(data._subscribers) < count:
        await asyncio.sleep(0.01)


def test_every_listener_gets_each_change_once_from_one_subscription(journals):
    data = floor_data(journals)

    async def scenario() -> list[list[dict]]:
        broadcast = Broadcast(context(data))
        first, second = broadcast.listen(), broadcast.listen()
        await until_subscribed(data)
        assert len(data._subscribers) == 1
        data.announce(Change("table", "T-1"))
        data.announce(Change("table", "T-1"))  # the same change twice in a batch is sent once
        got = [await asyncio.wait_for(first.get(), 5), await asyncio.wait_for(second.get(), 5)]
        broadcast.leave(first)
        broadcast.leave(second)
        await asyncio.sleep(0.05)
        assert data._subscribers == []  # nobody listens: the subscription ends
        return got

    first, second = asyncio.run(scenario())
    assert first == second and [event["table_id"] for event in first] == ["T-1"]
    assert 'id="tile-T-1"' in first[0]["html"]


def test_a_broken_change_stream_is_started_again(journals):
    data = FailsOnce()
    data.add_table("T-1", journals / "T-1.db")

    async def scenario() -> list[dict]:
        broadcast = Broadcast(context(data))
        queue = broadcast.listen()
        while broadcast.task is not None and not broadcast.task.done():
            await asyncio.sleep(0.01)
        assert isinstance(broadcast.task.exception(), ConnectionError)
        broadcast.keep_running()  # what a stream does at its next keep-alive
        await until_subscribed(data)
        data.announce(Change("alert", "T-1"))
        events = await asyncio.wait_for(queue.get(), 5)
        broadcast.leave(queue)
        return events

    events = asyncio.run(scenario())
    assert data.subscriptions == 2 and events[0]["kind"] == "alert"

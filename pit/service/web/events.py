"""GET /api/events: the floor's live changes as server-sent events.

One subscription to the store's changes serves every open page: changes that arrive together are
read and rendered once (one read of the tables for all of them), as `change` events carrying the
table's tile as the floor renders it, so a page swaps it in without asking again. A subscription
that failed (the store failed over) is started again within a second; a comment every 15 s keeps
proxies from closing a quiet stream.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from pit.service.floor.data import Change, TableTile
from pit.service.web.access import caller
from pit.service.web.context import Context
from pit.service.web.errors import not_logged_in

log = logging.getLogger(__name__)
KEEPALIVE_S = 15.0
RETRY_S = 1.0  # a subscription to the store's changes that failed is started again this soon
Events = list[dict[str, Any]]


class Broadcast:
    """Fans the store's changes out to every open event stream; runs while any page listens."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.listeners: set[asyncio.Queue[Events]] = set()
        self.task: asyncio.Task[None] | None = None

    def listen(self) -> asyncio.Queue[Events]:
        queue: asyncio.Queue[Events] = asyncio.Queue()
        self.listeners.add(queue)
        self.keep_running()
        return queue

    def leave(self, queue: asyncio.Queue[Events]) -> None:
        self.listeners.discard(queue)
        if not self.listeners and self.task is not None:
            self.task.cancel()
            self.task = None

    def keep_running(self) -> None:
        """(Re)start the subscription; one that failed is started again rather than left silent."""
        if self.task is not None and self.task.done() and not self.task.cancelled() and self.task.exception():
            log.warning("the store's change stream failed (%s); listening again", self.task.exception())
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        changes: asyncio.Queue[Change] = asyncio.Queue()

        async def pump() -> None:
            async for change in self.ctx.data.changes():
                changes.put_nowait(change)

        pumping = asyncio.create_task(pump())
        try:
            while not pumping.done() or not changes.empty():
                waiting = asyncio.ensure_future(changes.get())
                await asyncio.wait((waiting, pumping), return_when=asyncio.FIRST_COMPLETED)
                if not waiting.done():
                    waiting.cancel()
                    break
                batch = [waiting.result()]
                while not changes.empty():
                    batch.append(changes.get_nowait())
                events = await run_in_threadpool(_events, self.ctx, batch)
                for listener in list(self.listeners):
                    listener.put_nowait(events)
            pumping.result()  # the store's stream ended: raise why, so the next keep_running restarts it
        finally:
            pumping.cancel()


def endpoint(ctx: Context, broadcast: Broadcast) -> Callable[[Request], Awaitable[Response]]:
    async def events(request: Request) -> Response:
        if await run_in_threadpool(caller, request, ctx.sessions, ctx.data) is None:
            return JSONResponse(not_logged_in().to_json(), status_code=401)
        return StreamingResponse(
            stream(broadcast),
            media_type="text/event-stream",
            headers={"cache-control": "no-store", "x-accel-buffering": "no"},
        )

    return events


async def stream(broadcast: Broadcast) -> AsyncIterator[str]:
    queue = broadcast.listen()
    try:
        yield "retry: 2000\n\n"
        quiet = 0.0
        while True:
            try:
                events = await asyncio.wait_for(queue.get(), RETRY_S)
            except TimeoutError:
                broadcast.keep_running()  # a store's listener that dropped (a failover) listens again at once
                quiet += RETRY_S
                if quiet >= KEEPALIVE_S:
                    quiet = 0.0
                    yield ": still here\n\n"
                continue
            for event in events:
                yield f"event: change\ndata: {json.dumps(event)}\n\n"
    finally:
        broadcast.leave(queue)


def _events(ctx: Context, changes: list[Change]) -> Events:
    rows: dict[str, list[TableTile]] = {}  # where rooms meet, an id's tile in each room that uses it
    for row in ctx.data.tables():
        rows.setdefault(row["table_id"], []).append(row)
    tile = ctx.templates.get_template("_tile.html")
    seen: set[tuple[str, str]] = set()
    events = []
    for change in changes:
        if (change.kind, change.table_id) in seen:
            continue
        seen.add((change.kind, change.table_id))
        # a room's change (its sourcing behind or caught up) is every tile's of that room: the whole floor
        for row in rows.get(change.table_id, []) if change.table_id else [r for tiles in rows.values() for r in tiles]:
            events.append(
                {"kind": change.kind, "table_id": row["table_id"], "room": row["room"], "html": tile.render(t=row)}
            )
        if change.table_id and change.table_id not in rows:
            events.append({"kind": change.kind, "table_id": change.table_id, "html": ""})
    return events

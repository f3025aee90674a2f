"""GET /api/events: the floor's live changes as server-sent events.

Each change of a table or an alert becomes one `change` event carrying the table's tile as the
floor renders it, so a page swaps it in without asking again. Changes that arrive together are sent
together (one read of the tables for all of them); a comment every 15 s keeps proxies from closing
a quiet stream.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse

from pit.data import Change
from pit.web.access import caller
from pit.web.context import Context
from pit.web.errors import not_logged_in

KEEPALIVE_S = 15.0


def endpoint(ctx: Context) -> Callable[[Request], Awaitable[Response]]:
    async def events(request: Request) -> Response:
        if await run_in_threadpool(caller, request, ctx.sessions, ctx.data) is None:
            return JSONResponse(not_logged_in().body(), status_code=401)
        return StreamingResponse(stream(ctx), media_type="text/event-stream",
                                 headers={"cache-control": "no-store", "x-accel-buffering": "no"})
    return events


async def stream(ctx: Context) -> AsyncIterator[str]:
    queue: asyncio.Queue[Change] = asyncio.Queue()

    async def pump() -> None:
        async for change in ctx.data.changes():
            queue.put_nowait(change)

    task = asyncio.create_task(pump())
    try:
        yield "retry: 2000\n\n"
        while True:
            try:
                first = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
            except TimeoutError:
                if task.done():
                    task.result()  # the data's stream ended: say why rather than fall silent
                yield ": still here\n\n"
                continue
            changes = [first]
            while not queue.empty():
                changes.append(queue.get_nowait())
            for event in await run_in_threadpool(_events, ctx, changes):
                yield f"event: change\ndata: {json.dumps(event)}\n\n"
    finally:
        task.cancel()


def _events(ctx: Context, changes: list[Change]) -> list[dict[str, Any]]:
    rows = {row["table_id"]: row for row in ctx.data.tables()}
    tile = ctx.templates.get_template("_tile.html")
    seen: set[tuple[str, str]] = set()
    events = []
    for change in changes:
        if (change.kind, change.table_id) in seen:
            continue
        seen.add((change.kind, change.table_id))
        row = rows.get(change.table_id)
        events.append({"kind": change.kind, "table_id": change.table_id,
                       "html": tile.render(t=row) if row is not None else ""})
    return events

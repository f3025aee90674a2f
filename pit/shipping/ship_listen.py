"""`journal ship --listen`: after sending, stay to answer the pit's resend requests until Ctrl-C.

A journal copied off a dead table PC has no table to answer for it; this does: each request for the
journal sends again what the stream lacks (gaps included), as `journal ship` does, and prints what it
did. A lost broker is reached again every RECONNECT_S.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from nats.aio.msg import Msg

from pit.shipping.link import PitLink, quietly_close
from pit.shipping.outbox import journal_of
from pit.stream.wire import ResendRequest, WireError, resend_subject

RECONNECT_S = 1.0
Ship = Callable[[Path, str, PitLink], Awaitable[tuple[int, str]]]


async def listen(path: Path, table_id: str, link: PitLink, ship: Ship) -> int:
    """Answer resend requests for the journal at `path` until SIGINT or SIGTERM; 0 when the last
    sending left the stream holding every record."""
    journal = journal_of(path)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    asked = asyncio.Event()
    code = 0

    async def on_request(message: Msg) -> None:
        try:
            request = ResendRequest.from_json(message.data)
        except WireError as error:
            print(f"a resend request was not understood: {error}", file=sys.stderr, flush=True)
            return
        if request.journal == journal:
            asked.set()

    async def quiet(_: object = None) -> None:
        pass

    print(f"listening on {resend_subject(table_id)} for the pit's requests (Ctrl-C ends)", flush=True)
    try:
        while not stop.is_set():
            lost = asyncio.Event()

            async def on_lost() -> None:
                lost.set()

            try:
                client = await link.connect(table_id, quiet, on_lost)
            except Exception as error:
                print(
                    f"the broker cannot be reached ({error or type(error).__name__}); trying again",
                    file=sys.stderr,
                    flush=True,
                )
                await _first(stop.wait(), asyncio.sleep(RECONNECT_S))
                continue
            try:
                await client.subscribe(resend_subject(table_id), cb=on_request)
                while not stop.is_set() and not lost.is_set():
                    await _first(stop.wait(), lost.wait(), asked.wait())
                    if asked.is_set() and not stop.is_set():
                        asked.clear()
                        code, text = await ship(path, table_id, link)
                        print(f"the pit asked again: {text}", file=sys.stdout if code == 0 else sys.stderr, flush=True)
            finally:
                await quietly_close(client)
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)
    return code


async def _first(*waits: Awaitable[object]) -> None:
    """Until the first of `waits` ends; the others are cancelled."""
    futures = [asyncio.ensure_future(wait) for wait in waits]
    try:
        await asyncio.wait(futures, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for future in futures:
            future.cancel()

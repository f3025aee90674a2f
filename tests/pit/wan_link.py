"""The wide-area link between a room and its head office, as a TCP relay a test can cut and restore:
cut, it drops every connection through it and refuses new ones, as a dead line does. The far end is
seen only as the line's own address, as across a real link: the address a nats-server tells in its
INFO (a head office's advertised leaf address, which a leaf node reconnects to) is told as the line's,
else on one machine a leaf node would come back around a cut line straight to the far end."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

from pit.trial.local_services import free_port


class WanLink:
    def __init__(self, target_port: int) -> None:
        self.port = free_port()
        self.target_port = target_port
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="wan link", daemon=True)
        self._server: asyncio.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()

    def start(self) -> WanLink:
        self._thread.start()
        self.restore()
        return self

    def restore(self) -> None:
        self._call(self._listen())

    def cut(self) -> None:
        self._call(self._cut())

    def close(self) -> None:
        self.cut()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def _call(self, coroutine: object) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(10)  # type: ignore[arg-type]

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._open):
            writer.transport.abort()
        self._open.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            far_reader, far_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.transport.abort()
            return
        self._open |= {writer, far_writer}
        await asyncio.gather(self._pipe(reader, far_writer), self._pipe(far_reader, writer, self._as_seen))

    def _as_seen(self, data: bytes) -> bytes:
        if b"INFO {" not in data:
            return data
        return data.replace(f"127.0.0.1:{self.target_port}".encode(), f"127.0.0.1:{self.port}".encode())

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, seen: Callable[[bytes], bytes] = bytes
    ) -> None:
        try:
            while data := await reader.read(65536):
                writer.write(seen(data))
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            self._open.discard(writer)
            writer.transport.abort()

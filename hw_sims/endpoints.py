"""Where an emulator is served: a pseudo-terminal, a TCP port, or an in-process socket pair.

One host at a time, like a serial port. `poll` waits briefly for bytes; `connected` says whether a
host is attached (for a pseudo-terminal it always is, as with a real cable); `hang_up` drops the
host after everything written so far has reached it, as a cable pull between frames would.
"""

from __future__ import annotations

import fcntl
import os
import queue
import select
import socket
import struct
import tempfile
import termios
import time
import tty
from abc import ABC, abstractmethod

import serial

__all__ = ["InProcessEndpoint"]

if "hw_sims.urlhandler" not in serial.protocol_handler_packages:
    serial.protocol_handler_packages.append("hw_sims.urlhandler")

DRAIN_LIMIT = 1.0  # longest a hang-up waits for the host to take what was written
HANDOVER = 0.01  # a pseudo-terminal passes written bytes to the host's side within this


class Endpoint(ABC):
    url: str

    @property
    @abstractmethod
    def connected(self) -> bool:
        """A host is attached and frames written now will reach it."""

    @abstractmethod
    def poll(self, timeout: float) -> bytes:
        """Bytes from the host, or b'' after `timeout`; notices a host that went away."""

    @abstractmethod
    def write(self, data: bytes) -> bool:
        """Send to the host; False when no host is attached (the bytes are lost, as on a real line)."""

    @abstractmethod
    def hang_up(self) -> None:
        """Drop the host; it can connect again."""

    @abstractmethod
    def close(self) -> None:
        """Stop serving."""


class _SocketEndpoint(Endpoint):
    """One connected socket at a time; subclasses say where the next one comes from."""

    def __init__(self) -> None:
        self._conn: socket.socket | None = None

    @abstractmethod
    def _accept(self, timeout: float) -> socket.socket | None:
        """The next host's socket, waiting at most `timeout`."""

    @property
    def connected(self) -> bool:
        return self._conn is not None

    def poll(self, timeout: float) -> bytes:
        if self._conn is None:
            self._conn = self._accept(timeout)
            return b""
        ready, _, _ = select.select([self._conn], [], [], timeout)
        if not ready:
            return b""
        try:
            data = self._conn.recv(4096)
        except OSError:
            data = b""
        if not data:
            self._drop()
        return data

    def write(self, data: bytes) -> bool:
        if self._conn is None:
            return False
        try:
            self._conn.sendall(data)
        except OSError:
            self._drop()
            return False
        return True

    def hang_up(self) -> None:
        """Half-close so everything written arrives before the end, then wait for the host to close."""
        conn = self._conn
        if conn is None:
            return
        try:
            conn.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + DRAIN_LIMIT
            while time.monotonic() < deadline and select.select([conn], [], [], 0.05)[0]:
                if not conn.recv(4096):
                    break
        except OSError:
            pass
        self._drop()

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def close(self) -> None:
        self.hang_up()


class TcpEndpoint(_SocketEndpoint):
    """Listens on 127.0.0.1; `port=0` picks a free port. Hosts connect with `socket://127.0.0.1:PORT`."""

    def __init__(self, port: int = 0, host: str = "127.0.0.1") -> None:
        super().__init__()
        self._listener = socket.create_server((host, port))
        self.port = self._listener.getsockname()[1]
        self.url = f"socket://{host}:{self.port}"

    def _accept(self, timeout: float) -> socket.socket | None:
        if not select.select([self._listener], [], [], timeout)[0]:
            return None
        conn, _ = self._listener.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn

    def close(self) -> None:
        super().close()
        self._listener.close()


class InProcessEndpoint(_SocketEndpoint):
    """Served inside the test's own process at `inproc://NAME` (see `hw_sims.urlhandler`)."""

    registry: dict[str, InProcessEndpoint] = {}

    def __init__(self, name: str) -> None:
        super().__init__()
        self.url = f"inproc://{name}"
        self._incoming: queue.SimpleQueue[socket.socket] = queue.SimpleQueue()
        self._name = name
        InProcessEndpoint.registry[name] = self

    def connect(self) -> socket.socket:
        """Called by the URL handler: one end for the host, the other queued for the emulator."""
        host_end, device_end = socket.socketpair()
        self._incoming.put(device_end)
        return host_end

    def _accept(self, timeout: float) -> socket.socket | None:
        try:
            return self._incoming.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        super().close()
        InProcessEndpoint.registry.pop(self._name, None)


class PtyEndpoint(Endpoint):
    """A pseudo-terminal in raw mode, reached through a symlink that a hang-up points at a fresh one.

    The emulator does not keep the terminal's own end open, so it can tell whether a host has it
    open (the master reports a hang-up while nobody does), as a device sees a cable's DTR.
    """

    def __init__(self, link_dir: str | None = None) -> None:
        self._dir = link_dir or tempfile.mkdtemp(prefix="dealer-assist-")
        self.url = os.path.join(self._dir, "tty")
        self._master = -1
        self._open()

    def _open(self) -> None:
        self._master, terminal = os.openpty()
        tty.setraw(terminal)  # no echo, no CR/LF rewriting, before any host configures it
        self._terminal = os.ttyname(terminal)
        os.close(terminal)
        os.set_blocking(self._master, False)
        self._hangups = select.poll()
        self._hangups.register(self._master, select.POLLHUP)
        temporary = self.url + ".new"
        os.symlink(self._terminal, temporary)
        os.replace(temporary, self.url)

    @property
    def connected(self) -> bool:
        return not self._hangups.poll(0)

    def poll(self, timeout: float) -> bytes:
        if not self.connected:
            time.sleep(timeout)
            return b""
        if not select.select([self._master], [], [], timeout)[0]:
            return b""
        try:
            return os.read(self._master, 4096)
        except OSError:
            return b""

    def write(self, data: bytes) -> bool:
        """False when no host has the terminal open, or its buffer stays full; the bytes are lost."""
        if not self.connected:
            return False
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._master, view) :]
            except BlockingIOError:
                if not select.select([], [self._master], [], DRAIN_LIMIT)[1]:
                    return False
        return True

    def hang_up(self) -> None:
        """Close once the host has read what was written; the terminal moves bytes to the host's side
        a little after the write, so the count of unread bytes is only trusted after a short pause."""
        deadline = time.monotonic() + DRAIN_LIMIT
        time.sleep(HANDOVER)
        while time.monotonic() < deadline and self.connected and self._pending_for_host():
            time.sleep(HANDOVER)
        os.close(self._master)
        self._open()

    def _pending_for_host(self) -> int:
        """Bytes written but not yet read by the host."""
        try:
            probe = os.open(self._terminal, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        except OSError:
            return 0
        try:
            raw = fcntl.ioctl(probe, termios.FIONREAD, b"\0\0\0\0")
        finally:
            os.close(probe)
        return int(struct.unpack("i", raw)[0])

    def close(self) -> None:
        os.close(self._master)
        os.unlink(self.url)
        os.rmdir(self._dir)

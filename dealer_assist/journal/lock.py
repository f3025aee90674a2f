"""One process per journal: a lock file beside it names the process that holds it.

The lock is an exclusive `flock` on `DB.lock`, which the kernel drops when its process dies, so a
crashed table never blocks its own restart; the file's text (pid, host, start time) names the
holder to whoever is refused, and tells a taker-over whose lock it found.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from dealer_assist.journal.errors import JournalCode, JournalInUse

__all__ = ["Holder", "JournalLock"]


def lock_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".lock")


@dataclass(frozen=True, slots=True)
class Holder:
    pid: int
    host: str
    started: str

    def __str__(self) -> str:
        return f"process {self.pid} on {self.host}, started {self.started}"


class JournalLock:
    """Held from `acquire` to `release`; `took_over` names a dead holder whose lock was left behind."""

    def __init__(self, journal: Path) -> None:
        self.journal = Path(journal)
        self.path = lock_path(self.journal)
        self.took_over: Holder | None = None
        self._fd = -1

    def acquire(self) -> JournalLock:
        """Take the lock, or raise JournalInUse naming the live holder."""
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                named = str(holder) if holder else "another process"
                raise JournalInUse(
                    JournalCode.JOURNAL_IN_USE,
                    f"{self.journal} is in use by {named}; stop that table first (one process per journal)",
                ) from None
            if _same_file(fd, self.path):
                break
            os.close(fd)  # the holder released and removed the file between our open and our lock
        self.took_over = _holder(fd)
        mine = Holder(os.getpid(), socket.gethostname(), datetime.now(UTC).isoformat(timespec="seconds"))
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps({"pid": mine.pid, "host": mine.host, "started": mine.started}).encode(), 0)
        os.fsync(fd)
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd < 0:
            return
        self.path.unlink(missing_ok=True)  # removed while still held, so nobody locks a file on its way out
        os.close(self._fd)
        self._fd = -1

    def __enter__(self) -> JournalLock:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()


def _holder(fd: int) -> Holder | None:
    """The holder the lock file names; None for an empty or unreadable file."""
    try:
        raw = json.loads(os.pread(fd, 4096, 0) or b"null")
        return Holder(int(raw["pid"]), str(raw["host"]), str(raw["started"]))
    except (ValueError, TypeError, KeyError, OSError):
        return None


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.fstat(fd).st_ino == path.stat().st_ino
    except FileNotFoundError:
        return False

"""Command-line plumbing shared by `dealer-assist devices` and `dealer-assist sim`.

Errors are one JSON object on stdout and exit status 2 (DEVICES.md §5), argument errors included
(`dealer_assist.commands.command_line`), so a script driving the bench never has to parse
argparse's text or a traceback.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

__all__ = ["emit", "stop_on_signals"]

_reader_gone = threading.Event()  # stdout's reader has closed its end (`monitor | tee`, then Ctrl-C)


def emit(line: Mapping[str, object]) -> bool:
    """One JSON object per line, flushed at once so a reader sees each event as it happens. False
    once the reader has gone: the line was not delivered, and nothing more goes to stdout."""
    if _reader_gone.is_set():
        return False
    try:
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
        return True
    except BrokenPipeError:
        _reader_gone.set()
        # What is still buffered can never be delivered: stdout goes to /dev/null, so the exit's
        # own flush does not end in a BrokenPipe traceback.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return False


def emit_last(line: Mapping[str, object]) -> None:
    """The closing line (a command's stats): to stderr when stdout's reader has gone, so it is not lost."""
    if not emit(line):
        sys.stderr.write(json.dumps(line) + "\n")
        sys.stderr.flush()


@contextmanager
def stop_on_signals() -> Iterator[threading.Event]:
    """While inside, SIGINT and SIGTERM set the event instead of stopping the process, for commands
    that run until told to stop; the signals' handlers before are restored after. Only the main
    thread can take signals: a command run on another thread (a caller's own) is stopped by its caller."""
    stop = threading.Event()
    numbers = (signal.SIGINT, signal.SIGTERM) if threading.current_thread() is threading.main_thread() else ()
    before = {number: signal.signal(number, lambda *_: stop.set()) for number in numbers}
    try:
        yield stop
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)

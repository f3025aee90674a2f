"""The dealer's screen served over VNC: a virtual X display (Xvfb) watched by x11vnc.

Qt's own `vnc` platform plugin always listens on every network interface, which would put the
supervisor's PIN pad on the card room's network; x11vnc listens only where it is told, on
localhost unless `--vnc-bind` names another address.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass

from ui.common.errors import ScreenCode, ScreenError

START_WAIT_S = 10.0  # how long Xvfb and x11vnc may take to be ready
TOOLS = ("Xvfb", "x11vnc")


class VncUnavailable(ScreenError):
    """The VNC screen could not be started; the message says what is missing or busy."""

    def __init__(self, message: str) -> None:
        super().__init__(ScreenCode.VNC_UNAVAILABLE, message)


@dataclass(frozen=True, slots=True)
class VncTarget:
    port: int
    bind: str
    width: int
    height: int


LOCAL = frozenset({"127.0.0.1", "localhost", "::1"})
EVERYWHERE = frozenset({"0.0.0.0", "::", ""})


def vnc_reach(target: VncTarget) -> str:
    """Where the VNC screen listens and how a viewer gets to it, for the person who started it."""
    where = f"the screen is served over VNC on {target.bind}:{target.port}"
    if target.bind in LOCAL:
        return (
            f"{where}, this computer only: from another, ssh -L {target.port}:localhost:{target.port} "
            f"{socket.gethostname()}, then a VNC viewer on localhost:{target.port} (--vnc-bind ADDRESS listens"
            " elsewhere)"
        )
    if target.bind in EVERYWHERE:
        return (
            f"{where}, on every network interface: a VNC viewer reaches it on port {target.port} "
            "of any of this computer's addresses"
        )
    return f"{where}: a VNC viewer reaches it at that address"


def missing_tools() -> list[str]:
    return [tool for tool in TOOLS if shutil.which(tool) is None]


class VncScreen:
    """A running Xvfb display and the x11vnc server over it; `display` is what DISPLAY is set to."""

    def __init__(self, target: VncTarget) -> None:
        self.target = target
        self.display = ""
        self._processes: list[subprocess.Popen[bytes]] = []

    def start(self) -> None:
        if _listening(self.target.bind, self.target.port):
            raise VncUnavailable(f"--vnc {self.target.port}: another program already listens on that port")
        xvfb, self.display = start_xvfb(self.target.width, self.target.height)
        self._processes.append(xvfb)
        self._spawn(
            [
                "x11vnc",
                "-display",
                self.display,
                "-rfbport",
                str(self.target.port),
                "-listen",
                self.target.bind,
                "-forever",
                "-shared",
                "-nopw",
                "-quiet",
                "-noipv6",
            ]
        )
        deadline = time.monotonic() + START_WAIT_S
        while not _listening(self.target.bind, self.target.port):
            if self._processes[-1].poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise VncUnavailable(f"x11vnc did not start listening on {self.target.bind}:{self.target.port}")
            time.sleep(0.05)

    def _spawn(self, command: list[str]) -> None:
        self._processes.append(
            subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        )

    def stop(self) -> None:
        for process in reversed(self._processes):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self._processes.clear()


def start_xvfb(width: int, height: int) -> tuple[subprocess.Popen[bytes], str]:
    """A virtual X display on a free display number, ready for clients; and its DISPLAY."""
    read, write = os.pipe()
    try:
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        write = -1
        number = _read_line(read, START_WAIT_S)
    finally:
        os.close(read)
        if write >= 0:
            os.close(write)
    if not number.isdigit():
        xvfb.kill()
        xvfb.wait()
        raise VncUnavailable("Xvfb did not start a virtual display")
    return xvfb, f":{number}"


def _read_line(fd: int, timeout: float) -> str:
    """What Xvfb writes to its -displayfd: the display number and a newline, once it is ready."""
    deadline = time.monotonic() + timeout
    text = b""
    os.set_blocking(fd, False)
    while not text.endswith(b"\n") and time.monotonic() < deadline:
        try:
            chunk = os.read(fd, 64)
        except BlockingIOError:
            time.sleep(0.02)
            continue
        if not chunk:
            break
        text += chunk
    return text.decode(errors="replace").strip()


def _listening(bind: str, port: int) -> bool:
    host = "127.0.0.1" if bind in ("0.0.0.0", "") else bind
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False

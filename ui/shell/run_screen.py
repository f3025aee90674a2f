"""Where `dealer-assist run` paints the dealer's screen, decided before anything is created.

Qt aborts (with advice that is not the cause) when it finds no display, so the run command
looks first: a desktop (`DISPLAY` or `WAYLAND_DISPLAY`), a screen driven without a desktop
(`--platform eglfs|linuxfb`), a VNC screen (`--vnc PORT`), or nothing to paint on for an
unattended autoplay. With none of these, it says so and lists the ways on, before any journal
or folder exists.
"""

from __future__ import annotations

import argparse
import ctypes.util
import os
import re
import socket
import sys
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ui.common.errors import ScreenCode, ScreenError
from ui.shell.vnc_screen import VncScreen, VncTarget, VncUnavailable, missing_tools, vnc_reach

PLATFORMS = ("eglfs", "linuxfb")
DEFAULT_SIZE = "1280x800"
# Qt's xcb and wayland plugins load these at start; the Debian package that ships each one.
X11_LIBRARIES = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-image": "libxcb-image0",
    "xcb-keysyms": "libxcb-keysyms1",
    "xcb-render-util": "libxcb-render-util0",
    "xcb-shape": "libxcb-shape0",
    "xcb-xkb": "libxcb-xkb1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
}
WAYLAND_LIBRARIES = {
    "wayland-client": "libwayland-client0",
    "wayland-cursor": "libwayland-cursor0",
    "wayland-egl": "libwayland-egl1",
}
WAYS_ON = """Ways on:
  - on the table's desktop: start it from the desktop session, or set DISPLAY to its display (DISPLAY=:0)
  - straight to the screen, without a desktop: --platform eglfs (a GPU), or --platform linuxfb (a framebuffer)
  - to watch and play from another computer: --vnc PORT, then a VNC viewer on that port (it listens on
    localhost only, reach it through `ssh -L PORT:localhost:PORT`; --vnc-bind ADDRESS listens elsewhere)
  - unattended: --autoplay N --screenshots DIR
Nothing was created: no journal and no folder."""


class NoScreen(ScreenError):
    """No screen to paint on; the message says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(ScreenCode.NO_SCREEN, message)


@dataclass(frozen=True, slots=True)
class ScreenChoice:
    platform: str | None  # QT_QPA_PLATFORM to set; None leaves Qt's own choice from the desktop
    vnc: VncTarget | None
    where: str  # for the log line: where the screen is


def add_screen_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--platform",
        choices=PLATFORMS,
        help="paint straight on the screen without a desktop: eglfs (GPU) or linuxfb (framebuffer)",
    )
    parser.add_argument("--vnc", type=int, metavar="PORT", help="serve the screen over VNC on PORT (a virtual display)")
    parser.add_argument(
        "--vnc-bind",
        default="127.0.0.1",
        metavar="ADDRESS",
        help="the address --vnc listens on (default 127.0.0.1: this computer only)",
    )
    parser.add_argument(
        "--kiosk", action="store_true", help="full screen, no window frame, no mouse cursor, the screen kept awake"
    )


def window_size(text: str) -> tuple[int, int]:
    """--size WIDTHxHEIGHT."""
    match = re.fullmatch(r"(\d{3,5})[xX](\d{3,5})", text.strip())
    if match is None:
        raise ValueError(f"--size {text!r}: give WIDTHxHEIGHT, e.g. 1280x800")
    return int(match[1]), int(match[2])


def choose_screen(args: argparse.Namespace, environ: MutableMapping[str, str]) -> ScreenChoice:
    """The screen this run paints on; raises NoScreen, naming what is missing."""
    if args.vnc is not None:
        if args.platform:
            raise NoScreen(f"--vnc and --platform {args.platform} are two different screens: choose one")
        if not 0 < args.vnc < 65536:
            raise NoScreen(f"--vnc {args.vnc}: a port is a number from 1 to 65535")
        missing = missing_tools()
        if missing:
            raise NoScreen(
                f"--vnc needs {' and '.join(missing)}, which are not installed "
                "(bash scripts/bootstrap.sh installs them: Debian packages xvfb, x11vnc)"
            )
        width, height = window_size(args.size or DEFAULT_SIZE)
        return ScreenChoice(
            "xcb", VncTarget(args.vnc, args.vnc_bind, width, height), f"VNC on {args.vnc_bind}:{args.vnc}"
        )
    if args.platform:
        _check_device(args.platform)
        return ScreenChoice(args.platform, None, f"the screen itself ({args.platform})")
    if environ.get("QT_QPA_PLATFORM"):
        return ScreenChoice(None, None, f"QT_QPA_PLATFORM={environ['QT_QPA_PLATFORM']}")
    if environ.get("WAYLAND_DISPLAY"):
        _check_wayland(environ)
        _check_libraries(WAYLAND_LIBRARIES, "Wayland")
        return ScreenChoice(None, None, f"the Wayland desktop {environ['WAYLAND_DISPLAY']}")
    if environ.get("DISPLAY"):
        _check_x11(environ["DISPLAY"])
        _check_libraries(X11_LIBRARIES, "X11")
        return ScreenChoice(None, None, f"the X display {environ['DISPLAY']}")
    if args.autoplay:
        return ScreenChoice("offscreen", None, "no screen (unattended autoplay)")
    raise NoScreen(
        "there is no screen to open the dealer's touchscreen on: DISPLAY and WAYLAND_DISPLAY are not set, "
        "and no --platform or --vnc was given.\n" + WAYS_ON
    )


@contextmanager
def opened_screen(choice: ScreenChoice, environ: MutableMapping[str, str]) -> Iterator[None]:
    """The environment Qt opens `choice` from, for the length of the run; a VNC screen is started
    here, says on stderr where it listens and how to reach it, and is stopped after. Raises
    NoScreen when the VNC screen cannot start."""
    saved = {key: environ.get(key) for key in ("QT_QPA_PLATFORM", "DISPLAY")}
    server = VncScreen(choice.vnc) if choice.vnc is not None else None
    try:
        if server is not None:
            try:
                server.start()
            except VncUnavailable as error:
                raise NoScreen(str(error)) from None
            print(f"dealer-assist run: {vnc_reach(server.target)}", file=sys.stderr)
            environ["DISPLAY"] = server.display
        if choice.platform is not None:
            environ["QT_QPA_PLATFORM"] = choice.platform
        yield
    finally:
        if server is not None:
            server.stop()
        for key, value in saved.items():
            if value is None:
                environ.pop(key, None)
            else:
                environ[key] = value


def _check_device(platform: str) -> None:
    if platform == "linuxfb" and not Path("/dev/fb0").exists():
        raise NoScreen("--platform linuxfb: this computer has no framebuffer (/dev/fb0)")
    if platform == "eglfs" and not any(Path("/dev/dri").glob("card*")):
        raise NoScreen("--platform eglfs: this computer has no graphics device (/dev/dri/card*)")


def _check_x11(display: str) -> None:
    match = re.fullmatch(r"(?P<host>[^:]*):(?P<number>\d+)(\.\d+)?", display)
    if match is None:
        raise NoScreen(f"DISPLAY={display!r} is not an X display (it looks like :0 or HOST:0)")
    number, host = int(match["number"]), match["host"]
    if host in ("", "unix"):
        if not Path(f"/tmp/.X11-unix/X{number}").exists():
            raise NoScreen(
                f"DISPLAY={display}: no X server runs on display {number} (no /tmp/.X11-unix/X{number})\n" + WAYS_ON
            )
        return
    try:
        with socket.create_connection((host, 6000 + number), timeout=2):
            return
    except OSError as error:
        raise NoScreen(f"DISPLAY={display}: the X server at {host} does not answer ({error})\n" + WAYS_ON) from None


def _check_wayland(environ: MutableMapping[str, str]) -> None:
    name = environ["WAYLAND_DISPLAY"]
    runtime = environ.get("XDG_RUNTIME_DIR")
    path = Path(name) if os.path.isabs(name) else Path(runtime) / name if runtime else None
    if path is not None and not path.exists():
        raise NoScreen(f"WAYLAND_DISPLAY={name}: no Wayland desktop listens at {path}\n" + WAYS_ON)


def _check_libraries(libraries: dict[str, str], desktop: str) -> None:
    missing = [package for name, package in libraries.items() if ctypes.util.find_library(name) is None]
    if missing:
        raise NoScreen(
            f"Qt needs these {desktop} libraries, which are not installed: {', '.join(missing)} "
            f"(bash scripts/bootstrap.sh installs them, or: apt-get install {' '.join(missing)})"
        )

"""`run` on a real display: under Xvfb with DISPLAY set it opens the screen (a screenshot shows
it), and `--vnc PORT` serves the screen to a VNC viewer on localhost."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time

import pytest

from pit.trial.local_services import free_port
from tests.ui.test_run_stop import start_run, stop
from ui.shell.vnc_screen import missing_tools, start_xvfb

pytestmark = pytest.mark.slow
LISTEN = "0A"  # the TCP state LISTEN in /proc/net/tcp
GRAB = textwrap.dedent("""
    import sys
    from PySide6.QtGui import QGuiApplication
    app = QGuiApplication([sys.argv[0], "-platform", "xcb"])
    image = app.primaryScreen().grabWindow(0).toImage()
    image.save(sys.argv[1])
    print(len({image.pixel(x, y) for x in range(0, image.width(), 16) for y in range(0, image.height(), 16)}))
""")


def _listening(port: int) -> list[str]:
    """The addresses listening on TCP `port`, as the kernel lists them (IPv4 and IPv6)."""
    found = []
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        with open(table) as rows:
            for row in list(rows)[1:]:
                local, state = row.split()[1], row.split()[3]
                address, hex_port = local.split(":")
                if state == LISTEN and int(hex_port, 16) == port:
                    raw = bytes.fromhex(address)
                    words = b"".join(raw[i : i + 4][::-1] for i in range(0, len(raw), 4))  # kernel order per word
                    found.append(f"{socket.inet_ntop(socket.AF_INET if width == 8 else socket.AF_INET6, words)}:{port}")
    return found


def test_the_tools_run_needs_for_a_screen_are_installed():
    assert missing_tools() == [], "scripts/bootstrap.sh installs Xvfb and x11vnc"


def test_under_xvfb_run_opens_the_screen(tmp_path):
    xvfb, display = start_xvfb(1280, 800)
    try:
        journal = tmp_path / "t.db"
        process = start_run("--journal", str(journal), env={"DISPLAY": display})
        try:
            time.sleep(2.0)  # painted
            shot = tmp_path / "screen.png"
            grabbed = subprocess.run(
                [sys.executable, "-c", GRAB, str(shot)],
                env=os.environ | {"DISPLAY": display},
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert grabbed.returncode == 0, grabbed.stderr
            assert int(grabbed.stdout) > 20, "the screen shows the dealer's window, not a blank display"
        finally:
            code, err = stop(process, signal.SIGTERM)
        assert code == 0, err
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def test_vnc_serves_the_screen_on_localhost_only(tmp_path):
    port = free_port()
    process = start_run("--journal", str(tmp_path / "t.db"), "--vnc", str(port))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as viewer:
            viewer.settimeout(10)
            greeting = viewer.recv(12)
        assert greeting.startswith(b"RFB 003.00"), greeting
        assert _listening(port) == [f"127.0.0.1:{port}"]
    finally:
        code, err = stop(process, signal.SIGTERM)
    assert code == 0, err
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()

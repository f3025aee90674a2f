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

from tests.ui.test_run_stop import ROOT, start_run, stop
from ui.vnc_screen import missing_tools, start_xvfb

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(bool(missing_tools()), reason="needs Xvfb and x11vnc (bash scripts/bootstrap.sh)")]
GRAB = textwrap.dedent("""
    import sys
    from PySide6.QtGui import QGuiApplication
    app = QGuiApplication([sys.argv[0], "-platform", "xcb"])
    image = app.primaryScreen().grabWindow(0).toImage()
    image.save(sys.argv[1])
    print(len({image.pixel(x, y) for x in range(0, image.width(), 16) for y in range(0, image.height(), 16)}))
""")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_under_xvfb_run_opens_the_screen(tmp_path):
    xvfb, display = start_xvfb(1280, 800)
    try:
        journal = tmp_path / "t.db"
        process = start_run("--journal", str(journal), env={"DISPLAY": display})
        try:
            time.sleep(2.0)  # painted
            shot = tmp_path / "screen.png"
            grabbed = subprocess.run([sys.executable, "-c", GRAB, str(shot)], env=os.environ | {"DISPLAY": display},
                                     capture_output=True, text=True, timeout=60)
            assert grabbed.returncode == 0, grabbed.stderr
            assert int(grabbed.stdout) > 20, "the screen shows the dealer's window, not a blank display"
        finally:
            code, err = stop(process, signal.SIGTERM)
        assert code == 0, err
    finally:
        xvfb.terminate()
        xvfb.wait(10)


def test_vnc_serves_the_screen_on_localhost_only(tmp_path):
    port = _free_port()
    process = start_run("--journal", str(tmp_path / "t.db"), "--vnc", str(port))
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as viewer:
            viewer.settimeout(10)
            greeting = viewer.recv(12)
        assert greeting.startswith(b"RFB 003.00"), greeting
        listening = subprocess.run(["ss", "-ltnH", f"sport = :{port}"], capture_output=True, text=True).stdout
        assert [line.split()[3] for line in listening.splitlines()] == [f"127.0.0.1:{port}"]
    finally:
        code, err = stop(process, signal.SIGTERM)
    assert code == 0, err
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()

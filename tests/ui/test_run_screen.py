"""`run` finds its screen before it creates anything: no display, no journal and no folder."""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from pit.trial.local_services import free_port
from ui.shell.run_screen import NoScreen, add_screen_arguments, choose_screen, opened_screen, window_size
from ui.shell.vnc_screen import VncTarget

ROOT = Path(__file__).resolve().parents[2]


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--autoplay", type=int, default=0)
    parser.add_argument("--size", default="1280x800")
    add_screen_arguments(parser)
    return parser.parse_args(argv)


def test_without_any_display_the_ways_on_are_listed():
    with pytest.raises(NoScreen) as refused:
        choose_screen(_args(), {})
    text = str(refused.value)
    for way in ("DISPLAY", "--platform eglfs", "linuxfb", "--vnc PORT", "--vnc-bind", "--autoplay N --screenshots DIR"):
        assert way in text


def test_a_display_that_names_no_x_server_is_refused_by_name():
    with pytest.raises(NoScreen, match=r"DISPLAY=:917: no X server runs on display 917"):
        choose_screen(_args(), {"DISPLAY": ":917"})
    with pytest.raises(NoScreen, match="is not an X display"):
        choose_screen(_args(), {"DISPLAY": "garbage"})


def test_an_unattended_autoplay_paints_offscreen_and_a_chosen_platform_is_kept():
    assert choose_screen(_args("--autoplay", "3"), {}).platform == "offscreen"
    assert choose_screen(_args(), {"QT_QPA_PLATFORM": "offscreen"}).platform is None  # Qt reads it itself


def test_vnc_listens_on_localhost_unless_told_and_excludes_a_platform():
    choice = choose_screen(_args("--vnc", "5999"), {})
    assert choice.vnc is not None and (choice.vnc.bind, choice.vnc.port) == ("127.0.0.1", 5999)
    assert choose_screen(_args("--vnc", "5999", "--vnc-bind", "0.0.0.0"), {}).vnc.bind == "0.0.0.0"
    with pytest.raises(NoScreen, match="two different screens"):
        choose_screen(_args("--vnc", "5999", "--platform", "linuxfb"), {})
    with pytest.raises(NoScreen, match="a port is a number from 1 to 65535"):
        choose_screen(_args("--vnc", "70000"), {})


def test_a_vnc_screen_says_where_it_listens_and_how_to_reach_it(capsys):
    port = free_port()
    environ: dict[str, str] = {}
    with opened_screen(choose_screen(_args("--vnc", str(port)), {}), environ):
        said = capsys.readouterr().err
    assert f"VNC on 127.0.0.1:{port}" in said and "this computer only" in said
    assert f"ssh -L {port}:localhost:{port} {socket.gethostname()}" in said, "how to reach it from another computer"
    from ui.shell.vnc_screen import vnc_reach

    elsewhere = vnc_reach(VncTarget(port, "0.0.0.0", 1280, 800))
    assert f"VNC on 0.0.0.0:{port}" in elsewhere and "every network interface" in elsewhere


def test_a_framebuffer_platform_needs_its_device():
    if Path("/dev/fb0").exists():
        pytest.skip("this machine has a framebuffer")
    with pytest.raises(NoScreen, match=r"no framebuffer \(/dev/fb0\)"):
        choose_screen(_args("--platform", "linuxfb"), {})


def test_window_size_names_the_bad_value():
    assert window_size("1920x1080") == (1920, 1080)
    with pytest.raises(ValueError, match="--size 'big'"):
        window_size("big")


@pytest.mark.slow
def test_run_without_a_display_exits_2_and_creates_nothing(tmp_path):
    """As on a fresh machine: no DISPLAY, no Qt platform, an empty home."""
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": os.environ["PATH"], "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "ui.cli", "run", "--profile", "c21-8.0"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert "there is no screen" in done.stderr and "Nothing was created" in done.stderr
    assert "Traceback" not in done.stderr
    assert list(home.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["home"]

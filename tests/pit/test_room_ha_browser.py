"""`dealer-assist room --ha` in a browser: the floor served by the pit service that does not ingest
shows a table's change within 1 s of its being stored (the ingesting one's NOTIFY reaches every
instance's event stream)."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from web_browser import chromium, tile_text

from pit.trial.local_services import PostgresCluster, free_port
from tests.pit.test_room import _api, _lines, _until, stopped

pytestmark = pytest.mark.slow
CHANGES = 4


def _health(dashboard: str) -> dict[str, object]:
    with urllib.request.urlopen(dashboard + "api/health", timeout=5) as answer:
        return dict(json.loads(answer.read()))


def _shown(tile: str) -> tuple[str, str] | None:
    """(round, phase) as a tile shows them."""
    found = re.search(r"Round\s+(\S+)\s+·\s+(.+)", tile)
    return (found[1], found[2].strip()) if found else None


def test_a_tile_changes_within_a_second_on_the_pit_that_does_not_ingest(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="da-room-ha-", dir="/tmp"))  # reachable by `nobody` when we are root
    folder.chmod(0o755)
    room = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "room",
            "--ha",
            "--tables",
            "2",
            "--http",
            f"127.0.0.1:{free_port(2)}",
            "--data",
            str(folder / "room"),
            "--pace",
            "0.5",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    stored: dict[tuple[str, str], float] = {}  # (round, phase) of T01 -> when the ingesting pit's API first had it
    watching = threading.Event()
    try:
        assert room.stdout is not None
        started = json.loads(_until(_lines(room.stdout), "Ctrl-C stops everything.", 180)[0])
        dashboards = started["dashboards"]
        deadline = time.monotonic() + 60
        while sorted(str(_health(d)["role"]) for d in dashboards) != ["ingest", "standby"]:
            assert time.monotonic() < deadline, "no pit service took the ingest lock"
            time.sleep(0.5)
        ingesting = next(d for d in dashboards if _health(d)["role"] == "ingest")
        standby = next(d for d in dashboards if d != ingesting)
        token = subprocess.run(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "pit",
                "token",
                "add",
                "test",
                "--role",
                "manager",
                "--db",
                started["store"],
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()

        def watch() -> None:
            while not watching.is_set():
                for tile in _api(ingesting + "api/tables", token):  # type: ignore[attr-defined]
                    if tile["table_id"] == "T01" and tile["round_id"] is not None:
                        shown = (str(tile["round_id"]), str(tile["phase"] or "—").replace("_", " "))
                        stored.setdefault(shown, time.time())
                time.sleep(0.02)

        threading.Thread(target=watch, daemon=True).start()
        with chromium(tmp_path) as driver:
            driver.get(standby + "login")
            driver.find_element(By.NAME, "name").send_keys(started["login"]["name"])
            driver.find_element(By.NAME, "password").send_keys(started["login"]["password"])
            driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "tile-T01"))
            delays = []
            before = _shown(tile_text(driver, "T01"))
            while len(delays) < CHANGES:  # the round or its phase: the tile's other lines change at other times
                WebDriverWait(driver, 30, poll_frequency=0.02).until(lambda d: _shown(tile_text(d, "T01")) != before)
                seen, before = time.time(), _shown(tile_text(driver, "T01"))
                if before is not None and before in stored:
                    delays.append(seen - stored[before])
        assert max(delays) < 1.0, f"the standby pit's floor showed changes {delays} s after they were stored"
        watching.set()
        time.sleep(0.5)  # the watcher's last look is over before the room stops
        room.send_signal(signal.SIGINT)
        assert room.wait(120) == 0
    finally:
        watching.set()
        stopped(room)
        for name in ("postgres", "postgres-2"):
            PostgresCluster(folder / "room" / name).stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)

"""`dealer-assist room`: the whole card room from one command, and Ctrl-C stops all of it."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from dealer_assist.journal.journal_file import verify
from pit.trial.local_services import PostgresCluster, free_port
from pit.trial.room import ROOT_DATA, default_folder, table_ids


def test_the_room_folder_is_reachable_by_the_unprivileged_store_when_run_as_root() -> None:
    assert (default_folder() == ROOT_DATA) == (os.geteuid() == 0)
    assert table_ids(3) == ["T01", "T02", "T03"]


def _api(url: str, token: str) -> object:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


@pytest.mark.slow
def test_a_room_of_two_tables_deals_ships_and_stops_on_ctrl_c() -> None:
    folder = Path(tempfile.mkdtemp(prefix="da-room-", dir="/tmp"))  # reachable by `nobody` when we are root
    folder.chmod(0o755)
    http = f"127.0.0.1:{free_port()}"
    room = subprocess.Popen([sys.executable, "-m", "ui.cli", "room", "--tables", "2", "--http", http, "--data",
                             str(folder / "room"), "--pace", "0.01"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert room.stdout is not None
        first = room.stdout.readline()
        assert first, room.stderr.read() if room.stderr else "the room printed nothing"
        started = json.loads(first)
        assert started["dashboard"] == f"http://{http}/" and started["login"]["name"] == "manager"
        assert len(started["login"]["password"]) >= 12
        token = subprocess.run([sys.executable, "-m", "ui.cli", "pit", "token", "add", "test", "--role", "manager",
                                "--db", started["store"]], capture_output=True, text=True, check=True).stdout.strip()
        deadline, tables = time.monotonic() + 90, []
        while time.monotonic() < deadline:
            tables = _api(started["dashboard"] + "api/tables", token)  # type: ignore[assignment]
            if len(tables) == 2 and all((t.get("round_id") or 0) >= 2 for t in tables):
                break
            time.sleep(1)
        assert sorted(t["table_id"] for t in tables) == ["T01", "T02"], tables
        assert all((t.get("round_id") or 0) >= 2 for t in tables), tables
        assert all(t["devices"].get("shoe") == "up" for t in tables), tables  # the tiles' device lights
        room.send_signal(signal.SIGINT)
        assert room.wait(90) == 0
    finally:
        if room.poll() is None:
            room.kill()
            room.wait()
        PostgresCluster(folder / "room" / "postgres").stop("immediate")
    left = subprocess.run(["pgrep", "-f", str(folder)], capture_output=True, text=True).stdout.split()
    verdicts = {table_id: verify(folder / "room" / "tables" / f"{table_id}.db") for table_id in ("T01", "T02")}
    logs = {table_id: (folder / "room" / "logs" / f"table-{table_id}.log").read_text(errors="replace")[-2000:]
            for table_id in verdicts}
    shutil.rmtree(folder, ignore_errors=True)
    assert left == [], "processes of the room outlived it"
    for table_id, verdict in verdicts.items():  # closed and sealed
        assert verdict.ok and verdict.message.endswith("records intact"), (table_id, verdict.message, logs[table_id])

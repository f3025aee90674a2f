"""`dealer-assist room --head-office --rooms 2 --tables 2`: a head office and two rooms on one machine, the
same table ids in both rooms, every table shown once per room at the head office; Ctrl-C stops it all."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pit.trial.local_services import PostgresCluster, free_port

pytestmark = pytest.mark.slow


def _api(url: str, token: str) -> object:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


def test_a_head_office_and_two_rooms_deal_and_stop_on_ctrl_c() -> None:
    folder = Path(tempfile.mkdtemp(prefix="da-office-", dir="/tmp"))  # reachable by `nobody` when we are root
    folder.chmod(0o755)
    http = f"127.0.0.1:{free_port(3)}"
    trial = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "room",
            "--head-office",
            "--rooms",
            "2",
            "--tables",
            "2",
            "--http",
            http,
            "--data",
            str(folder),
            "--pace",
            "0.01",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    said: list[str] = []
    try:
        assert trial.stdout is not None
        while not said or "Ctrl-C stops everything." not in said[-1]:
            line = trial.stdout.readline()
            assert line, (said, trial.stderr.read() if trial.stderr else "")
            said.append(line.rstrip("\n"))
        started = json.loads(said[0])
        assert set(started["rooms"]) == {"room1", "room2"}
        assert all(room["tables"] == ["T01", "T02"] for room in started["rooms"].values())
        parts = dict(line.split(" ") for line in said[1:] if re.fullmatch(r"[a-z0-9-]+/[a-zA-Z0-9-]+ \d+", line))
        assert {"head-office/nats-1", "head-office/pit-1", "room1/nats-1", "room2/pit-1", "room2/table-T02"} <= set(
            parts
        )
        creds = folder / "head-office" / "leaf-creds"
        assert {p.name for p in creds.iterdir()} == {"room1.leaf-creds", "room2.leaf-creds"}
        assert all(p.stat().st_mode & 0o777 == 0o600 for p in creds.iterdir())
        ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
        passwords = [json.loads(p.read_text())["leaf_password"] for p in creds.iterdir()]
        assert not any(password in ps for password in passwords), "a leaf password on a command line"
        office = started["head_office"]
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
                office["store"],
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        deadline, tiles = time.monotonic() + 120, list[dict[str, Any]]()
        while time.monotonic() < deadline:
            tiles = _api(office["dashboard"] + "api/tables", token)  # type: ignore[assignment]
            if len(tiles) == 4 and all((t.get("round_id") or 0) >= 1 and t["link"] == "live" for t in tiles):
                break
            time.sleep(1)
        assert sorted((t["room"], t["table_id"]) for t in tiles) == [
            ("room1", "T01"),
            ("room1", "T02"),
            ("room2", "T01"),
            ("room2", "T02"),
        ], tiles
        assert all((t.get("round_id") or 0) >= 1 and t["link"] == "live" for t in tiles), tiles
        trial.send_signal(signal.SIGINT)
        assert trial.wait(120) == 0
    finally:
        if trial.poll() is None:
            trial.kill()
            trial.wait()
        for name in ("head-office", "room1", "room2"):
            PostgresCluster(folder / name / "postgres").stop("immediate")
    left = subprocess.run(["pgrep", "-f", str(folder)], capture_output=True, text=True).stdout.split()
    shutil.rmtree(folder, ignore_errors=True)
    assert left == [], "processes of the trial outlived it"

"""`dealer-assist room`: the whole card room from one command, and Ctrl-C stops all of it."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

import pytest

from dealer_assist.journal.journal_file import last_seq, read_records, record_at, verify
from pit.stream.wire import journal_identity
from pit.trial.local_services import PostgresCluster, free_port
from pit.trial.room import ROOT_DATA, Room, RoomError, default_folder, table_ids


def test_the_room_folder_is_reachable_by_the_unprivileged_store_when_run_as_root() -> None:
    assert (default_folder() == ROOT_DATA) == (os.geteuid() == 0)
    assert table_ids(3) == ["T01", "T02", "T03"]


def test_a_free_port_is_outside_the_range_outgoing_connections_take_theirs_from() -> None:
    low, high = (int(bound) for bound in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    for _ in range(50):
        port = free_port(2)
        assert not low <= port <= high and not low <= port + 1 <= high
        for offset in (0, 1):
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", port + offset))


def test_a_taken_port_for_the_second_pit_is_refused_before_any_part_starts(tmp_path: Path) -> None:
    port = free_port(2)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port + 1))
        taken.listen()
        room = Room(tmp_path / "room", 1, f"127.0.0.1:{port}", ha=True, say=lambda line: None)
        with pytest.raises(
            RoomError,
            match=rf"port {port + 1} \(pit-2's dashboard, the port after --http's\)"
            r" cannot be used: Address already in use",
        ):
            room.start()
    assert not (tmp_path / "room").exists() and room.children == {}, "nothing was started or made"


def _api(url: str, token: str) -> object:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read())


@pytest.mark.slow
def test_a_room_of_two_tables_deals_ships_and_stops_on_ctrl_c() -> None:
    folder = Path(tempfile.mkdtemp(prefix="da-room-", dir="/tmp"))  # reachable by `nobody` when we are root
    folder.chmod(0o755)
    http = f"127.0.0.1:{free_port()}"
    # Started with SIGINT ignored, as a script's background job is (`dealer-assist room &`): Ctrl-C
    # stops it all the same.
    room = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "room",
            "--tables",
            "2",
            "--http",
            http,
            "--data",
            str(folder / "room"),
            "--pace",
            "0.01",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    try:
        assert room.stdout is not None
        first = room.stdout.readline()
        assert first, room.stderr.read() if room.stderr else "the room printed nothing"
        started = json.loads(first)
        assert started["dashboard"] == f"http://{http}/" and started["login"]["name"] == "manager"
        assert len(started["login"]["password"]) >= 12
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
    logs = {
        table_id: (folder / "room" / "logs" / f"table-{table_id}.log").read_text(errors="replace")[-2000:]
        for table_id in verdicts
    }
    shutil.rmtree(folder, ignore_errors=True)
    assert left == [], "processes of the room outlived it"
    for table_id, verdict in verdicts.items():  # closed and sealed
        assert verdict.ok and verdict.message.endswith("records intact"), (table_id, verdict.message, logs[table_id])


def _lines(stream: IO[str]) -> queue.Queue[str]:
    """The room's output, line by line, as it comes."""
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in stream], daemon=True).start()
    return lines


def _until(lines: queue.Queue[str], wanted: str, timeout: float) -> list[str]:
    seen, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            seen.append(lines.get(timeout=0.5).rstrip("\n"))
        except queue.Empty:
            continue
        if wanted in seen[-1]:
            return seen
    raise AssertionError(f"the room did not say {wanted!r} within {timeout:.0f} s: {seen}")


@pytest.mark.slow
def test_the_rooms_broker_killed_the_tables_deal_on_it_is_started_again_and_every_journal_ends_witnessed() -> None:
    folder = Path(tempfile.mkdtemp(prefix="da-room-", dir="/tmp"))  # reachable by `nobody` when we are root
    folder.chmod(0o755)
    http = f"127.0.0.1:{free_port()}"
    room = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "room",
            "--tables",
            "2",
            "--http",
            http,
            "--data",
            str(folder / "room"),
            "--pace",
            "0.01",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    tables = folder / "room" / "tables"
    try:
        assert room.stdout is not None
        lines = _lines(room.stdout)
        said = _until(lines, "Ctrl-C stops everything.", 120)
        started = json.loads(said[0])
        parts = dict(line.split(" ") for line in said[1:] if re.fullmatch(r"[a-zA-Z0-9-]+ \d+", line))
        assert {"nats-1", "postgres-1", "pit-1", "table-T01", "table-T02"} <= set(parts)
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
        deadline = time.monotonic() + 90
        while not all((t.get("round_id") or 0) >= 2 for t in _api(started["dashboard"] + "api/tables", token)):  # type: ignore[attr-defined]
            assert time.monotonic() < deadline, "the tables did not deal two rounds"
            time.sleep(0.5)
        dealt = {table: last_seq(tables / f"{table}.db") for table in ("T01", "T02")}
        os.kill(int(parts["nats-1"]), signal.SIGKILL)
        said = _until(lines, "nats-1 stopped", 30)
        assert re.search(r"started again: nats-1 \d+$", said[-1]), said[-1]
        after = {table: last_seq(tables / f"{table}.db") for table in dealt}
        assert all(after[table] > dealt[table] for table in dealt), (dealt, after)  # dealt on without the broker
        for table in dealt:
            assert "pit: down · " in (folder / "room" / "logs" / f"table-{table}.log").read_text(errors="replace")
            journal = journal_identity(next(read_records(tables / f"{table}.db")))
            deadline = time.monotonic() + 60
            while int(_witnessed(started["dashboard"], journal, token)["records"]) < after[table]:
                assert time.monotonic() < deadline, f"{table}'s records of the outage were not witnessed"
                time.sleep(0.5)
            witnessed = _witnessed(started["dashboard"], journal, token)
            assert witnessed["head"] == record_at(tables / f"{table}.db", int(witnessed["records"])).hash.hex()
        room.send_signal(signal.SIGINT)
        assert room.wait(90) == 0
    finally:
        stopped(room)
        PostgresCluster(folder / "room" / "postgres").stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)


def stopped(room: subprocess.Popen[str]) -> None:
    """A room a failed test leaves running is stopped as Ctrl-C stops it, which stops its parts too."""
    if room.poll() is None:
        room.send_signal(signal.SIGINT)
        try:
            room.wait(120)
        except subprocess.TimeoutExpired:
            room.kill()
            room.wait()


def _witnessed(dashboard: str, journal: str, token: str) -> dict[str, object]:
    try:
        return dict(_api(f"{dashboard}api/witness/{journal}", token))  # type: ignore[call-overload]
    except urllib.error.HTTPError:
        return {"records": 0}

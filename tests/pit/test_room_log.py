"""A trial room's public log (PIT.md §9): `room` starts the log's witnesses as parts of its own, and a
round is proven from the running pit with `proof round` and verified offline with `proof verify`, the
commands a banker types, across a witness killed and started again."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from dealer_assist.journal.journal_file import read_records
from pit.stream.wire import journal_identity
from pit.trial.local_services import PostgresCluster, free_port
from tests.pit.test_room import _api, _lines, _until, stopped


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.slow
def test_a_room_proves_a_round_with_a_witness_killed_and_started_again_and_a_banker_verifies_it() -> None:
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
            "1",
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
    try:
        assert room.stdout is not None
        lines = _lines(room.stdout)
        said = _until(lines, "Ctrl-C stops everything.", 120)
        started = json.loads(said[0])
        parts = dict(line.split(" ") for line in said[1:] if re.fullmatch(r"[a-zA-Z0-9-]+ \d+", line))
        assert {"witness-1", "witness-2", "pit-1", "table-T01"} <= set(parts)
        policy = started["log_policy"]
        assert any(f"log policy:  {policy}" in line for line in said)
        token_file = folder / "token"
        token = _cli("pit", "token", "add", "banker", "--role", "manager", "--db", started["store"]).stdout.strip()
        token_file.write_text(token)
        journal = journal_identity(next(read_records(folder / "room" / "tables" / "T01.db")))
        os.kill(int(parts["witness-1"]), signal.SIGKILL)
        said = _until(lines, "witness-1 stopped", 30)
        assert re.search(r"started again: witness-1 \d+$", said[-1]), said[-1]
        deadline = time.monotonic() + 90
        while not (
            int(
                _api(started["dashboard"] + "api/tables", token)[0].get("round_id")  # type: ignore[index]
                or 0
            )
            >= 3
        ):
            assert time.monotonic() < deadline, "the table did not deal three rounds"
            time.sleep(0.5)
        proof_file, verified = folder / "round-2.json", ""
        deadline = time.monotonic() + 90
        while "witness-1 at" not in verified or "witness-2 at" not in verified:  # both cosign, the restarted one too
            assert time.monotonic() < deadline, f"round 2 was not proven with both witnesses: {verified}"
            time.sleep(1)
            fetched = _cli(
                "proof",
                "round",
                "--pit",
                started["dashboard"],
                "--token",
                str(token_file),
                "--journal",
                journal,
                "--round",
                "2",
                "-o",
                str(proof_file),
            )
            if fetched.returncode != 0:  # 409 until a published checkpoint covers round 2
                assert fetched.returncode == 1 and "the pit answered 409" in fetched.stderr, fetched.stderr
                continue
            assert fetched.stdout == f"round 2 of journal {journal}: proof written to {proof_file}\n"
            checked = _cli("proof", "verify", str(proof_file), "--policy", policy, "--settle")
            assert checked.returncode == 0, checked.stderr
            verified = checked.stdout
        assert verified.startswith("round 2 proven: leaf ") and verified.endswith(
            "its ledger replays from its records\n"
        )
        page = urllib.request.Request(f"{started['dashboard']}tables/T01", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(page, timeout=10) as answer:  # the dashboard's table page offers the same file
            link = re.search(rf'<a class="proof" href="(/api/proof/{journal}/2)" download>', answer.read().decode())
        assert link, "no proof link for round 2 on the table page"
        offered = urllib.request.Request(
            started["dashboard"].rstrip("/") + link.group(1), headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(offered, timeout=10) as answer:
            assert answer.headers["Content-Disposition"] == 'attachment; filename="round-T01-2.proof.json"'
            assert json.loads(answer.read())["leaf"] == json.loads(proof_file.read_text())["leaf"]
        unknown = _cli(
            "proof",
            "round",
            "--pit",
            started["dashboard"],
            "--token",
            str(token_file),
            "--journal",
            journal,
            "--round",
            "99999",
            "-o",
            str(folder / "none.json"),
        )
        assert unknown.returncode == 1 and "the pit answered 404" in unknown.stderr
        assert not (folder / "none.json").exists()
        room.send_signal(signal.SIGINT)
        assert room.wait(90) == 0
    finally:
        stopped(room)
        PostgresCluster(folder / "room" / "postgres").stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)

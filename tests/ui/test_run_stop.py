"""`run` stops cleanly, one at a time: closing the window, SIGTERM and Ctrl-C each close the table
and seal its journal; a second run on a journal in use, or one that names another table, is refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from dealer_assist.journal.journal_file import seal_path, verify
from dealer_assist.journal.lock import lock_path
from dealer_assist.table.header import table_config
from ui.dealer.dealer_window import DealerWindow
from ui.shell.run_command import main

ROOT = Path(__file__).resolve().parents[2]


def _sealed_and_intact(journal: Path) -> bool:
    return seal_path(journal).exists() and verify(journal).ok and not lock_path(journal).exists()


def test_closing_the_window_ends_run_and_seals_the_journal(qapp, tmp_path, capsys):
    journal = tmp_path / "t.db"
    earlier = set(QApplication.topLevelWidgets())

    def close_the_window() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, DealerWindow) and w not in earlier]
        if not windows:
            QTimer.singleShot(50, close_the_window)
            return
        windows[0].close()

    QTimer.singleShot(50, close_the_window)
    assert main(["--journal", str(journal), "--seed", "2"]) == 0
    assert _sealed_and_intact(journal)
    assert f"the window was closed; the journal is closed and sealed: {journal}" in capsys.readouterr().err


def test_a_start_that_names_another_table_is_refused_naming_both(qapp, tmp_path, capsys):
    journal = tmp_path / "t.db"
    assert main(["--journal", str(journal), "--profile", "c21-8.0", "--exit"]) == 0
    capsys.readouterr()
    assert main(["--journal", str(journal), "--profile", "nobust-4.0", "--exit"]) == 2
    err = capsys.readouterr().err
    assert "--profile says profile 'nobust-4.0', the journal's table has 'c21-8.0'" in err
    config = tmp_path / "table.toml"
    config.write_text(f'table_id = "T9"\nprofile = "c21-8.0"\njournal = "{journal}"\n')
    assert main(["--config", str(config), "--exit"]) == 2
    assert "says table_id 'T9', the journal's table has 'TABLE-1'" in capsys.readouterr().err
    assert main(["--journal", str(journal), "--exit"]) == 0, "resuming without naming a table is fine"
    assert table_config(journal).profile == "c21-8.0"


def test_a_lock_left_by_a_dead_process_is_taken_over_and_said(qapp, tmp_path, capsys):
    journal = tmp_path / "t.db"
    lock_path(journal).write_text('{"pid": 999999, "host": "table-pc", "started": "2026-01-02T03:04:05+00:00"}')
    assert main(["--journal", str(journal), "--exit"]) == 0
    assert "left locked by process 999999 on table-pc" in capsys.readouterr().err
    assert _sealed_and_intact(journal)


def start_run(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`dealer-assist run` in its own process; returns once it has opened its journal."""
    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "run", *args],
        cwd=ROOT,
        text=True,
        env=base | {"PYTHONPATH": str(ROOT)} | (env or {}),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    said = [process.stderr.readline()]  # a VNC screen says where it listens first
    while said[-1] and "dealer-assist run: journal" not in said[-1]:
        said.append(process.stderr.readline())
    assert said[-1], "".join(said)
    return process


def stop(process: subprocess.Popen[str], number: signal.Signals) -> tuple[int, str]:
    time.sleep(1.0)  # the screen is up and dealing
    process.send_signal(number)
    _, err = process.communicate(timeout=30)
    return process.returncode, err


@pytest.mark.slow
@pytest.mark.parametrize("number, said", [(signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "Ctrl-C")])
def test_sigterm_and_ctrl_c_close_the_table_and_seal_the_journal(tmp_path, number, said):
    journal = tmp_path / "t.db"
    process = start_run("--journal", str(journal), "--seed", "4", env={"QT_QPA_PLATFORM": "offscreen"})
    code, err = stop(process, number)
    assert code == 0, err
    assert f"{said}" in err and "sealed" in err and "Traceback" not in err
    assert _sealed_and_intact(journal)


@pytest.mark.slow
def test_a_second_run_on_a_journal_in_use_exits_2_naming_the_first(tmp_path):
    journal = tmp_path / "t.db"
    first = start_run("--journal", str(journal), env={"QT_QPA_PLATFORM": "offscreen"})
    try:
        second = subprocess.run(
            [sys.executable, "-m", "ui.cli", "run", "--journal", str(journal), "--exit"],
            cwd=ROOT,
            env=os.environ | {"PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 2
        assert f"is in use by process {first.pid} on " in second.stderr
    finally:
        code, err = stop(first, signal.SIGTERM)
    assert code == 0, err
    assert _sealed_and_intact(journal)


@pytest.mark.slow
def test_every_command_that_writes_a_journal_is_refused_while_run_holds_it(tmp_path):
    journal = tmp_path / "t.db"
    first = start_run("--journal", str(journal), env={"QT_QPA_PLATFORM": "offscreen"})
    try:
        for bench in (["--resume"], []):
            done = subprocess.run(
                [sys.executable, "-m", "ui.cli", "bench", "--journal", str(journal), "--rounds", "1", *bench],
                cwd=ROOT,
                env=os.environ | {"PYTHONPATH": str(ROOT)},
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 2, done.stdout + done.stderr
            error = json.loads(done.stdout)["error"]
            if bench:  # a resume reaches the journal and finds it held
                assert error["code"] == "journal_in_use" and f"is in use by process {first.pid} on " in error["message"]
            else:  # a new bench journal is never written over, held or not
                assert error["code"] == "journal_exists"
    finally:
        code, err = stop(first, signal.SIGTERM)
    assert code == 0, err
    assert _sealed_and_intact(journal)

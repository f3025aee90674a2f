"""The shipped systemd unit: valid for systemd, restarting after a crash but not after a refusal,
and starting `run` with arguments `run` accepts."""

from __future__ import annotations

import configparser
import shlex
import subprocess
import sys
from pathlib import Path

from ui.shell.run_command import _parser

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "dealer-assist.service"
INSTALLED = "/opt/dealer-assist"


def _service() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text())
    return parser["Service"]


def test_the_unit_restarts_after_a_crash_and_not_after_a_refusal():
    service = _service()
    assert service["Restart"] == "on-failure" and service["RestartPreventExitStatus"] == "2"
    assert service["KillSignal"] == "SIGTERM"


def test_the_unit_starts_run_with_arguments_run_accepts():
    command = shlex.split(_service()["ExecStart"])
    assert command[0] == f"{INSTALLED}/.venv/bin/dealer-assist" and command[1] == "run"
    args = _parser().parse_args(command[2:])
    assert args.config == Path("/etc/dealer-assist/table.toml") and args.platform == "eglfs" and args.kiosk


def test_systemd_analyze_verifies_the_unit(tmp_path):
    unit = tmp_path / UNIT.name
    executable = Path(sys.executable).parent / "dealer-assist"
    unit.write_text(
        UNIT.read_text()
        .replace(f"{INSTALLED}/.venv/bin/dealer-assist", str(executable))
        .replace(f"WorkingDirectory={INSTALLED}", f"WorkingDirectory={ROOT}")
    )
    done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    complaints = [line for line in done.stderr.splitlines() if UNIT.name in line]
    assert complaints == [], complaints

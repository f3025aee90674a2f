"""Nobody gets in by being first: a table's first PIN is set where it is set up (`pin set`, or the
table file's hash), `run` with real devices refuses a table without one and says how, and a PIN a
tool set (the bench, an emulated table) is printed and never dealt live."""

from __future__ import annotations

import fcntl
import io
import json
import os
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from dealer_assist.commands.pin import main as pin_command
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.table.pins import bench_pin
from hw_sims.bench_command import main as bench
from hw_sims.endpoints import PtyEndpoint
from hw_sims.shoe import ShoeEmulator
from ui.shell.run_command import main as run


def _pins_set(journal) -> list[str]:
    return [
        r.body["by"] for r in read_records(journal) if r.kind is RecordKind.SECURITY and r.body["event"] == "pin_set"
    ]


def _pin(monkeypatch, capsys, stdin: str, *args: str) -> tuple[int, dict]:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = pin_command(list(args))
    return code, json.loads(capsys.readouterr().out)


def _live(journal, *extra: str) -> int:
    """`run` on real devices: a shoe on a pseudo-terminal, the screen opened and closed at once."""
    shoe = ShoeEmulator(PtyEndpoint(), pace=None, seed=1)
    shoe.start()
    try:
        return run(["--journal", str(journal), "--shoe", shoe.endpoint.url, "--exit", *extra])
    finally:
        shoe.stop()


def test_a_live_table_without_a_pin_is_refused_saying_how_and_pin_set_lets_it_deal(qapp, tmp_path, monkeypatch, capsys):
    journal = tmp_path / "T1.db"
    assert _live(journal, "--table-id", "T1") == 2
    err = capsys.readouterr().err
    assert "table T1 has no supervisor PIN" in err and f"dealer-assist pin set --journal {journal}" in err
    assert not journal.exists(), "the refused run left no journal"
    code, said = _pin(monkeypatch, capsys, "4821\n", "set", "--journal", str(journal), "--table-id", "T1")
    assert code == 0 and said == {"pin_set": {"journal": str(journal), "table_id": "T1"}}
    assert _live(journal) == 0
    assert _pins_set(journal) == ["setup"]
    code, said = _pin(monkeypatch, capsys, "1111\n5093\n", "set", "--journal", str(journal))
    assert code == 2 and said["error"]["code"] == "wrong_pin", "a change needs the current PIN"
    code, said = _pin(monkeypatch, capsys, "4821\n5093\n", "set", "--journal", str(journal))
    assert code == 0 and _pins_set(journal) == ["setup", "setup"]


def test_the_table_files_hash_is_the_first_pin_and_never_the_pin_itself(qapp, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("4821\n"))
    assert pin_command(["hash"]) == 0
    hashed = capsys.readouterr().out.strip()
    assert hashed.startswith("scrypt$") and "4821" not in hashed
    config = tmp_path / "table.toml"
    config.write_text(
        f'table_id = "T2"\nprofile = "c21-8.0"\njournal = "{tmp_path / "T2.db"}"\nsupervisor_pin = "{hashed}"\n'
    )
    assert _live(tmp_path / "T2.db", "--config", str(config)) == 0
    assert _pins_set(tmp_path / "T2.db") == ["table file"]
    code, said = _pin(monkeypatch, capsys, "4821\n7305\n", "set", "--config", str(config))
    assert code == 0 and said["pin_set"]["table_id"] == "T2", "the table file's PIN opens the change"


def test_an_emulated_table_is_given_a_printed_pin_and_never_deals_live_with_it(qapp, tmp_path, monkeypatch, capsys):
    journal = tmp_path / "B.db"
    assert run(["--journal", str(journal), "--exit"]) == 0
    err = capsys.readouterr().err
    header = next(iter(read_records(journal))).hash
    assert f"this emulated table's supervisor PIN is {bench_pin(header)}, set by the bench" in err
    assert _pins_set(journal) == ["bench"]
    assert _live(journal) == 2
    assert "supervisor PIN was set by the bench and printed" in capsys.readouterr().err
    code, _ = _pin(monkeypatch, capsys, f"{bench_pin(header)}\n9134\n", "set", "--journal", str(journal))
    assert code == 0 and _live(journal) == 0


def test_the_bench_prints_the_pin_it_gives_a_journal(tmp_path, capsys):
    journal = tmp_path / "bench.db"
    assert bench(["--journal", str(journal), "--rounds", "1", "--seed", "3"]) == 0
    header = next(iter(read_records(journal))).hash
    assert f"this bench journal's supervisor PIN is {bench_pin(header)}" in capsys.readouterr().err
    assert _pins_set(journal) == ["bench"]
    assert bench(["--journal", str(journal), "--rounds", "2", "--seed", "3", "--resume"]) == 0
    assert "supervisor PIN" not in capsys.readouterr().err and _pins_set(journal) == ["bench"], (
        "the same PIN on a resume"
    )


def test_run_on_a_bench_journal_names_the_journals_table_not_its_own_default(qapp, tmp_path, capsys):
    journal = tmp_path / "bench.db"
    assert bench(["--journal", str(journal), "--rounds", "1", "--seed", "3"]) == 0
    capsys.readouterr()
    assert run(["--journal", str(journal), "--exit"]) == 0
    err = capsys.readouterr().err
    assert f"journal {journal} (table BENCH-1, nobust-4.0)" in err and "TABLE-1" not in err


def test_autoplay_prints_the_pin_it_gives_a_new_journal(qapp, tmp_path, capsys):
    journal = tmp_path / "auto.db"
    assert run(["--journal", str(journal), "--autoplay", "1", "--exit"]) == 0
    header = next(iter(read_records(journal))).hash
    assert f"supervisor PIN is {bench_pin(header)}, set by the bench" in capsys.readouterr().err
    assert _pins_set(journal) == ["bench"]


WEAK = ("0000", "1111", "1234", "4321", "7890", "987654")


def test_pin_set_from_a_pipe_refuses_a_guessable_pin_and_opens_no_journal(tmp_path, monkeypatch, capsys):
    journal = tmp_path / "T1.db"
    for pin in WEAK:
        code, said = _pin(monkeypatch, capsys, f"{pin}\n", "set", "--journal", str(journal), "--table-id", "T1")
        assert code == 2 and said["error"]["code"] == "bad_pin", pin
        assert "digits in a row" in said["error"]["message"]
    assert not journal.exists(), "refused before the table is opened"
    code, said = _pin(monkeypatch, capsys, "4821\n", "set", "--journal", str(journal), "--table-id", "T1")
    assert code == 0
    code, said = _pin(monkeypatch, capsys, "4821\n1234\n", "set", "--journal", str(journal))
    assert code == 2 and said["error"]["code"] == "bad_pin", "a change to a guessable PIN too"
    assert _pins_set(journal) == ["setup"]


def test_pin_set_records_the_pin_change_and_nothing_else(tmp_path, monkeypatch, capsys):
    journal = tmp_path / "T1.db"
    for stdin in ("4821\n", "4821\n7305\n", "7305\n4821\n"):
        before = len(list(read_records(journal))) if journal.exists() else 0
        code, _ = _pin(monkeypatch, capsys, stdin, "set", "--journal", str(journal), "--table-id", "T1")
        assert code == 0
        added = list(read_records(journal))[before:]
        assert [r.kind for r in added if r.kind is not RecordKind.TABLE] == [RecordKind.SECURITY] * len(stdin.split())
        assert RecordKind.RESUMED not in [r.kind for r in added], "a PIN change is not the table resuming"
        assert [r.body["event"] for r in added if r.kind is RecordKind.SECURITY][-1] == "pin_set"


def _at_a_terminal(args: list[str], typed: list[str]) -> tuple[int, str]:
    """`dealer-assist pin ARGS` on a pseudo-terminal of its own, each entry typed when it is asked for."""
    main, child = os.openpty()

    def own_terminal() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    process = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "pin", *args],
        stdin=child,
        stdout=child,
        stderr=child,
        start_new_session=True,
        preexec_fn=own_terminal,
        cwd=Path(__file__).parents[2],
    )
    os.close(child)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        for entry in typed:
            while not seen.rstrip().endswith(b":"):
                assert select.select([main], [], [], max(0.0, deadline - time.monotonic()))[0], seen
                seen += os.read(main, 1024)
            os.write(main, entry.encode() + b"\r")
            seen = b""
        out = b""
        while time.monotonic() < deadline and select.select([main], [], [], deadline - time.monotonic())[0]:
            try:
                chunk = os.read(main, 1024)
            except OSError:  # the terminal closed with the process
                break
            if not chunk:
                break
            out += chunk
        return process.wait(timeout=5), (seen + out).decode()
    finally:
        os.close(main)
        if process.poll() is None:
            process.kill()


@pytest.mark.slow
def test_pin_set_at_a_terminal_refuses_a_guessable_pin_as_a_pipe_does(tmp_path, monkeypatch, capsys):
    journal = tmp_path / "T1.db"
    code, piped = _pin(monkeypatch, capsys, "1234\n", "set", "--journal", str(journal), "--table-id", "T1")
    code, typed = _at_a_terminal(["set", "--journal", str(journal), "--table-id", "T1"], ["", "1234"])
    assert code == 2, typed
    assert json.dumps(piped["error"]["message"])[1:-1] in typed, "the same refusal, asked once"
    assert "New PIN again" not in typed and not journal.exists()

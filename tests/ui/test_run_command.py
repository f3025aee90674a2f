"""`dealer-assist run --autoplay N --screenshots DIR --exit` plays through the screens and quits."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QObject, Signal

from hw_sims.endpoints import PtyEndpoint
from hw_sims.shoe import ShoeEmulator
from ui.cli import COMMANDS
from ui.shell.run_command import main


def test_run_is_a_dealer_assist_command():
    assert COMMANDS["run"][0] == "ui.shell.run_command"


def test_autoplay_plays_rounds_and_saves_the_screens(qapp, tmp_path, capsys):
    shots = tmp_path / "shots"
    journal = tmp_path / "table.db"
    args = ["--journal", str(journal), "--profile", "c21-8.0", "--exit", "--seed", "5"]
    assert main([*args, "--autoplay", "3", "--screenshots", str(shots)]) == 0
    assert (
        f"run: autoplay played 3 rounds and --exit closed the table; the journal is closed and sealed: {journal}"
        in capsys.readouterr().err
    )
    names = sorted(p.name for p in shots.iterdir())
    assert [n for n in names if n.endswith("settlement.png")] == [f"round-0{i}-settlement.png" for i in (1, 2, 3)]
    assert "supervisor-recall.png" in names, "the supervisor's recall of the last round"
    assert all((shots / n).stat().st_size > 10_000 for n in names)
    from dealer_assist.journal.journal_file import verify

    assert verify(journal).ok


class _Receiver(QObject):
    sent = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.got: list[object] = []
        self.sent.connect(self.got.append)


def test_after_the_screen_closes_signals_from_device_threads_still_arrive(qapp, qtbot, tmp_path):
    """The screen runs a loop of its own: once app.exec() returns, Qt drops what threads queue."""
    assert main(["--journal", str(tmp_path / "t.db"), "--exit", "--seed", "5", "--autoplay", "1"]) == 0
    receiver = _Receiver()
    threading.Thread(target=lambda: receiver.sent.emit("card")).start()
    qtbot.waitUntil(lambda: receiver.got == ["card"], timeout=3000)


def test_an_unknown_profile_is_refused(qapp, capsys):
    assert main(["--profile", "nope", "--exit"]) == 2
    assert "unknown profile 'nope'" in capsys.readouterr().err


def test_a_table_file_sets_the_profile_and_the_journal(qapp, tmp_path, capsys):
    journal = tmp_path / "tables" / "T7.db"
    config = tmp_path / "table.toml"
    config.write_text(f'table_id = "T7"\nprofile = "sd-buster-c"\njournal = "{journal}"\n')
    assert main(["--config", str(config), "--exit"]) == 0
    assert "run: --exit closed the table once it was open; the journal is closed and sealed" in capsys.readouterr().err
    from dealer_assist.table.header import table_config

    assert table_config(journal).profile == "sd-buster-c" and table_config(journal).table_id == "T7"
    config.write_text('table_id = "T7"\ncolour = "green"\n')
    assert main(["--config", str(config), "--exit"]) == 2


def test_a_damaged_journal_is_refused_at_startup(qapp, tmp_path, capsys):
    journal = tmp_path / "bad.db"
    journal.write_bytes(b"not a journal at all" * 100)
    assert main(["--journal", str(journal), "--exit"]) == 2
    assert "damaged" in capsys.readouterr().err


def test_the_table_files_wager_reader_is_connected_and_named_in_the_journal(qapp, tmp_path, capsys):
    from dealer_assist.journal.journal_file import RecordKind, read_records
    from hw_sims.endpoints import PtyEndpoint
    from hw_sims.wagers import WagerEmulator

    reader = WagerEmulator(PtyEndpoint(), seats=8)
    reader.start()
    try:
        journal = tmp_path / "T8.db"
        config = tmp_path / "table.toml"
        config.write_text(f'table_id = "T8"\njournal = "{journal}"\nwagers = "{reader.endpoint.url}"\n')
        assert main(["--config", str(config), "--exit"]) == 0
    finally:
        reader.stop()
    header = next(read_records(journal))
    assert header.kind is RecordKind.TABLE and header.body["devices"]["wagers"] == reader.endpoint.url


def _files(folder) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes() if path.is_file() else b""
        for path in sorted(folder.rglob("*"))
    }


@pytest.mark.slow
def test_a_refused_run_leaves_no_journal_seal_lock_or_folder_behind(qapp, tmp_path, monkeypatch, capsys):
    """Refused after the table was opened (a live table without a PIN, a camera's calibration that
    cannot be read), on an argument, with no display, on a profile the journal does not have."""
    journal = tmp_path / "new" / "T1.db"
    shoe = ShoeEmulator(PtyEndpoint(), pace=None, seed=1)
    shoe.start()
    try:
        assert main(["--journal", str(journal), "--shoe", shoe.endpoint.url, "--exit"]) == 2
    finally:
        shoe.stop()
    assert "has no supervisor PIN" in capsys.readouterr().err
    refusals = [
        (["--camera", "emulated-not", "--calibration", str(tmp_path / "none.json")], "cannot be read"),
        (["--size", "big"], "--size 'big'"),
        (["--table-id", "a b"], "table id 'a b'"),
    ]
    for extra, said in refusals:
        assert main(["--journal", str(journal), "--exit", *extra]) == 2
        assert said in capsys.readouterr().err
    assert _files(tmp_path) == {}, "nothing made: no journal, seal, lock nor its folder"
    monkeypatch.delenv("QT_QPA_PLATFORM")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert main(["--journal", str(journal), "--exit"]) == 2
    assert "no screen" in capsys.readouterr().err and _files(tmp_path) == {}
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert main(["--journal", str(journal), "--exit", "--profile", "nobust-4.0"]) == 0
    before = _files(tmp_path)
    assert main(["--journal", str(journal), "--exit", "--profile", "c21-8.0"]) == 2
    assert "c21-8.0" in capsys.readouterr().err
    after = {name: data for name, data in _files(tmp_path).items() if not name.endswith(("-wal", "-shm"))}
    assert after == before, "a journal that was there is left as it was, sealed (SQLite's reading files aside)"

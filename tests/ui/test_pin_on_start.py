"""Nobody gets in by being first: a table's first PIN is set where it is set up (`pin set`, or the
table file's hash), `run` with real devices refuses a table without one and says how, and a PIN a
tool set (the bench, an emulated table) is printed and never dealt live."""
from __future__ import annotations

import io
import json

from dealer_assist.commands.pin import main as pin_command
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.table.pins import bench_pin
from hw_sims.bench_command import main as bench
from hw_sims.endpoints import PtyEndpoint
from hw_sims.shoe import ShoeEmulator
from ui.run_command import main as run


def _pins_set(journal) -> list[str]:
    return [r.body["by"] for r in read_records(journal) if r.kind is RecordKind.SECURITY and r.body["event"] == "pin_set"]


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
    assert _pins_set(journal) == []
    code, said = _pin(monkeypatch, capsys, "4821\n", "set", "--journal", str(journal))
    assert code == 0 and said == {"pin_set": {"journal": str(journal), "table_id": "T1"}}
    assert _live(journal) == 0
    assert _pins_set(journal) == ["setup"]
    code, said = _pin(monkeypatch, capsys, "1111\n2222\n", "set", "--journal", str(journal))
    assert code == 2 and said["error"]["code"] == "wrong_pin", "a change needs the current PIN"
    code, said = _pin(monkeypatch, capsys, "4821\n2222\n", "set", "--journal", str(journal))
    assert code == 0 and _pins_set(journal) == ["setup", "setup"]


def test_the_table_files_hash_is_the_first_pin_and_never_the_pin_itself(qapp, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("4821\n"))
    assert pin_command(["hash"]) == 0
    hashed = capsys.readouterr().out.strip()
    assert hashed.startswith("scrypt$") and "4821" not in hashed
    config = tmp_path / "table.toml"
    config.write_text(f'table_id = "T2"\nprofile = "c21-8.0"\njournal = "{tmp_path / "T2.db"}"\nsupervisor_pin = "{hashed}"\n')
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
    assert "supervisor PIN" not in capsys.readouterr().err and _pins_set(journal) == ["bench"], "the same PIN on a resume"


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

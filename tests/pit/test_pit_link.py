"""The table's pit options and its status line, checked without a broker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pit.shipping.link import PitLink, PitLinkError
from pit.shipping.shipper import LinkState, link_text
from pit.stream.broker import Identity


def test_several_urls_and_a_seed_file(tmp_path: Path) -> None:
    identity = Identity.new()
    creds = tmp_path / "t.creds"
    creds.write_text("# table T1\n" + identity.creds_file())
    link = PitLink.of("nats://10.0.0.1:4222, tls://pit.example:4443", creds)
    assert link.urls == ("nats://10.0.0.1:4222", "tls://pit.example:4443") and link.seed == identity.seed


@pytest.mark.parametrize(
    ("url", "creds", "named"),
    [
        ("http://pit:4222", "ok", "nats://HOST:PORT"),
        ("nats://pit:port", "ok", "port is not a number"),
        (" , ", "ok", "no broker URL"),
        ("nats://pit:4222", None, "needs --pit-creds"),
        ("nats://pit:4222", "missing", "cannot be read"),
        ("nats://pit:4222", "garbage", "NKEY user seed"),
    ],
)
def test_a_bad_url_or_creds_file_is_refused_by_name(tmp_path: Path, url: str, creds: str | None, named: str) -> None:
    files = {"ok": tmp_path / "ok.creds", "missing": tmp_path / "nope.creds", "garbage": tmp_path / "bad.creds"}
    files["ok"].write_text(Identity.new().creds_file())
    files["garbage"].write_text("not a seed\n")
    with pytest.raises(PitLinkError, match=named):
        PitLink.of(url, files[creds] if creds else None)


def test_the_status_line_says_up_down_and_what_is_left() -> None:
    assert link_text(LinkState(up=True, shipped=40, head=40)) == "pit: up"
    assert link_text(LinkState(up=False, shipped=40, head=352)) == "pit: down · 312 to send"
    assert link_text(LinkState(up=True, shipped=40, head=41)) == "pit: up · 1 to send"
    assert link_text(LinkState(up=True, head=9, divergence="behind")).startswith("pit: stopped")


@pytest.mark.parametrize(
    "argv",
    [
        ["--table-id", "T 1"],
        ["--table-id", "x" * 33],
        ["--pit", "nats://127.0.0.1:4222"],
        ["--pit-creds", "t.creds"],
    ],
)
def test_bench_refuses_a_bad_table_id_or_pit_at_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    from hw_sims.bench_command import main as bench

    code = bench(["--rounds", "1", "--journal", str(tmp_path / "t.db"), "--links", "in-process"] + argv)
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["code"] in {"bad_table_id", "bad_pit"}
    assert ("1-32 characters" in error["message"]) or ("--pit" in error["message"])
    assert not (tmp_path / "t.db").exists()


def test_run_refuses_a_table_file_whose_pit_has_no_credentials(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from ui.shell.run_command import main as run

    table = tmp_path / "table.toml"
    table.write_text('table_id = "T1"\n[pit]\nurl = "nats://127.0.0.1:4222"\n')
    assert run(["--config", str(table), "--journal", str(tmp_path / "t.db"), "--exit"]) == 2
    assert "--pit needs --pit-creds FILE" in capsys.readouterr().err
    assert not (tmp_path / "t.db").exists()

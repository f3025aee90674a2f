"""Every command refuses a wrong command line with one JSON error and exit 2, in the stream the
README states: stdout for the commands that print a result, stderr for those that run a screen or
a service (`dealer_assist.commands.command_line`)."""

from __future__ import annotations

import importlib
import json

import pytest

from ui.cli import COMMANDS

STDOUT, STDERR = "stdout", "stderr"
WRONG = [  # (command, arguments, the stream its failure goes to)
    ("settle", ["--bogus"], STDOUT),
    ("profiles", ["--bogus"], STDOUT),
    ("pin", ["set", "--bogus"], STDOUT),
    ("journal", ["recall"], STDOUT),
    ("journal", ["ship", "x.db"], STDOUT),
    ("journal", ["verify", "x.db", "--pit", "http://127.0.0.1:1", "--bogus"], STDOUT),
    ("bench", ["--journal", "x.db"], STDOUT),
    ("calibrate", ["--frames", "0"], STDOUT),
    ("devices", ["monitor"], STDOUT),
    ("sim", ["shoe", "--tcp", "x"], STDOUT),
    ("analyze", ["buster"], STDOUT),
    ("run", ["--size", "1280x800", "--bogus"], STDERR),
    ("pit", ["table", "remove", "T1"], STDERR),
    ("room", ["--tables", "x"], STDERR),
    ("log", ["keygen", "o.test/log"], STDOUT),
    ("witness", ["serve", "--key", "w.key"], STDERR),
    ("proof", ["verify", "p.json"], STDOUT),
]


def test_every_command_is_covered():
    assert {command for command, _, _ in WRONG} == set(COMMANDS)


@pytest.mark.parametrize("command, args, stream", WRONG, ids=[" ".join([c, *a]) for c, a, _ in WRONG])
def test_a_wrong_command_line_is_one_json_error_in_the_commands_stream(
    command, args, stream, capsys, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    main = importlib.import_module(COMMANDS[command][0]).main
    assert main(args) == 2
    out, err = capsys.readouterr()
    said, other = (out, err) if stream == STDOUT else (err, out)
    assert other == "", f"nothing in the other stream: {other!r}"
    lines = said.splitlines()
    assert len(lines) == 1, said
    error = json.loads(lines[0])["error"]
    assert error["code"] == "bad_arguments" and error["message"].startswith(f"dealer-assist {command}"), error

"""One door to the table: the screens act only through the table controller.

The import contract in pyproject keeps `ui` from importing `dealer_assist.table.journaled_table`; this test keeps
it from reaching around the controller to the session, the journal's PINs or the `Table` it holds,
and from reading the live round tracker or the journal's path instead of the snapshots."""
from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"
AROUND_THE_CONTROLLER = {"session", "pins", "tracker"}
THE_CONTROLLERS_OWN = {"table", "journal_path"}  # held by the controller; the snapshots carry what screens need
TABLE_SESSION_DATA = {"TableState", "TableInput", "TableConfig"}  # plain data types, no behaviour


def _offences(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in AROUND_THE_CONTROLLER:
            found.append(f"line {node.lineno}: .{node.attr}")
        if isinstance(node, ast.Attribute) and node.attr in THE_CONTROLLERS_OWN and isinstance(node.value, (ast.Name, ast.Attribute)):
            owner = node.value.id if isinstance(node.value, ast.Name) else node.value.attr
            if owner in ("controller", "bridge"):
                found.append(f"line {node.lineno}: {owner}.{node.attr}")
        if isinstance(node, ast.ImportFrom) and node.module == "dealer_assist.table.session":
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name not in TABLE_SESSION_DATA]
    return found


def test_no_screen_reaches_around_the_controller():
    offences = {path.name: found for path in sorted(UI.glob("*.py")) if (found := _offences(path.read_text()))}
    assert offences == {}


def test_the_check_finds_a_screen_that_reaches_around_it():
    reaching = "def f(bridge, controller):\n    bridge.controller.table.submit(x)\n    controller.table.session.tracker\n"
    assert sorted(_offences(reaching)) == ["line 2: controller.table", "line 3: .session", "line 3: .tracker",
                                           "line 3: controller.table"]
    reading = "def g(controller):\n    controller.tracker.awaiting()\n    controller.journal_path.parent\n"
    assert sorted(_offences(reading)) == ["line 2: .tracker", "line 3: controller.journal_path"]
    assert _offences("def h(snap):\n    snap.journal_path.parent\n") == []
    assert _offences("from dealer_assist.table.session import TableSession\n") == ["line 1: imports TableSession"]

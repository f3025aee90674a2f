"""One door to the table: nothing outside the table wing holds or reads a running table's session, tracker or journal.

The table wing is `dealer_assist/table` and the controller that owns the running table
(`devices/table_owner/controller.py`). Everything else (the emulators, the benchmarks, the player models,
the screens, the card room) asks the controller: its snapshots, or its facts (`TableFacts`), values
with a replica of the open round. The import contract in pyproject keeps `ui` from importing
`dealer_assist.table.journaled_table`; this test keeps every folder outside the wing from naming a
session, a tracker or a journal it could only have got by reaching around the controller, and the
screens from the controller's own parts (the journal's PINs, the `Table` it holds, the journal's path).

A module may build a round tracker or a journal of its own (random play, the round files, the
settlement and journal benchmarks): those are listed in OWN_ROUNDS and OWN_JOURNALS, and no other
module may import the classes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE_THE_WING = ("hw_sims", "benchmarks", "dealer_assist/play", "ui", "pit", "calibration")
LIVE_PARTS = {"session", "s", "tracker", "_table", "consult"}  # a running table's session and what it keeps
SESSION_DATA = {"TableState", "TableInput", "TableConfig"}  # plain data types of the session's module
REPLAYS = {"replay", "replayed_ledger"}  # a journal's records replayed through the rules: no table is running
OWN_ROUNDS = {
    "dealer_assist/play/random_play.py",
    "dealer_assist/play/round_driver.py",
    "dealer_assist/play/round_file.py",
    "benchmarks/device_latency.py",
    "benchmarks/settle_throughput.py",
}
OWN_JOURNALS = {"benchmarks/journal.py"}  # appends to a scratch journal of its own
# `x.journal.seq`: a journal being written, not a record's journal id
JOURNAL_WRITER = {"append", "add_sink", "seq", "close", "path"}
AROUND_THE_CONTROLLER = {"pins"}  # the screens: the journal's PINs go through the controller
THE_CONTROLLERS_OWN = {"table", "journal_path"}  # held by the controller; the snapshots carry what screens need


def _offences(source: str, where: str = "", screen: bool = False) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            owner = node.value.id if isinstance(node.value, ast.Name) else getattr(node.value, "attr", None)
            if node.attr in LIVE_PARTS:
                found.append(f"line {node.lineno}: .{node.attr}")
            elif node.attr in JOURNAL_WRITER and isinstance(node.value, ast.Attribute) and node.value.attr == "journal":
                found.append(f"line {node.lineno}: .journal.{node.attr}")
            elif screen and node.attr in AROUND_THE_CONTROLLER:
                found.append(f"line {node.lineno}: .{node.attr}")
            elif screen and node.attr in THE_CONTROLLERS_OWN and owner in ("controller", "bridge"):
                found.append(f"line {node.lineno}: {owner}.{node.attr}")
        elif isinstance(node, ast.Name) and node.id == "consult":
            found.append(f"line {node.lineno}: consult")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "consult":
            found.append(f"line {node.lineno}: def consult")
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: imports {a.name}"
                for a in node.names
                if a.name in ("dealer_assist.table.journaled_table", "dealer_assist.table.session")
            ]
        elif isinstance(node, ast.ImportFrom):
            found += [
                f"line {node.lineno}: imports {a.name}"
                for a in node.names
                if _kept_out(node.module or "", a.name, where)
            ]
    return found


def _kept_out(module: str, name: str, where: str) -> bool:
    """Whether importing `name` from `module` reaches a running table's parts from outside the wing."""
    if name.lower() == "consult":
        return True
    if module == "dealer_assist.table.session":
        return name not in SESSION_DATA
    if module == "dealer_assist.table.journaled_table":
        return name not in REPLAYS
    if module == "dealer_assist.rules.tracker" and name == "RoundTracker":
        return where not in OWN_ROUNDS
    if module == "dealer_assist.journal.journal_file" and name == "Journal":
        return where not in OWN_JOURNALS
    return False


def _sources() -> list[Path]:
    return sorted(path for folder in OUTSIDE_THE_WING for path in (ROOT / folder).rglob("*.py"))


def test_nothing_outside_the_table_wing_reaches_a_running_tables_parts():
    offences = {}
    for path in _sources():
        where = path.relative_to(ROOT).as_posix()
        found = _offences(path.read_text(), where, screen=where.startswith("ui/"))
        if found:
            offences[where] = found
    assert offences == {}


def test_the_scan_covers_the_folders_and_their_own_rounds_and_journals_exist():
    scanned = {path.relative_to(ROOT).as_posix() for path in _sources()}
    assert {
        "hw_sims/bench_devices.py",
        "benchmarks/pace.py",
        "dealer_assist/play/bench.py",
        "ui/shell/autoplay.py",
        "pit/service/web/access.py",
    } <= scanned
    assert OWN_ROUNDS | OWN_JOURNALS <= scanned, "a module listed as building its own rounds or journal is gone"


@pytest.mark.parametrize(
    "added, expected",
    [
        (
            "def f(controller):\n    controller.consult(lambda session: session.s.shoe_id)\n",
            ["line 2: .consult", "line 2: .s"],
        ),
        ("class Devices:\n    def __init__(self, session):\n        self.session = session\n", ["line 3: .session"]),
        ("def f(table):\n    return table.session.tracker.hands\n", ["line 2: .session", "line 2: .tracker"]),
        ("def f(controller):\n    return controller._table.journal.seq\n", ["line 2: ._table", "line 2: .journal.seq"]),
        ("def f(table, sink):\n    table.journal.add_sink(sink)\n", ["line 2: .journal.add_sink"]),
        ("from devices.table_owner.controller import Consult\n", ["line 1: imports Consult"]),
        ("from dealer_assist.table.session import TableConfig, TableSession\n", ["line 1: imports TableSession"]),
        ("from dealer_assist.table.journaled_table import Table\n", ["line 1: imports Table"]),
        ("import dealer_assist.table.journaled_table\n", ["line 1: imports dealer_assist.table.journaled_table"]),
        ("from dealer_assist.rules.tracker import RoundTracker\n", ["line 1: imports RoundTracker"]),
        ("from dealer_assist.journal.journal_file import Journal, Record\n", ["line 1: imports Journal"]),
    ],
)
def test_the_scan_finds_a_reference_added_outside_the_wing(added, expected):
    assert sorted(_offences(added, "hw_sims/added.py")) == sorted(expected)


def test_the_scan_lets_facts_snapshots_and_their_own_rounds_through():
    fine = (
        "from dealer_assist.table.session import TableConfig, TableState\n"
        "from dealer_assist.journal.journal_file import Record, read_records\n"
        "def f(controller, args, facts):\n"
        "    controller.facts().round.awaiting()\n    controller.snapshot.table.shoe_id\n"
        "    args.journal.exists()\n"
        "    controller.add_sink(print)\n    record.journal == facts.journal\n"
    )
    assert _offences(fine, "hw_sims/added.py") == []
    assert _offences("from dealer_assist.rules.tracker import RoundTracker\n", "benchmarks/settle_throughput.py") == []


def test_the_scan_finds_a_screen_that_reaches_around_the_controller():
    reaching = "def f(bridge, controller):\n    bridge.controller.table.submit(x)\n    controller.table.pins.check(p)\n"
    assert sorted(_offences(reaching, "ui/added.py", screen=True)) == [
        "line 2: controller.table",
        "line 3: .pins",
        "line 3: controller.table",
    ]
    assert _offences("def g(controller):\n    controller.journal_path.parent\n", "ui/added.py", screen=True) == [
        "line 2: controller.journal_path"
    ]
    assert _offences("def h(snap):\n    snap.journal_path.parent\n", "ui/added.py", screen=True) == []


def test_a_reference_added_to_a_real_module_fails_the_scan():
    """The shipped bench devices, with the live session they once kept put back: the scan names it."""
    path = ROOT / "hw_sims" / "bench_devices.py"
    source = path.read_text()
    assert _offences(source, "hw_sims/bench_devices.py") == []
    kept = "        self.facts = facts\n"
    reopened = source.replace(kept, kept + "        self.session = facts.__self__._table.session\n")
    assert reopened != source
    line = _line_of(reopened, "self.session")
    found = sorted(_offences(reopened, "hw_sims/bench_devices.py"))
    assert found == [f"line {line}: ._table", f"line {line}: .session", f"line {line}: .session"]  # kept, and read


def _line_of(source: str, text: str) -> int:
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)

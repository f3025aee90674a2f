"""Each wing's public modules say what they offer: every name a module of another wing imports from
a product module is in that module's `__all__`, so a wing's surface is written down where it is
defined, and a name used across wings without being offered is found here."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("dealer_assist", "devices", "calibration", "hw_sims", "ui", "pit")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _declared(tree: ast.Module) -> set[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return None


def unoffered(files: dict[str, str]) -> list[str]:
    """`importer: module.name` for each name imported across wings that its module does not offer."""
    trees = {module: ast.parse(source) for module, source in files.items()}
    found = []
    for importer, tree in trees.items():
        wing = importer.rpartition(".")[0]
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in trees):
                continue
            target = node.module
            if target.rpartition(".")[0] == wing or target == wing:
                continue
            offered = _declared(trees[target]) or set()
            found += [
                f"{importer}: {target}.{alias.name}"
                for alias in node.names
                if f"{target}.{alias.name}" not in trees and alias.name not in offered
            ]
    return sorted(found)


def test_every_name_used_across_wings_is_offered_by_its_module() -> None:
    files = {_module(path): path.read_text() for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    assert unoffered(files) == []


def test_the_check_finds_a_name_its_module_does_not_offer() -> None:
    files = {
        "pkg.a.offers": '__all__ = ["kept"]\nkept = 1\nhidden = 2\n',
        "pkg.b.uses": "from pkg.a.offers import kept, hidden\n",
        "pkg.a.neighbour": "from pkg.a.offers import hidden\n",  # the same wing: no offer needed
    }
    assert unoffered(files) == ["pkg.b.uses: pkg.a.offers.hidden"]

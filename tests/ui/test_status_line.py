"""The top bar with every device and status item at its longest: the window never grows past the
screen, nothing is clipped, what is wrong is still in words, and each tooltip keeps the full text."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication

from tests.ui.test_layouts import SIZES, _check_fit

PIT_STOPPED = "stopped · journal behind the pit, call the floor supervisor"


def _shown(label) -> str:
    """The words after the item's dot, as the label shows them."""
    return re.sub(r"<[^>]+>", "", label.text().split("</span> ", 1)[1]).replace("&nbsp;", "").strip()


def test_the_top_bar_says_less_rather_than_widen_the_window(table, tmp_path):
    t = table("nobust-4.0", seed=11, size=(1280, 800))
    bar = t.view.devices
    t.devices.read("Shoe", "QS")
    t.devices.link("Peek", False)
    QApplication.processEvents()
    assert _shown(bar.labels["Shoe"]) == "Shoe up · last QS", "with room to spare, each item in full"
    t.devices.read("Camera", "MISMATCH")
    QApplication.processEvents()
    assert [_shown(bar.labels[name]) for name in ("Shoe", "Peek", "Camera")] == [
        "Shoe up",
        "Peek: link down",
        "Camera up",
    ]
    t.controller.add_status("Pit", PIT_STOPPED, False)
    t.controller.add_status("Supervisor", "Card rekeyed in round 1234 · by Floor 1")
    for _ in range(3):
        QApplication.processEvents()
    assert t.window.grab().save(str(tmp_path / "status-1280.png"))
    assert t.window.width() == 1280
    _check_fit(t.window)
    shown = {name: _shown(label) for name, label in bar.labels.items()}
    assert shown == {
        "Shoe": "Shoe",
        "Peek": "Peek: down",
        "Camera": "Camera",
        "Pit": "Pit stopped…",
        "Supervisor": "Supervisor",
    }
    assert bar.labels["Pit"].toolTip() == f"Pit: {PIT_STOPPED}"
    assert bar.labels["Shoe"].toolTip() == "Shoe: up · last QS"
    assert t.view.title.text() == "nobust-4.0 · Round 1", "the shoe gives way to the status items"
    assert "shoe BENCH-1, 0 cards" in t.view.title.toolTip()
    t.window.resize(*SIZES[1])  # a wider screen: the title in full again, the items still fitted
    for _ in range(3):
        QApplication.processEvents()
    assert t.window.width() == SIZES[1][0]
    _check_fit(t.window)
    assert t.view.title.text() == "nobust-4.0 · Round 1 · shoe BENCH-1, 0 cards"
    assert _shown(bar.labels["Pit"]).startswith("Pit stopped")

"""A table controller's pit link: its status comes from the published snapshot, and the dealer's
status line says whether the pit is up and how much is still to send."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dealer_assist.play.bench import BenchPlayer
from devices.table_owner.controller import TableController
from pit.shipping.shipper import attach_shipper
from pit.shipping.table_view import snapshot_view
from tests.pit.room_rig import open_bench_table, play, start_room

pytestmark = pytest.mark.slow


def _pit_item(controller: TableController) -> tuple[bool, str | None] | None:
    found = [(link.up, link.text) for link in controller.devices.links() if link.name == "Pit"]
    return found[0] if found else None


def _until(predicate, timeout: float = 20.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_the_status_line_follows_the_pit_link(tmp_path: Path) -> None:
    room = start_room(tmp_path)
    table = open_bench_table(tmp_path / "t1.db")
    controller = TableController(table)
    status = snapshot_view(lambda: controller.snapshot, lambda: {"shoe": "up"})
    shipper = attach_shipper(
        controller.journal_path,
        controller.add_sink,
        controller.table_id,
        room.link("T1"),
        status,
        lambda text, up: controller.add_status("Pit", text.removeprefix("pit: "), up),
    )
    try:
        assert _until(lambda: _pit_item(controller) == (True, "up"))
        view = status()
        assert (view.profile, view.devices) == ("nobust-4.0", {"shoe": "up"})
        room.server.kill()
        play(table, BenchPlayer(3), 2)
        assert _until(
            lambda: (
                (item := _pit_item(controller)) is not None
                and not item[0]
                and item[1] is not None
                and item[1].startswith("down · ")
                and item[1].endswith(" to send")
            )
        )
        room.server.start()
        assert _until(lambda: _pit_item(controller) == (True, "up"), 30.0)
        assert status().round_id == controller.snapshot.table.round_id  # type: ignore[union-attr]
    finally:
        shipper.stop(drain_s=1.0)
        controller.close()
        room.server.stop()

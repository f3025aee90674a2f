"""The emulated overhead camera beside the shoe: a disagreement reaches the dealer's banner and the journal."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from PySide6.QtWidgets import QApplication

from calibration.calibration_file import save_calibration
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, WagerKind
from devices.camera.check import CameraCheck, reported_by_zone
from devices.camera.reader import CardReader
from hw_sims.table_camera import TableCamera

SETTLE_FRAMES = 4
WAIT_MS = 20_000


class Camera:
    """The synthetic camera filming the felt as the shoe reported it, read by the table's camera link."""

    def __init__(self, t) -> None:
        self.felt = TableCamera(lambda: reported_by_zone(t.controller.snapshot), fps=30)
        self.frames = 0
        self.link = t.controller.watch_camera(
            self._counted(), CardReader(self.felt.calibrate()), CameraCheck(settle_frames=SETTLE_FRAMES)
        )

    def _counted(self) -> Iterator[np.ndarray]:
        for image in self.felt:
            self.frames += 1
            yield image

    def placed(self) -> dict[str, list[str]]:
        return {zone: sorted(map(str, cards)) for zone, cards in self.link.check.placements.cards_by_zone().items()}


@pytest.fixture
def filmed(table):
    cameras: list[Camera] = []

    def make(*args, **options):
        t = table(*args, **options)
        cameras.append(Camera(t))
        cameras[-1].link.start()
        return t, cameras[-1]

    yield make
    for camera in cameras:
        camera.felt.stop()
        camera.link.stop()
    QApplication.processEvents()  # the last notes reach the journal before it closes


NEXT = "Dealer: check the card; a floor supervisor re-keys a misread, else tap OK"  # who acts, and how


def camera_notes(t) -> list[dict]:
    """The camera's findings (its link's notes left out)."""
    return [
        r.body
        for r in read_records(t.journaled.path)
        if r.kind is RecordKind.DEVICE and r.body["device"] == "camera" and r.body["type"] != "LinkChanged"
    ]


def test_a_card_the_shoe_misread_shows_the_seat_and_both_cards(filmed, qtbot):
    # nobust-4.0: seat 1 gets TS and KD, the player-dealer 9H and 8C; the shoe read TS but TC lies on the felt
    t, camera = filmed("nobust-4.0", ["TS", "9H", "KD", "8C"], pd_seat=4)
    camera.felt.sim_read_as(parse_card("TS"), parse_card("TC"))
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)
    qtbot.waitUntil(t.view.banner.isVisible, timeout=WAIT_MS)
    assert t.view.banner.message.text() == f"MISMATCH: Seat 1: the shoe read TS, the camera sees TC. {NEXT}"
    assert t.view.banner.resolve.isVisible(), "the dealer acknowledges it"
    assert t.view.devices.labels["Camera"].toolTip() == (
        "Camera: mismatch — check the card · Seat 1: the shoe read TS, the camera sees TC · last MISMATCH"
    ), "the light says it in words"
    qtbot.waitUntil(lambda: bool(camera_notes(t)), timeout=WAIT_MS)
    note = camera_notes(t)[0]
    assert note["type"] == "CameraMismatch" and note["message"] == "Seat 1: the shoe read TS, the camera sees TC"
    assert {(m["kind"], m["card"]) for m in note["mismatches"]} == {
        ("missing_on_table", "TS"),
        ("extra_on_table", "TC"),
    }
    record = next(
        r
        for r in read_records(t.journaled.path)
        if r.kind is RecordKind.DEVICE and r.body["device"] == "camera" and r.body["type"] == "CameraMismatch"
    )
    assert record.round_id == 1, "the supervisor's recall finds it under the round"
    t.decide(Action.STAND)
    assert t.view.banner.isVisible(), "an accepted input does not hide what the camera saw"
    t.tap(t.view.banner.resolve)
    assert not t.view.banner.isVisible()
    seen = [r for r in read_records(t.journaled.path) if r.kind is RecordKind.DEVICE and r.body["device"] == "dealer"]
    assert [r.body["type"] for r in seen] == ["Acknowledged"] and seen[0].round_id == 1
    assert seen[0].body["message"] == f"Seat 1: the shoe read TS, the camera sees TC. {NEXT}", (
        "the dealer's tap is journaled too"
    )


def test_a_card_on_the_wrong_seat_and_a_misread_dealer_card_are_both_named(filmed, qtbot):
    t, camera = filmed("nobust-4.0", ["TS", "9H", "KD", "8C"], pd_seat=4)
    camera.felt.sim_move(parse_card("KD"), "seat_2")
    camera.felt.sim_read_as(parse_card("9H"), parse_card("9D"))
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)
    both = (
        "MISMATCH: KD: the shoe dealt it to seat 1, the camera sees it at seat 2; "
        f"The player-dealer: the shoe read 9H, the camera sees 9D. {NEXT}"
    )
    qtbot.waitUntil(lambda: t.view.banner.message.text() == both, timeout=WAIT_MS)


def test_a_camera_that_agrees_with_the_shoe_shows_nothing(filmed, qtbot):
    t, camera = filmed("nobust-4.0", ["TS", "9H", "KD", "8C"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)
    qtbot.waitUntil(lambda: camera.placed() == {"seat_1": ["KD", "TS"], "dealer": ["8C", "9H"]}, timeout=WAIT_MS)
    seen = camera.frames
    qtbot.waitUntil(lambda: camera.frames >= seen + 3 * SETTLE_FRAMES, timeout=WAIT_MS)
    assert not t.view.banner.isVisible()
    assert camera_notes(t) == []
    assert t.view.devices.labels["Camera"].toolTip().startswith("Camera: up")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ui.cli", "run", *args], capture_output=True, text=True, timeout=180)


@pytest.mark.slow
def test_the_run_films_the_felt_with_the_emulated_camera(tmp_path):
    journal = tmp_path / "table.db"
    done = run(
        "--journal",
        str(journal),
        "--profile",
        "c21-8.0",
        "--seed",
        "2",
        "--autoplay",
        "2",
        "--exit",
        "--camera",
        "emulated",
    )
    assert done.returncode == 0, done.stderr
    header = next(read_records(journal))
    assert header.body["devices"]["camera"] == "emulated"
    assert not [
        r
        for r in read_records(journal)
        if r.kind is RecordKind.DEVICE
        and r.body["device"] == "camera"
        and r.body["type"] in ("CameraMismatch", "CameraAgrees")
    ]


@pytest.mark.slow
def test_a_table_file_names_the_camera_and_its_calibration(tmp_path):
    felt = TableCamera(lambda: {})  # an empty table
    calibration, picture = tmp_path / "camera.json", tmp_path / "felt.png"
    save_calibration(felt.calibrate(), calibration)
    cv2.imwrite(str(picture), next(iter(felt)))
    config = tmp_path / "table.toml"
    config.write_text(f'journal = "{tmp_path / "t.db"}"\ncamera = "{picture}"\ncalibration = "{calibration}"\n')
    done = run("--config", str(config), "--exit")
    assert done.returncode == 0, done.stderr
    assert next(read_records(tmp_path / "t.db")).body["devices"]["camera"] == str(picture)
    config.write_text(f'journal = "{tmp_path / "t.db"}"\ncamera = "{picture}"\n')
    refused = run("--config", str(config), "--exit")
    assert refused.returncode == 2 and "needs its calibration file" in refused.stderr

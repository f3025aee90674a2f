"""`dealer-assist calibrate` and the camera source, end to end through files a technician would use."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.calibration_file import load_calibration
from calibration.layout import Layout
from dealer_assist.errors import Failure
from devices.camera.adapter import watch
from devices.camera.placements import PlacementTracker
from devices.camera.reader import CardReader
from devices.camera.source import CameraSource
from hw_sims.synthetic_camera import SyntheticCamera
from hw_sims.synthetic_camera_effects import Perturbation
from ui.cli import main as cli

HANDS = {"seat_1": ["TS", "4D.0417"], "seat_6": ["QH"], "dealer": ["AS", "8C"], "discard": ["3H"]}


@pytest.fixture(scope="module")
def camera(layout: Layout) -> SyntheticCamera:
    return SyntheticCamera(layout, seed=31)


@pytest.fixture(scope="module")
def video(camera: SyntheticCamera, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve noisy frames of one deal, stored losslessly as a camera recording would be replayed."""
    path = tmp_path_factory.mktemp("video") / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"FFV1"), 30, camera.size)
    scene = camera.deal(HANDS)
    for _ in range(12):
        writer.write(camera.render(scene, {Perturbation.NOISE}).image)
    writer.release()
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = cli(["calibrate", *map(str, args)])
    return code, json.loads(capsys.readouterr().out)


def test_calibrate_from_a_video_then_watch_it_place_the_dealt_cards(
    video: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run(capsys, "--source", video, "--out", tmp_path / "cal.json", "--frames", 5)
    assert code == 0, out
    assert out["calibration"]["error_mm"] < 2.0
    reader = CardReader(load_calibration(tmp_path / "cal.json"))
    tracker = PlacementTracker(stable_frames=3)
    with CameraSource(str(video)) as frames:
        updates = list(watch(frames, reader, tracker))
    assert len(updates) == 12
    assert {z: sorted(map(str, cards)) for z, cards in tracker.cards_by_zone().items()} == {
        z: sorted(code.split(".")[0] for code in codes) for z, codes in HANDS.items()
    }
    assert [p.frame for p in updates[2].changes.placed] == [3] * 6  # the third frame places them all


def test_calibrate_from_a_still_image(
    camera: SyntheticCamera, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    still = tmp_path / "table.png"
    cv2.imwrite(str(still), camera.render(camera.deal({})).image)
    code, out = run(capsys, "--source", still, "--out", tmp_path / "cal.json")
    assert code == 0 and out["calibration"]["saved"] == str(tmp_path / "cal.json")
    assert load_calibration(tmp_path / "cal.json").layout == camera.layout


def test_a_layout_that_does_not_fit_is_refused_and_nothing_is_saved(
    camera: SyntheticCamera, video: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = Path(__file__).parents[2].joinpath("calibration", "default_layout.toml").read_text()
    (tmp_path / "wrong.toml").write_text(data.replace("size_mm = 70", "size_mm = 90"))
    code, out = run(
        capsys, "--source", video, "--layout", tmp_path / "wrong.toml", "--out", tmp_path / "cal.json", "--frames", 2
    )
    assert code == 2 and out["error"]["code"] == "error_too_high"
    assert not (tmp_path / "cal.json").exists()
    code, out = run(
        capsys,
        "--source",
        video,
        "--layout",
        tmp_path / "wrong.toml",
        "--out",
        tmp_path / "cal.json",
        "--frames",
        2,
        "--max-error-mm",
        100,
    )
    assert code == 0


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--source", "/nonexistent/table.avi", "--out", "x.json"], "source_unreadable"),
        (["--source", "{here}/notes.txt", "--out", "x.json"], "source_unreadable"),
        (["--source", "{video}", "--out", "x.json", "--layout", "{here}/notes.txt"], "bad_layout"),
        (["--source", "{video}", "--out", "x.json", "--layout", "{here}/none.toml"], "layout_unreadable"),
        (["--source", "{video}", "--out", "x.json", "--max-error-mm", "zero"], "bad_arguments"),
        (["--source", "{video}"], "bad_arguments"),
        (["--source", "{here}/bare.png", "--out", "x.json"], "marker_missing"),
    ],
)
def test_bad_inputs_give_one_json_error_and_exit_2(
    args: list[str], error: str, video: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("table 4 [felt\n")
    cv2.imwrite(str(tmp_path / "bare.png"), np.full((720, 1280, 3), (40, 100, 30), np.uint8))
    code, out = run(capsys, *[a.format(here=tmp_path, video=video) for a in args])
    assert code == 2
    assert out["error"]["code"] == error and out["error"]["message"]


def test_a_source_that_cannot_open_is_named() -> None:
    with pytest.raises(Failure, match="'/nonexistent.avi' cannot be opened"):
        CameraSource("/nonexistent.avi")

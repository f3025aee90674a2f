"""Calibration from rendered frames: accurate to the millimetre, refused when it is not."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.calibration_file import load_calibration, save_calibration
from calibration.camera_calibration import Calibration, calibrate
from calibration.layout import Layout, MarkerCorner, layout_from_dict
from dealer_assist.errors import Failure
from hw_sims.synthetic_camera import SyntheticCamera
from hw_sims.synthetic_camera_effects import Perturbation

ROUGH = frozenset({Perturbation.BLUR, Perturbation.NOISE})


def _worst_zone_error_mm(calibration: Calibration, camera: SyntheticCamera) -> float:
    """Every zone corner, seen through the true pose, mapped back by the calibration."""
    corners = np.array([[p for zone in camera.layout.zones for p in zone.polygon]], dtype=np.float64)
    pixels = cv2.perspectiveTransform(corners, camera.table_to_image)[0]
    return max(
        math.dist(calibration.to_table(tuple(px)), tuple(mm)) for px, mm in zip(pixels, corners[0], strict=False)
    )


@pytest.mark.parametrize("oblique", [False, True], ids=["level", "oblique"])
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow), pytest.param(3, marks=pytest.mark.slow)])
def test_calibration_from_synthetic_frames_is_within_two_millimetres(layout: Layout, seed: int, oblique: bool) -> None:
    camera = SyntheticCamera(layout, seed=seed, oblique=oblique)
    scene = camera.deal(camera.random_hands())
    calibration = calibrate([camera.render(scene, ROUGH).image for _ in range(3)], layout)
    print(
        f"seed {seed} oblique {oblique}: error {calibration.error_mm:.2f} mm, worst corner"
        f" {calibration.worst_mm:.2f} mm"
    )
    assert calibration.error_mm < 2.0
    assert _worst_zone_error_mm(calibration, camera) < 2.0
    assert calibration.image_size == (1280, 720)


def test_a_single_still_frame_calibrates(layout: Layout, calibrated: Callable[..., Calibration]) -> None:
    camera = SyntheticCamera(layout, seed=9)
    calibration = calibrated(camera, frames=1)
    assert calibration.error_mm < 2.0
    assert _worst_zone_error_mm(calibration, camera) < 2.0


def test_a_layout_that_does_not_match_the_table_is_refused(layout: Layout, tmp_path: Path) -> None:
    camera = SyntheticCamera(layout, seed=4)
    data = layout.to_dict()
    data["markers"]["size_mm"] = 55  # the markers on the felt are 70 mm
    wrong = layout_from_dict(data, "wrong.toml")
    calibration = calibrate([camera.render(camera.deal({})).image], wrong)
    assert calibration.error_mm > 2.0
    with pytest.raises(Failure, match=r"above the 2 mm limit") as refused:
        save_calibration(calibration, tmp_path / "cal.json")
    assert refused.value.code == "error_too_high"
    assert not (tmp_path / "cal.json").exists()
    save_calibration(calibration, tmp_path / "cal.json", max_error_mm=50)
    assert load_calibration(tmp_path / "cal.json").error_mm == pytest.approx(calibration.error_mm, abs=1e-3)


def test_a_covered_marker_is_named(layout: Layout) -> None:
    camera = SyntheticCamera(layout, seed=5)
    image = camera.render(camera.deal({})).image
    x, y = layout.markers[MarkerCorner.BR]
    half = layout.marker_size_mm
    box = np.array([[[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]]])
    cv2.fillConvexPoly(image, cv2.perspectiveTransform(box, camera.table_to_image)[0].astype(np.int32), (40, 100, 30))
    with pytest.raises(Failure, match="DA:CAL:BR not found") as refused:
        calibrate([image], layout)
    assert refused.value.code == "marker_missing"


def test_a_marker_seen_twice_is_refused(layout: Layout) -> None:
    camera = SyntheticCamera(layout, seed=5)
    image = camera.render(camera.deal({})).image
    tl = np.round(cv2.perspectiveTransform(np.array([[layout.markers[MarkerCorner.TL]]]), camera.table_to_image)[0, 0])
    x, y = int(tl[0]), int(tl[1])
    image[300:400, 560:660] = image[y - 50 : y + 50, x - 50 : x + 50]
    with pytest.raises(Failure, match="DA:CAL:TL appears twice") as refused:
        calibrate([image], layout)
    assert refused.value.code == "bad_markers"


def test_a_calibration_file_round_trips(layout: Layout, tmp_path: Path, calibrated: Callable[..., Calibration]) -> None:
    calibration = calibrated(SyntheticCamera(layout, seed=6))
    save_calibration(calibration, tmp_path / "cal.json")
    again = load_calibration(tmp_path / "cal.json")
    assert again.layout == layout
    assert again.image_size == calibration.image_size
    assert np.allclose(again.image_to_table, calibration.image_to_table)
    assert again.zone_at_pixel((640.0, 360.0)) == calibration.zone_at_pixel((640.0, 360.0))


@pytest.mark.parametrize(
    ("spoil", "named"),
    [
        (lambda text, doc: "{ not json", "not JSON"),
        (lambda text, doc: json.dumps(doc | {"format": "other"}), "not a dealer-assist-calibration file"),
        (lambda text, doc: json.dumps(doc | {"version": 7}), "version 7"),
        (lambda text, doc: json.dumps(doc | {"image_to_table": [[1, 0], [0, 1]]}), "image_to_table"),
        (lambda text, doc: json.dumps(doc | {"image_to_table": [[0, 0, 0]] * 3}), "singular"),
        (lambda text, doc: json.dumps(doc | {"image_size": [1280]}), "image_size"),
        (lambda text, doc: json.dumps(doc | {"error_mm": "small"}), "error_mm"),
        (lambda text, doc: json.dumps(doc | {"markers_px": {"TL": [1, 2]}}), "markers_px"),
        (lambda text, doc: json.dumps(doc | {"layout": {"table": {"width_mm": 5}}}), "height_mm"),
    ],
)
def test_a_corrupt_calibration_file_is_refused_naming_what_is_wrong(
    layout: Layout, tmp_path: Path, calibrated: Callable[..., Calibration], spoil, named: str
) -> None:
    path = tmp_path / "cal.json"
    save_calibration(calibrated(SyntheticCamera(layout, seed=7), frames=1), path)
    text = path.read_text()
    path.write_text(spoil(text, json.loads(text)))
    with pytest.raises(Failure, match=named) as refused:
        load_calibration(path)
    assert refused.value.code == ("bad_layout" if named == "height_mm" else "bad_calibration")


def test_a_missing_calibration_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(Failure, match="cannot be read") as refused:
        load_calibration(tmp_path / "none.json")
    assert refused.value.code == "calibration_unreadable"

"""Layout files: the packaged 8-seat table, zone lookup, and files that are wrong in named ways."""

from __future__ import annotations

from pathlib import Path

import pytest

from calibration.layout import Layout, MarkerCorner, layout_from_dict, load_layout, parse_layout
from dealer_assist.errors import Failure


def test_default_layout_has_eight_seats_the_dealer_and_the_discard_tray(layout: Layout) -> None:
    assert layout.seats == 8
    assert {z.name for z in layout.zones} == {"dealer", "discard"} | {f"seat_{n}" for n in range(1, 9)}
    assert set(layout.markers) == set(MarkerCorner)
    assert MarkerCorner.BR.text == "DA:CAL:BR"


def test_zone_lookup_finds_the_zone_holding_a_point(layout: Layout) -> None:
    for zone in layout.zones:
        xs, ys = zip(*zone.polygon, strict=False)
        assert layout.zone_at((sum(xs) / len(xs), sum(ys) / len(ys))) == zone.name
    assert layout.zone_at((560.0, 330.0)) is None
    assert layout.zone_at((-5.0, 10.0)) is None


def test_a_layout_survives_being_embedded_and_read_back(layout: Layout) -> None:
    assert layout_from_dict(layout.to_dict(), "copy") == layout


def test_a_layout_file_is_read_from_disk(layout: Layout, tmp_path: Path) -> None:
    text = (Path(__file__).parents[2] / "calibration" / "default_layout.toml").read_text()
    path = tmp_path / "table.toml"
    path.write_text(text.replace("size_mm = 70", "size_mm = 60"))
    assert load_layout(path).marker_size_mm == 60


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda d: d.pop("table"), "[table]"),
        (lambda d: d["markers"].pop("BL"), "markers.BL"),
        (lambda d: d["markers"].update(size_mm=-3), "markers.size_mm"),
        (lambda d: d["markers"].update(TR=[2000, 50]), "outside"),
        (lambda d: d["markers"].update(TL="corner"), "markers.TL"),
        (lambda d: d["zones"].update(seat_9=[[1, 1], [2, 2]]), "seat_9"),
        (lambda d: d["zones"].update(bar=[[1, 1], [2, 2], [3, 1]]), "'bar'"),
        (lambda d: d["zones"].pop("dealer"), "dealer"),
        (lambda d: d["zones"].pop("seat_4"), "seat_4"),
        (
            lambda d: d["zones"].update(discard=[[380, 100], [500, 100], [500, 160], [380, 160]]),
            "dealer and discard overlap",
        ),
        (lambda d: d["zones"].update(discard=[[450, 150], [460, 150], [460, 160]]), "dealer and discard overlap"),
    ],
)
def test_a_wrong_layout_is_refused_naming_what_is_wrong(layout: Layout, change, named: str) -> None:
    data = layout.to_dict()
    change(data)
    with pytest.raises(Failure) as refused:
        layout_from_dict(data, "table.toml")
    assert refused.value.code == "bad_layout"
    assert named in refused.value.message


def test_a_layout_that_is_not_toml_or_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(Failure, match="not valid TOML") as refused:
        parse_layout("[table\nwidth_mm = 3", "broken.toml")
    assert refused.value.code == "bad_layout"
    with pytest.raises(Failure, match="cannot be read") as refused:
        load_layout(tmp_path / "missing.toml")
    assert refused.value.code == "layout_unreadable"

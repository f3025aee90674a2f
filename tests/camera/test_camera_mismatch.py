"""The camera against the shoe: every difference is a record, none is resolved."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from calibration.camera_calibration import Calibration
from calibration.layout import Layout
from dealer_assist.rules.cards import parse_card
from devices.camera.adapter import watch
from devices.camera.mismatch import Mismatch, MismatchKind, compare_placements
from devices.camera.placements import PlacementTracker
from devices.camera.reader import CardReader
from hw_sims.synthetic_camera import SyntheticCamera
from hw_sims.synthetic_camera_effects import Perturbation


def cards(*codes: str) -> list:
    return [parse_card(code) for code in codes]


def test_agreement_gives_no_mismatch() -> None:
    hands = {"seat_1": cards("TS", "9H"), "dealer": cards("AC")}
    assert compare_placements(hands, {"dealer": cards("AC"), "seat_1": cards("9H", "TS")}) == ()


def test_each_kind_of_difference_is_reported_once() -> None:
    reported = {"seat_1": cards("TS", "9H"), "seat_2": cards("5D"), "dealer": cards("AC")}
    placed = {"seat_1": cards("TS"), "seat_3": cards("9H"), "dealer": cards("AC", "KD")}
    assert compare_placements(reported, placed) == (
        Mismatch(MismatchKind.WRONG_ZONE, parse_card("9H"), "seat_1", "seat_3"),
        Mismatch(MismatchKind.MISSING_ON_TABLE, parse_card("5D"), "seat_2", None),
        Mismatch(MismatchKind.EXTRA_ON_TABLE, parse_card("KD"), None, "dealer"),
    )


def test_copies_are_counted_not_merged() -> None:
    reported = {"seat_1": cards("QH", "QH"), "seat_2": cards("QH")}
    placed = {"seat_1": cards("QH"), "seat_2": cards("QH", "QH")}
    assert compare_placements(reported, placed) == (
        Mismatch(MismatchKind.WRONG_ZONE, parse_card("QH"), "seat_1", "seat_2"),
    )


def test_an_empty_table_misses_every_reported_card() -> None:
    found = compare_placements({"seat_4": cards("2C", "3C")}, {})
    assert [(m.kind, str(m.card)) for m in found] == [
        (MismatchKind.MISSING_ON_TABLE, "2C"),
        (MismatchKind.MISSING_ON_TABLE, "3C"),
    ]


def test_mismatch_records_are_frozen_and_say_what_is_wrong() -> None:
    mismatch = compare_placements({}, {"discard": cards("7S")})[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        mismatch.card = parse_card("8S")  # type: ignore[misc]
    assert mismatch.to_json() == {"kind": "extra_on_table", "card": "7S", "expected_zone": None, "seen_zone": "discard"}
    assert mismatch.message == "7S: the camera sees it at discard, the shoe did not deal it there"


def test_a_card_dealt_to_the_wrong_seat_on_camera_is_reported(
    layout: Layout, calibrated: Callable[..., Calibration]
) -> None:
    """The shoe's order says seat 2 got the 6D; the dealer put it at seat 3."""
    camera = SyntheticCamera(layout, seed=41)
    reader, tracker = CardReader(calibrated(camera, frames=1)), PlacementTracker()
    scene = camera.deal({"seat_2": ["KC.0001"], "seat_3": ["6D.0001", "TH.0001"], "dealer": ["5S.0001"]})
    for _ in watch((camera.render(scene, {Perturbation.NOISE}).image for _ in range(4)), reader, tracker):
        pass
    reported = {"seat_2": cards("KC", "6D"), "seat_3": cards("TH"), "dealer": cards("5S", "9C")}
    found = compare_placements(reported, tracker.cards_by_zone())
    assert [m.message for m in found] == [
        "6D: the shoe dealt it to seat_2, the camera sees it at seat_3",
        "9C: the shoe dealt it to dealer, the camera does not see it there",
    ]

"""The stability rule: placed after N consecutive frames in a zone, withdrawn after a long absence."""

from __future__ import annotations

import pytest

from dealer_assist.rules.cards import Card
from dealer_assist.rules.refusals import RuleError
from devices.camera.codes import CardCode
from devices.camera.placements import PlacementTracker
from devices.camera.reader import FrameReading, Sighting

TEN = CardCode(Card("T", "S"), "0417")
ACE = CardCode(Card("A", "H"))


class Frames:
    """Readings numbered as a camera numbers them."""

    def __init__(self) -> None:
        self.index = 0

    def __call__(self, *seen: tuple[CardCode, str | None]) -> FrameReading:
        self.index += 1
        return FrameReading(self.index, tuple(Sighting(code, zone, (0.0, 0.0)) for code, zone in seen), ())


@pytest.mark.parametrize("stable", [1, 3, 5])
def test_a_card_is_placed_on_its_nth_consecutive_frame_and_not_before(stable: int) -> None:
    tracker, frame = PlacementTracker(stable_frames=stable), Frames()
    for _ in range(stable - 1):
        assert tracker.update(frame((TEN, "seat_2"))).placed == ()
    changes = tracker.update(frame((TEN, "seat_2")))
    assert [(p.zone, p.code, p.frame) for p in changes.placed] == [("seat_2", TEN, stable)]
    assert tracker.update(frame((TEN, "seat_2"))).placed == ()
    assert tracker.cards_by_zone() == {"seat_2": [TEN.card]}


def test_a_gap_restarts_the_count() -> None:
    tracker, frame = PlacementTracker(stable_frames=3), Frames()
    for seen in ([(TEN, "seat_1")], [(TEN, "seat_1")], [], [(TEN, "seat_1")], [(TEN, "seat_1")]):
        tracker.update(frame(*seen))
    assert tracker.placements() == ()
    assert len(tracker.update(frame((TEN, "seat_1"))).placed) == 1


def test_frames_split_between_zones_place_nowhere() -> None:
    tracker, frame = PlacementTracker(stable_frames=3), Frames()
    for zone in ("seat_1", "seat_2", "seat_1", "seat_2", "seat_1", "seat_2"):
        tracker.update(frame((TEN, zone)))
    assert tracker.placements() == ()


def test_a_card_on_bare_felt_is_never_placed() -> None:
    tracker, frame = PlacementTracker(stable_frames=2), Frames()
    for _ in range(5):
        tracker.update(frame((ACE, None)))
    assert tracker.placements() == ()


def test_two_copies_of_a_card_in_one_zone_are_two_placements() -> None:
    tracker, frame = PlacementTracker(stable_frames=2), Frames()
    tracker.update(frame((ACE, "dealer"), (ACE, "dealer")))
    tracker.update(frame((ACE, "dealer"), (ACE, "dealer")))
    assert tracker.cards_by_zone() == {"dealer": [ACE.card, ACE.card]}


def test_a_placed_card_survives_a_short_occlusion_and_is_withdrawn_after_a_long_one() -> None:
    tracker, frame = PlacementTracker(stable_frames=3, gone_frames=4), Frames()
    for _ in range(3):
        tracker.update(frame((TEN, "seat_5")))
    for _ in range(3):
        assert tracker.update(frame()).withdrawn == ()
    tracker.update(frame((TEN, "seat_5")))
    for _ in range(3):
        tracker.update(frame())
    changes = tracker.update(frame())
    assert [p.zone for p in changes.withdrawn] == ["seat_5"]
    assert tracker.placements() == ()


def test_a_moved_card_is_placed_in_its_new_zone_and_later_withdrawn_from_the_old() -> None:
    tracker, frame = PlacementTracker(stable_frames=2, gone_frames=3), Frames()
    for _ in range(2):
        tracker.update(frame((TEN, "seat_3")))
    placed = [tracker.update(frame((TEN, "seat_4"))) for _ in range(3)]
    assert [p.zone for c in placed for p in c.placed] == ["seat_4"]
    assert [p.zone for c in placed for p in c.withdrawn] == ["seat_3"]


def test_clear_forgets_the_round_and_bad_settings_are_refused() -> None:
    tracker, frame = PlacementTracker(stable_frames=1), Frames()
    tracker.update(frame((TEN, "seat_1")))
    tracker.clear()
    assert tracker.placements() == ()
    with pytest.raises(RuleError, match="stable_frames 0"):
        PlacementTracker(stable_frames=0)

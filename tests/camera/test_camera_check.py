"""The camera against the round: what counts as a difference, how it is worded, when it is told."""

from __future__ import annotations

from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.table.session import TableConfig, TableSession
from dealer_assist.table.session_inputs import ShoeLoaded
from dealer_assist.table.snapshot import build_table_snapshot
from devices.camera.check import CameraCheck, describe, differences, reported_by_zone
from devices.camera.codes import CardCode
from devices.camera.mismatch import MismatchKind
from devices.camera.reader import FrameReading, Sighting


def cards(*codes: str) -> list:
    return [parse_card(code) for code in codes]


def session(*codes: str) -> TableSession:
    """sd-buster-a, house-banked, hole card second: seat 3 wagers and the cards are dealt in order."""
    table = TableSession(TableConfig("T1", "sd-buster-a"))
    table.apply(ShoeLoaded("S1", 6), 0)
    table.apply(PlaceWager(3, WagerKind.BASE, 1_000), 0)
    table.apply(NoMoreBets(), 0)
    for card in cards(*codes):
        table.apply(CardDrawn(card), 0)
    return table


def frame(index: int, **zones: list[str]) -> FrameReading:
    sightings = tuple(
        Sighting(CardCode(parse_card(code)), zone, (0.0, 0.0)) for zone, codes in zones.items() for code in codes
    )
    return FrameReading(index, sightings, ())


def test_the_camera_is_compared_with_the_face_up_cards_the_shoe_reported():
    snap = build_table_snapshot(session("8S", "5H", "8D", "TC"))
    assert reported_by_zone(snap) == {"seat_3": cards("8S", "8D"), "dealer": cards("5H")}, "the hole card is face down"


def test_a_card_the_camera_does_not_see_is_no_difference_by_itself():
    reported = {"seat_3": cards("8S", "8D", "2C"), "dealer": cards("5H")}
    assert differences(reported, {"seat_3": cards("2C"), "discard": cards("KS")}) == ()


def test_a_card_seen_in_place_of_another_is_named_with_it_and_its_hand():
    table = session("8S", "5H", "8D", "TC")
    table.apply(Decide(3, 0, Action.SPLIT), 0)
    table.apply(CardDrawn(parse_card("2C")), 0)  # to the first hand: 8S 2C, the second holds 8D
    snap = build_table_snapshot(table)
    found = differences(reported_by_zone(snap), {"seat_3": cards("8S", "2C", "8H"), "dealer": cards("5H")})
    assert [(m.kind, str(m.card)) for m in found] == [
        (MismatchKind.MISSING_ON_TABLE, "8D"),
        (MismatchKind.EXTRA_ON_TABLE, "8H"),
    ]
    assert describe(found, snap) == "Seat 3 hand 2: the shoe read 8D, the camera sees 8H"


def test_a_card_in_the_wrong_place_and_a_card_nobody_dealt_are_told_apart():
    snap = build_table_snapshot(session("8S", "5H", "9D", "TC"))
    found = differences(
        reported_by_zone(snap), {"seat_3": cards("8S"), "seat_4": cards("9D"), "dealer": cards("5H", "QC")}
    )
    assert describe(found, snap) == (
        "9D: the shoe dealt it to seat 3, the camera sees it at seat 4; "
        "The dealer: the camera sees QC, the shoe dealt no such card there"
    )


def test_a_difference_is_told_once_it_lasts_and_again_when_it_is_gone():
    table = session("8S", "5H", "9D", "TC")
    snap = build_table_snapshot(table)
    check = CameraCheck(settle_frames=2)
    seen = {"seat_3": ["8S", "9C"], "dealer": ["5H"]}
    verdicts = [check.frame(frame(i, **seen), snap) for i in range(1, 8)]
    told = [(i, v) for i, v in enumerate(verdicts, start=1) if v is not None]
    assert len(told) == 1 and told[0][0] == 4, "placed after 3 frames, lasting 2 frames"
    assert told[0][1].message == "Seat 3: the shoe read 9D, the camera sees 9C"
    assert check.frame(frame(8, **seen), snap) is None, "told once"
    verdicts = [check.frame(frame(i, seat_3=["8S", "9D"], dealer=["5H"]), snap) for i in range(9, 60)]
    agreed = [v for v in verdicts if v is not None]
    assert len(agreed) == 1 and agreed[0].mismatches == () and agreed[0].message == ""


def test_a_new_round_starts_from_a_cleared_felt():
    table = session("8S", "5H", "9D", "TC")
    check = CameraCheck(settle_frames=1)
    for i in range(1, 5):
        check.frame(frame(i, seat_3=["8S", "9D"], dealer=["5H"]), build_table_snapshot(table))
    assert check.placements.placements()
    table.apply(Decide(3, 0, Action.STAND), 0)
    table.s.round_id += 1  # as if the next round had opened
    assert check.frame(frame(5), build_table_snapshot(table)) is None
    assert check.placements.placements() == ()

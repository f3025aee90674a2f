"""The camera against the shoe: every difference is a record, none is resolved."""
from __future__ import annotations

import dataclasses

import pytest

from dealer_assist.cards import parse_card
from devices.camera_mismatch import Mismatch, MismatchKind, compare_placements


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
    assert [(m.kind, str(m.card)) for m in found] == [(MismatchKind.MISSING_ON_TABLE, "2C"), (MismatchKind.MISSING_ON_TABLE, "3C")]


def test_mismatch_records_are_frozen_and_print_as_json() -> None:
    mismatch = compare_placements({}, {"discard": cards("7S")})[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        mismatch.card = parse_card("8S")  # type: ignore[misc]
    assert mismatch.to_json() == {"kind": "extra_on_table", "card": "7S", "expected_zone": None, "seen_zone": "discard"}

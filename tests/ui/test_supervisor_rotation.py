"""The rotation screen: who banks and for which turn, the offer and the seats that refused it, and
under the California rotation limits the time left before two other player-dealers must bank."""

from __future__ import annotations

from test_supervisor_helpers import Clock, journal, new_table, unlocked  # noqa: F401

from dealer_assist.table.session_inputs import BankAccepted, BankRefused, ShoeLoaded
from ui.supervisor.rotation_view import RotationStatus


def _shown(window) -> dict[str, str]:
    return {key: label.text() for key, label in window.rotation.lines.items()}


def test_the_offer_and_the_seats_that_refused_it(qtbot, journal):
    table = new_table(journal)
    table.submit(ShoeLoaded("S-1", 6))
    table.submit(BankRefused(1))
    table.submit(BankRefused(2))
    window = unlocked(qtbot, table)
    window.tabs.setCurrentWidget(window.rotation)
    assert _shown(window) == {
        "banker": "nobody yet",
        "offer": "seat 3 · first turn",
        "refused": "seat 1, seat 2",
        "rotation": "off",
        "time_left": "—",
    }


def test_a_proposition_player_banking_starts_the_countdown_for_two_others(qtbot, journal):
    clock = Clock()
    table = new_table(journal, clock=clock, rotation=True)
    table.submit(ShoeLoaded("S-1", 6))
    table.submit(BankAccepted(1, 50_000, proposition=True))
    window = unlocked(qtbot, table)
    window.tabs.setCurrentWidget(window.rotation)
    shown = _shown(window)
    assert shown["banker"] == "seat 1 · bank $500 · first turn · proposition player"
    assert shown["rotation"] == "on · proposition player seat 1 · other player-dealers since: none yet (0 of 2)"
    assert shown["time_left"] == "40:00"
    clock.now += 25 * 60 + 30
    window.rotation.show_status(RotationStatus.of(window.controller.supervisor_snapshot(recent=0).rotation))
    assert _shown(window)["time_left"] == "14:30"
    clock.now += 15 * 60
    window.rotation.show_status(RotationStatus.of(window.controller.supervisor_snapshot(recent=0).rotation))
    assert _shown(window)["time_left"] == "none: the window closed 0:30 ago"


def test_a_house_banked_table_has_no_rotation(qtbot, journal):
    table = new_table(journal, profile="sd-buster-a")
    window = unlocked(qtbot, table)
    assert _shown(window)["banker"] == "the house banks: sd-buster-a has no player-dealer"

"""Seat orders around the table: clockwise is increasing seat number, wrapping N -> 1 (RULES.md §1)."""

from __future__ import annotations

from collections.abc import Collection

from dealer_assist.rules.cards import Card

__all__ = ["next_clockwise"]


def clockwise_from(start: int, seats: int, skip: int | None = None) -> list[int]:
    """Every seat once, from `start` clockwise, without the player-dealer's seat."""
    order = [((start - 1 + step) % seats) + 1 for step in range(seats)]
    return [seat for seat in order if seat != skip]


def next_clockwise(seat: int, seats: int) -> int:
    return seat % seats + 1


def action_seat(pd_seat: int, seats: int, second_card: Card, wagered: Collection[int]) -> int:
    """Where action starts (RULES.md §2.16): count the PD's second card clockwise from the PD,
    wrapping over the other N-1 seats, then move on to the next seat that has a wager."""
    position = (second_card.button_value - 1) % (seats - 1) + 1
    button = ((pd_seat - 1 + position) % seats) + 1
    for seat in clockwise_from(button, seats, skip=pd_seat):
        if seat in wagered:
            return seat
    return button

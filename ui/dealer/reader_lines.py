"""What the dealer's screen says of the wager reader (RULES.md §8.22-8.24): a seat's line (chips
that are no wager, a late change, a payout difference, a double's chips awaited), the prompt while
the reader holds the table, and the payout check's differences over the rows being paid."""

from __future__ import annotations

from dealer_assist.rules.money import Cents
from dealer_assist.rules.phases import Need
from dealer_assist.table.readings import row_spot
from dealer_assist.table.snapshot import ReaderView, SpotView, TableSnapshot
from dealer_assist.table.spots import Spot, SpotKind
from dealer_assist.text.reader_words import (
    CHECK_SKIPPED,
    DOWN_BETTING,
    faulted_note,
    faulted_prompt,
    faulted_unchecked,
    late_change,
    payout_difference,
    reading_problem,
    spot_name,
)


def seat_line(views: tuple[SpotView, ...], reader: ReaderView, seat: int, need: Need | None = None) -> tuple[str, bool]:
    """The seat's reader line, and whether it asks for something to be put right."""
    awaited = reader.awaited
    lines = []
    faulted = reader.faulted_on(seat)
    if faulted:
        lines.append(faulted_note(faulted, need in (Need.WAGERS, Need.INSURANCE)))
    for view in views:
        if view.difference is not None:
            lines.append(payout_difference(view.reading.spot, view.difference.held, view.difference.due, seat=False))
        elif view.due is not None:
            lines.append(late_change(view.reading.spot, view.reading.amount, view.due, view.reading.alien, seat=False))
        elif view.problem is not None:
            lines.append(reading_problem(view.problem, seat=False))
    if lines:
        return " · ".join(lines), True
    if awaited is not None and awaited.seat == seat:
        return f"{spot_name(awaited.spot, seat=False)}: add the {awaited.action}'s chips", False
    return "", False


def reader_prompt(snap: TableSnapshot) -> str | None:
    """The prompt while the reader holds the table, instead of the round's own; None otherwise."""
    reader = snap.reader
    if reader is None:
        return None
    if reader.scanning:
        return "Reading the spots…"
    if reader.differences:
        return "Spots put right: tap again" if put_right(reader) else "Spots wrong: put them right, then tap again"
    if reader.down and snap.need is Need.WAGERS:
        return DOWN_BETTING
    if reader.awaited is not None:
        awaited = reader.awaited
        where = spot_name(awaited.spot, seat=False).lower()
        return f"Seat {awaited.seat}: the player adds the {awaited.action}'s chips on the {where}"
    if snap.need is Need.WAGERS and reader.problems:
        return f"Put right: {reading_problem(reader.problems[0])}"
    keyed = {Need.WAGERS: (SpotKind.BASE, SpotKind.LUCKY_LUCKY, SpotKind.BUSTER), Need.INSURANCE: (SpotKind.INSURANCE,)}
    kinds = keyed.get(snap.need, ()) if snap.need is not None else ()
    faulted = tuple(spot for spot in reader.faulted if spot.seat is not None and spot.kind in kinds)
    if faulted:
        return faulted_prompt(faulted)
    return None


def difference_lines(snap: TableSnapshot) -> str:
    """Each spot the payout check found wrong, a line each, as its chips lie now (the reader reads
    them as the dealer puts them right): 'Seat 2 · Base: $75 on the spot, $50 due · $25 overpaid';
    or that the check is skipped, the reader down, and each faulted spot it leaves out."""
    if snap.reader is None:
        return ""
    if snap.reader.down:
        return CHECK_SKIPPED
    collected = _collected(snap)
    lines = [
        payout_difference(
            view.reading.spot, view.reading.amount, view.difference.due, collected=collected.get(view.reading.spot, 0)
        )
        for view in snap.reader.spots
        if view.difference is not None
    ]
    paid = {row.seat for row in (snap.due or snap.settlement)}
    lines += [faulted_unchecked(spot) for spot in snap.reader.faulted if spot.seat in paid]
    return "\n".join(lines)


def _collected(snap: TableSnapshot) -> dict[Spot, Cents]:
    """What the rows of the step being paid collect from each spot."""
    rows = (
        snap.due
        if snap.need is Need.PAYMENTS
        else tuple(row for row in snap.settlement if not snap.was_settled_early(row))
    )
    collected: dict[Spot, Cents] = {}
    for row in rows:
        if row.amount < 0:
            collected[row_spot(row)] = collected.get(row_spot(row), 0) - row.amount
    return collected


def put_right(reader: ReaderView) -> bool:
    """Whether every spot the payout check found wrong now holds what it must."""
    return all(view.reading.amount == view.difference.due for view in reader.spots if view.difference is not None)

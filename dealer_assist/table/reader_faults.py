"""The wager reader when it cannot read (RULES.md §8.22-8.24, DEVICES.md §6): a spot under a fault,
and the whole reader down.

A faulted spot is keyed by the dealer until its CLEAR. A reader whose link went down reads nothing
until its next completed scan: meanwhile the dealer keys the wagers, "No more bets" closes them
only once the dealer confirms the wagers shown, and a "Paid" goes unchecked, journaled as such.
When the reader is back, its first scan is compared with what the table holds, and each spot that
differs is journaled before the readings are taken. Pure: the session carries this state between
rounds in its plain data (`reader_faulted`, `reader_down`) and calls these functions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from dealer_assist.rules.phases import Phase
from dealer_assist.rules.profile import PayoutCheck, Profile
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.readings import SPOT_WAGERS, WagerReadings, must_hold
from dealer_assist.table.session_inputs import ReaderSpots, ScanFor, SpotReading
from dealer_assist.table.session_operations import PayoutCheckSkipped, ReaderBackDiffers, WagersConfirmed
from dealer_assist.table.spots import Spot, SpotKind, parse_spot


class Carried(Protocol):
    """The session's state between rounds, as far as the reader's faults go."""

    reader_faulted: list[str]  # spots under a fault, by name
    reader_down: bool  # the link went down and no scan has completed since


def faulted_spots(carried: Carried) -> tuple[Spot, ...]:
    return tuple(parse_spot(name) for name in carried.reader_faulted)


def take_spots(carried: Carried, reader: WagerReadings, event: ReaderSpots) -> None:
    """The spots the table reads from now on, those under a fault, and an outage, which lasts until
    the next completed scan (a later listing while the link comes back does not end it)."""
    reader.use(event.spots)
    carried.reader_faulted[:] = sorted(str(spot) for spot in event.faulted)
    if event.outage:
        carried.reader_down = True


def unchanged(carried: Carried, reader: WagerReadings, event: ReaderSpots) -> bool:
    """Whether taking `event` would change nothing (nothing then to journal)."""
    return (
        set(event.spots) == reader.spots
        and set(event.faulted) == set(faulted_spots(carried))
        and (not event.outage or carried.reader_down)
    )


def refuse_unconfirmed_close(carried: Carried) -> None:
    """ "No more bets" with the reader down closes nothing until the dealer confirms the wagers shown."""
    if carried.reader_down:
        raise RuleError(
            Refusal.CONFIRM_WAGERS,
            "the wager reader is down: check the wagers shown against the chips on the spots, then confirm them",
            "8.23",
        )


def confirmed(carried: Carried, tracker: RoundTracker) -> WagersConfirmed:
    """The wagers as the dealer confirms them, the reader down; refused while the reader is up."""
    if not carried.reader_down:
        raise RuleError(
            Refusal.READER_UP, "the wager reader is up: the wagers close at its scan: tap No more bets", "8.23"
        )
    wagered = {seat: sum(kinds.values()) for seat, kinds in tracker.wagers.items() if any(kinds.values())}
    return WagersConfirmed(len(wagered), sum(wagered.values()))


def skipped_check(carried: Carried, profile: Profile, step: ScanFor) -> list[PayoutCheckSkipped]:
    """A "Paid" or a "Done" while the reader is down at a table that checks payouts: the check is skipped, said so."""
    if carried.reader_down and profile.payout_check is PayoutCheck.HOLD:
        return [PayoutCheckSkipped(step)]
    return []


def _held(tracker: RoundTracker, spot: Spot) -> int:
    """What the table holds for a seat's spot: its wager while betting is open, else what the spot must hold."""
    assert spot.seat is not None
    if tracker.phase is not Phase.BETTING:
        return must_hold(tracker, spot)
    if spot.kind is SpotKind.INSURANCE:
        return tracker.insurance.get(spot.seat, 0)
    return tracker.wagers.get(spot.seat, {}).get(SPOT_WAGERS[spot.kind], 0)


def back_differences(
    carried: Carried, reader: WagerReadings, tracker: RoundTracker | None, reads: Iterable[SpotReading]
) -> list[ReaderBackDiffers]:
    """A completed scan ends an outage: each seat's spot that holds other chips than the table
    holds for it (keyed while the reader was down, or moved meanwhile) is a difference, unless
    its wager is settled already."""
    if not carried.reader_down:
        return []
    carried.reader_down = False
    if tracker is None or tracker.phase is Phase.SETTLED:
        return []
    found = []
    for reading in reads:
        spot = reading.spot
        if spot.seat is None or (spot.kind not in SPOT_WAGERS and spot.kind is not SpotKind.INSURANCE):
            continue
        if tracker.phase is not Phase.BETTING and not reader.watched(tracker, spot):
            continue
        held = _held(tracker, spot)
        if reading.amount != held:
            found.append(ReaderBackDiffers(spot, held, reading.amount))
    return found

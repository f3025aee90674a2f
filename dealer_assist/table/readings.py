"""The table's side of the wager reader (RULES.md §8.22-8.24): what the chips on the spots mean.

While betting is open each read spot's chips are its wager; a reading the rules do not take as a
wager is a problem shown on its seat, and "No more bets" waits for it. Once the wagers are closed
each read spot must hold what the round says: its wager, and what a double, a split or insurance
added. A change no decision explains is a late change; the chips a decision adds are its stake.
At the dealer's "Paid" each spot settled in the step must hold what the settlement leaves on it.
Pure: the session owns this state and journals every input that changes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dealer_assist.rules.betting import wager_limits
from dealer_assist.rules.counts import count
from dealer_assist.rules.inputs import Action, PlaceWager, WagerKind
from dealer_assist.rules.money import Cents, format_money, to_units
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.rules.settlement import Row, Wager
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.session_inputs import SpotReading
from dealer_assist.table.session_operations import ChipsAwaited, MispayAccepted, PayoutDifference
from dealer_assist.table.spots import Spot, SpotKind, parse_spot

__all__ = ["CHIP_DECISIONS", "ReadingIssue", "SpotProblem", "WAGER_SPOTS", "row_spot"]

SPOT_WAGERS = {
    SpotKind.BASE: WagerKind.BASE,
    SpotKind.LUCKY_LUCKY: WagerKind.LUCKY_LUCKY,
    SpotKind.BUSTER: WagerKind.BUSTER,
}
WAGER_SPOTS = {wager: spot for spot, wager in SPOT_WAGERS.items()}
ROW_SPOTS = {
    Wager.LUCKY_LUCKY: SpotKind.LUCKY_LUCKY,
    Wager.INSURANCE: SpotKind.INSURANCE,
    Wager.BASE: SpotKind.BASE,
    Wager.BUSTER: SpotKind.BUSTER,
    Wager.FREE_BONUS: SpotKind.BUSTER,
}  # a free bonus is paid on its Buster
CHIP_DECISIONS = (Action.DOUBLE, Action.SPLIT)


def row_spot(row: Row) -> Spot:
    """The spot whose chips a settlement row moves."""
    return Spot(row.seat, ROW_SPOTS[row.wager])


def due_on_spots(rows: Iterable[Row]) -> dict[Spot, Cents]:
    """What each spot must hold once these rows are settled: its stakes and what was paid to them,
    less what was collected (nothing for a loss; what a surrender leaves) (RULES.md §8.24)."""
    due: dict[Spot, Cents] = {}
    for row in rows:
        spot = row_spot(row)
        due[spot] = due.get(spot, 0) + row.stake + row.amount
    return due


def mispay_entries(mispays: Iterable[MispayAccepted]) -> list[dict[str, Any]]:
    """The round's mispays as its ledger keeps them (currency units, as the ledger's amounts):
    `difference` is what the spot holds beyond what it must, negative for an underpay."""
    return [
        {
            "seat": m.spot.seat,
            "spot": str(m.spot),
            "held": to_units(m.held),
            "due": to_units(m.due),
            "difference": to_units(m.held - m.due),
            "supervisor": m.supervisor,
            "reason": m.reason,
        }
        for m in mispays
    ]


class ReadingIssue(StrEnum):
    ALIEN = "alien"
    BELOW_MINIMUM = "below_minimum"
    ABOVE_MAXIMUM = "above_maximum"
    REFUSED = "refused"  # any other refusal of the wager: `message` says why


@dataclass(frozen=True, slots=True)
class SpotProblem:
    """A read spot whose chips are not a wager the rules take (RULES.md §8.22); `limit` is the
    minimum or the maximum it breaks."""

    reading: SpotReading
    issue: ReadingIssue
    limit: Cents = 0
    message: str = ""

    def refusal(self) -> RuleError:
        spot, total = self.reading.spot, format_money(self.reading.amount)
        why = {
            ReadingIssue.ALIEN: f"{count(self.reading.alien, 'chip')} of another casino on it",
            ReadingIssue.BELOW_MINIMUM: f"{total} is below the {format_money(self.limit)} minimum",
            ReadingIssue.ABOVE_MAXIMUM: f"{total} is above the {format_money(self.limit)} maximum",
            ReadingIssue.REFUSED: self.message,
        }[self.issue]
        return RuleError(
            Refusal.READING_NOT_ALLOWED, f'{spot.words}: {why}: put it right before "No more bets"', "8.22"
        )


def spot_problem(tracker: RoundTracker, reading: SpotReading, base: Cents) -> SpotProblem | None:
    """Why the chips on a seat's wager spot are not its wager, were the seat's base wager `base`."""
    spot = reading.spot
    assert spot.seat is not None, "the bank is no wager"
    if reading.alien:
        return SpotProblem(reading, ReadingIssue.ALIEN)
    if not reading.amount:
        return None
    if (error := tracker.seat_refusal(spot.seat)) is not None:
        return SpotProblem(reading, ReadingIssue.REFUSED, message=error.message)
    kind = SPOT_WAGERS[spot.kind]
    limits = wager_limits(tracker.profile, kind)
    if limits is not None and not limits[0] <= reading.amount <= limits[1]:
        below = reading.amount < limits[0]
        return SpotProblem(
            reading,
            ReadingIssue.BELOW_MINIMUM if below else ReadingIssue.ABOVE_MAXIMUM,
            limits[0] if below else limits[1],
        )
    error = tracker.wager_refusal(PlaceWager(spot.seat, kind, reading.amount), base)
    return None if error is None else SpotProblem(reading, ReadingIssue.REFUSED, message=error.message)


def must_hold(tracker: RoundTracker, spot: Spot) -> Cents:
    """What a seat's spot must hold now the wagers are closed: its wager, with what a double, a
    split or insurance added."""
    seat = spot.seat
    assert seat is not None, "the bank is no wager"
    if spot.kind is SpotKind.INSURANCE:
        return tracker.insurance.get(seat, 0)
    hands = tracker.hands.get(seat) if spot.kind is SpotKind.BASE else None
    if hands:
        return sum(hand.stake + hand.double for hand in hands)
    return tracker.wagers.get(seat, {}).get(SPOT_WAGERS[spot.kind], 0)


@dataclass
class RoundReadings:
    """What the reader found in the open round: rebuilt from the journal with the round."""

    late: dict[Spot, SpotReading] = field(default_factory=dict)  # spots holding other chips than they must
    awaited: ChipsAwaited | None = None  # a double or a split waiting for its chips
    matched: set[Spot] = field(default_factory=set)  # spots found right in the open step
    differences: dict[Spot, PayoutDifference] = field(default_factory=dict)  # found wrong in the open step
    mispays: list[MispayAccepted] = field(default_factory=list)

    def changed_late(self, reading: SpotReading) -> bool:
        """Keeps a spot's reading that is not what it must hold; whether its chips changed since the
        last such reading: one late change is journaled once, not again at every later scan."""
        was = self.late.get(reading.spot)
        self.late[reading.spot] = reading
        return was is None or (was.amount, was.alien) != (reading.amount, reading.alien)


def wager_changes(seat: int, current: Mapping[WagerKind, Cents], want: Mapping[WagerKind, Cents]) -> list[PlaceWager]:
    """The wagers that take the seat from `current` to `want` (kinds `want` leaves out stay as they
    are), in an order the rules take: side bets off before their base, a base before its side bets."""
    changes = [PlaceWager(seat, kind, amount) for kind, amount in want.items() if amount != current.get(kind, 0)]
    off = [change for change in changes if change.kind is not WagerKind.BASE and not change.amount]
    return [*off, *(change for change in changes if change not in off)]


class WagerReadings:
    """The reader's spots in use and their last readings, carried from round to round in the
    session's plain state (`spots`, `readings`: spot name -> [chips, total, alien]), and what the
    reader found in the open round."""

    def __init__(self, spots: list[str], readings: dict[str, list[int]]) -> None:
        self._spots = spots
        self._readings = readings
        self.round = RoundReadings()

    @property
    def spots(self) -> frozenset[Spot]:
        return frozenset(parse_spot(name) for name in self._spots)

    def reads(self, spot: Spot) -> bool:
        """Whether the table takes this spot's chips from the reader now (else the dealer keys it)."""
        return str(spot) in self._spots

    def use(self, spots: Iterable[Spot]) -> None:
        self._spots[:] = sorted(str(spot) for spot in spots)

    def reading(self, spot: Spot) -> SpotReading:
        """The spot's last reading; a spot never read holds nothing."""
        chips, total, alien = self._readings.get(str(spot), (0, 0, 0))
        return SpotReading(spot, chips, total, alien)

    def keep(self, reading: SpotReading) -> None:
        self._readings[str(reading.spot)] = [reading.chips, reading.amount, reading.alien]

    def readings(self) -> Mapping[Spot, SpotReading]:
        """Every read spot's last reading."""
        return {spot: self.reading(spot) for spot in sorted(self.spots, key=str)}

    def seat_wagers(self, tracker: RoundTracker, seat: int) -> tuple[list[PlaceWager], list[SpotProblem]]:
        """While betting is open: the wagers that make the seat's read spots its wagers, in an order
        the rules take (side bets off before their base, a base before its side bets), and the
        spots whose chips are not a wager (RULES.md §8.22)."""
        current = tracker.wagers.get(seat, {})
        want: dict[WagerKind, Cents] = {}
        problems = []
        base = current.get(WagerKind.BASE, 0)
        for kind in (SpotKind.BASE, SpotKind.LUCKY_LUCKY, SpotKind.BUSTER):
            wager = SPOT_WAGERS[kind]
            spot = Spot(seat, kind)
            if not self.reads(spot):
                if kind is SpotKind.BASE:
                    continue  # keyed by the dealer: its side bets are checked against the keyed base
                want[wager] = current.get(wager, 0)
                continue
            reading = self.reading(spot)
            problem = spot_problem(tracker, reading, base)
            if problem is not None:
                problems.append(problem)
            want[wager] = 0 if problem is not None else reading.amount
            if kind is SpotKind.BASE:
                base = want[wager]
        return wager_changes(seat, current, want), problems

    def problems(self, tracker: RoundTracker) -> list[SpotProblem]:
        """Every read spot whose chips hold "No more bets" back, seat by seat."""
        seats = sorted({spot.seat for spot in self.spots if spot.seat is not None and spot.kind in SPOT_WAGERS})
        return [problem for seat in seats for problem in self.seat_wagers(tracker, seat)[1]]

    def settling(self, tracker: RoundTracker) -> dict[Spot, Cents]:
        """The read spots settled in the step open now, and what each must hold once it is: with
        the late chips still on it, which go back to the player (RULES.md §8.23)."""
        rows: tuple[Row, ...] = tracker.due
        if not rows and tracker.rows:  # the settlement: every row not settled before
            rows = tuple(row for row in tracker.rows if (row.seat, row.hand, row.wager) not in tracker.settled_early)
        late = self.late_chips(tracker)
        return {spot: max(0, due + late.get(spot, 0)) for spot, due in due_on_spots(rows).items() if self.reads(spot)}

    def late_chips(self, tracker: RoundTracker) -> dict[Spot, Cents]:
        """Each spot under a late change, and the chips on it beyond its closed wager: added late
        (more than zero) they are not in play and go back to the player; taken off (less) the
        closed wager still stands (RULES.md §8.23)."""
        found = {spot: reading.amount - must_hold(tracker, spot) for spot, reading in self.round.late.items()}
        return {spot: chips for spot, chips in found.items() if chips}

    def watched(self, tracker: RoundTracker, spot: Spot) -> bool:
        """Whether a change of this spot is a late change: a seat's wager spot, read, whose wager
        is not being settled or settled already, nor surrendered (its chips are taken then)."""
        if spot.seat is None or not self.reads(spot) or spot in self.settling(tracker):
            return False
        settled = {Spot(seat, ROW_SPOTS[wager]) for seat, _hand, wager in tracker.settled_early}
        hands = tracker.hands.get(spot.seat, []) if spot.kind is SpotKind.BASE else []
        return spot not in settled and not any(hand.surrendered for hand in hands)

    def check(self, tracker: RoundTracker, reads: Iterable[SpotReading]) -> list[PayoutDifference]:
        """At "Paid": the spots of the step not yet found right, against the scan; the right ones
        are done (RULES.md §8.24). A spot the scan left out (under a fault) is not checked."""
        held = {reading.spot: reading.amount for reading in reads}
        found = []
        for spot, due in self.settling(tracker).items():
            if spot in self.round.matched or spot not in held:
                continue
            if held[spot] == due:
                self.round.matched.add(spot)
                self.round.differences.pop(spot, None)
            else:
                found.append(PayoutDifference(spot, held[spot], due))
        self.round.differences = {difference.spot: difference for difference in found}
        return found

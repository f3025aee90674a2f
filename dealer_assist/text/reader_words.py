"""What the wager reader found, in words (RULES.md §8.22-8.24): chips that are no wager, a late
change, a payout difference and a mispay, as the seats, the recall and the dispute report say them.
With `seat` the words start with the seat ("Seat 3 · Base ..."); a seat's own panel leaves it out."""
from __future__ import annotations

from dealer_assist.rules.counts import count as counted
from dealer_assist.rules.money import Cents
from dealer_assist.table.readings import ReadingIssue, SpotProblem
from dealer_assist.table.spots import Spot, SpotKind
from dealer_assist.text.record_words import money_text

SPOT_NAMES = {SpotKind.BASE: "Base", SpotKind.LUCKY_LUCKY: "Lucky Lucky", SpotKind.BUSTER: "Buster",
              SpotKind.INSURANCE: "Insurance", SpotKind.BANK: "Bank"}


def spot_name(spot: Spot, seat: bool = True) -> str:
    """'Seat 3 · Base', 'Base' without the seat; the player-dealer's bank is 'Player-dealer · Bank'."""
    name = SPOT_NAMES[spot.kind]
    if not seat:
        return name
    return f"{'Player-dealer' if spot.seat is None else f'Seat {spot.seat}'} · {name}"


def _aliens(count: int) -> str:
    return f"{counted(count, 'chip')} of another casino"


def reading_problem(problem: SpotProblem, seat: bool = True) -> str:
    """'Seat 3 · Base $3 · below the $5 minimum'."""
    reading = problem.reading
    why = {
        ReadingIssue.ALIEN: _aliens(reading.alien),
        ReadingIssue.BELOW_MINIMUM: f"below the {money_text(problem.limit)} minimum",
        ReadingIssue.ABOVE_MAXIMUM: f"above the {money_text(problem.limit)} maximum",
        ReadingIssue.REFUSED: problem.message,
    }[problem.issue]
    return f"{spot_name(reading.spot, seat)} {money_text(reading.amount)} · {why}"


def on_spot(spot: Spot, held: Cents, due: Cents, due_word: str, seat: bool = True) -> str:
    """'Seat 2 · Base: $75 on the spot, $50 due'."""
    return f"{spot_name(spot, seat)}: {money_text(held)} on the spot, {money_text(due)} {due_word}"


def late_change(spot: Spot, held: Cents, due: Cents, alien: int = 0, seat: bool = True) -> str:
    """'Seat 3 · Base: $40 on the spot, $30 closed · late change'; on the seat itself, in its
    narrow place, it says so first: 'Late change · Base $40 · closed $30'."""
    aliens = f" · {_aliens(alien)}" if alien else ""
    if not seat:
        return f"Late change · {spot_name(spot, seat)} {money_text(held)} · closed {money_text(due)}{aliens}"
    return f"{on_spot(spot, held, due, 'closed', seat)}{aliens} · late change"


def payout_difference(spot: Spot, held: Cents, due: Cents, seat: bool = True) -> str:
    """'Seat 2 · Base: $75 on the spot, $50 due · $25 overpaid'."""
    way = "overpaid" if held > due else "underpaid"
    return f"{on_spot(spot, held, due, 'due', seat)} · {money_text(abs(held - due))} {way}"


def mispay(spot: Spot, held: Cents, due: Cents, supervisor: str, reason: str) -> str:
    """A payout difference a floor supervisor accepted: '... · $25 underpaid · accepted by Floor 1: player left'."""
    return f"{payout_difference(spot, held, due)} · accepted by {supervisor}: {reason}"

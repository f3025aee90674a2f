"""What the wager reader found, in words (RULES.md §8.22-8.24): chips that are no wager, a late
change, a payout difference and a mispay, as the seats, the recall and the dispute report say them.
With `seat` the words start with the seat ("Seat 3 · Base ..."); a seat's own panel leaves it out."""
from __future__ import annotations

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
    return f"{count} chip{'' if count == 1 else 's'} of another casino"


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
    narrow place of two lines, it says so first, the change before the wager that stands:
    'Late +$10 on Base · closed $30 stands'."""
    aliens = f" · {_aliens(alien)}" if alien else ""
    if not seat:
        change = f" {money_text(held - due, signed=True)}" if held != due else ""
        return f"Late{change} on {spot_name(spot, seat)}{aliens} · closed {money_text(due)} stands"
    return f"{on_spot(spot, held, due, 'closed', seat)}{aliens} · late change"


def late_chips_back(chips: Cents) -> str:
    """What the settlement says of a spot's late chips (RULES.md §8.23): added late they go back to
    the player, 'RETURN LATE $25'; taken off late, the closed wager still stands."""
    return f"RETURN LATE {money_text(chips)}" if chips > 0 else f"{money_text(-chips)} TAKEN OFF LATE"


def payout_difference(spot: Spot, held: Cents, due: Cents, seat: bool = True, collected: Cents = 0) -> str:
    """'Seat 2 · Base: $75 on the spot, $50 due · $25 overpaid'; chips the settlement collects from
    the spot (`collected`) and still on it are 'not collected'; once the chips are as due, 'right now'."""
    if held == due:
        return f"{on_spot(spot, held, due, 'due', seat)} · right now"
    way = "not collected" if 0 < held - due <= collected else "overpaid" if held > due else "underpaid"
    return f"{on_spot(spot, held, due, 'due', seat)} · {money_text(abs(held - due))} {way}"


def mispay(spot: Spot, held: Cents, due: Cents, supervisor: str, reason: str) -> str:
    """A payout difference a floor supervisor accepted: '... · $25 underpaid · accepted by Floor 1: player left'."""
    return f"{payout_difference(spot, held, due)} · accepted by {supervisor}: {reason}"

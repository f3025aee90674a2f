"""What the wager reader found, in words (RULES.md §8.22-8.24): chips that are no wager, a late
change, a payout difference and a mispay, as the seats, the recall and the dispute report say them.
With `seat` the words start with the seat ("Seat 3 · Base ..."); a seat's own panel leaves it out."""

from __future__ import annotations

from dealer_assist.rules.counts import count as counted
from dealer_assist.rules.money import Cents
from dealer_assist.table.readings import ReadingIssue, SpotProblem
from dealer_assist.table.spots import KIND_NAMES, Spot, SpotKind
from dealer_assist.text.record_words import money_text

__all__ = [
    "CHECK_SKIPPED",
    "CONFIRM_ACTION",
    "CONFIRM_QUESTION",
    "DOWN_BETTING",
    "SPOT_NAMES",
    "confirm_detail",
    "faulted_note",
    "faulted_prompt",
    "faulted_unchecked",
    "late_change",
    "late_chips_back",
    "mispay",
    "payout_difference",
    "reader_back",
    "reader_light",
    "reading_problem",
    "spot_name",
]

SPOT_NAMES = KIND_NAMES


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


# The reader when it cannot read (reader_faults.py): a faulted spot, the reader down, the reader back.

CHECK_SKIPPED = "Payout not checked: the wager reader is down"
DOWN_BETTING = "Wager reader down: check wagers, then confirm"  # one line at 1280 px
CONFIRM_QUESTION = "Wager reader down: close the wagers shown?"
CONFIRM_ACTION = "Confirm wagers"


def _faulted_spot(spot: Spot) -> str:
    return "Spot" if spot.kind is SpotKind.BASE else f"{SPOT_NAMES[spot.kind]} spot"


def faulted_note(spots: tuple[Spot, ...], keyed: bool) -> str:
    """A seat's spots under a fault, in its own panel: 'Spot faulted · key the wager' while the
    dealer keys it, 'Lucky Lucky spot faulted · not read' once the wagers are closed."""
    step = "key the wager" if keyed else "not read"
    return " · ".join(f"{_faulted_spot(spot)} faulted · {step}" for spot in spots)


def faulted_prompt(spots: tuple[Spot, ...]) -> str:
    """'Seat 3's spot is faulted: key its wager'; the first of several, and how many more."""
    first = spots[0]
    name = "spot" if first.kind is SpotKind.BASE else f"{SPOT_NAMES[first.kind]} spot"
    more = f" ({len(spots) - 1} more faulted)" if len(spots) > 1 else ""
    return f"Seat {first.seat}'s {name} is faulted: key its wager{more}"


def faulted_unchecked(spot: Spot) -> str:
    """At "Paid": 'Seat 3 · Base: payout not checked, the spot is faulted'."""
    return f"{spot_name(spot)}: payout not checked, the spot is faulted"


def reader_light(faulted: tuple[Spot, ...]) -> str | None:
    """What the reader's light says beside its name while spots are faulted: 'seat 3 spot faulted'."""
    if not faulted:
        return None
    if len(faulted) == 1:
        spot = faulted[0]
        return f"{'bank' if spot.seat is None else f'seat {spot.seat}'} {SPOT_NAMES[spot.kind].lower()} faulted"
    return f"{len(faulted)} spots faulted"


def confirm_detail(wagers: list[tuple[int, Cents]]) -> str:
    """What the dealer checks before the wagers close with the reader down: each seat's wagers shown."""
    shown = ", ".join(f"seat {seat} {money_text(amount)}" for seat, amount in wagers) or "no wagers"
    return (
        f"The chips cannot be read. Check each wager on the screen against the chips on its spots: {shown}. "
        "Key any that differ before you confirm."
    )


def reader_back(differences: list[tuple[Spot, Cents, Cents]], betting: bool) -> str:
    """The reader's first scan after its outage, where it differs from the table (spot, on the table, read)."""
    lines = "; ".join(
        f"{spot_name(spot)}: {money_text(held)} read, {money_text(due)} on the table" for spot, due, held in differences
    )
    then = "The chips read are the wagers now" if betting else "The closed wagers stand: check these spots"
    return f"its scan differs from the table: {lines}. {then}"

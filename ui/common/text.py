"""How amounts, cards and outcomes read on the felt: short words, whole dollars without cents."""

from __future__ import annotations

from dealer_assist.rules.inputs import WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.operations import EndReason
from dealer_assist.rules.outcomes import Result
from dealer_assist.rules.refusals import Refusal
from dealer_assist.table.session import TableState
from dealer_assist.table.snapshot import LeftOut
from dealer_assist.text.journal_text import money

__all__ = [
    "ENDED",
    "FIRST_TO_ACT",
    "FIRST_TO_ACT_TIP",
    "ON_SEAT",
    "SEAT_AS_LAST",
    "TABLE_AS_LAST",
    "TABLE_STATES",
    "left_out_line",
    "settlement_action",
    "signed",
    "total_text",
]

ENDED = {
    EndReason.NATURAL: "Natural",
    EndReason.TWENTY_ONE: "21",
    EndReason.OVER: "Over",
    EndReason.DOUBLED: "Doubled",
    EndReason.SPLIT_ACES: "Split Aces",
    EndReason.MUST_STAND: "Must stand",
    EndReason.STOOD: "Stood",
    EndReason.SURRENDERED: "Surrendered",
    EndReason.DEALER_NATURAL: "Dealer Natural",
}


# The seat holding the action button (RULES.md §2.16): the first in this round's action order, whoever
# acts now (a seat acting now says "▶ to act"); so no arrow, which would read as the seat up next.
FIRST_TO_ACT = "1st\naction"  # two short lines: beside "Seat 8" in the narrowest seat
FIRST_TO_ACT_TIP = "This seat is first in this round's action order (the action button)"


def signed(cents: Cents) -> str:
    return ("+" if cents > 0 else "") + money(cents)


def total_text(total: int | None, soft: bool) -> str:
    if total is None:
        return ""
    return f"soft {total}" if soft else str(total)


def settlement_action(amount: Cents, result: Result, stake: Cents, in_action: Cents) -> str:
    """What the dealer does with the chips of one row; a stake the bank did not reach goes back."""
    unreached = stake - in_action if 0 < in_action < stake else 0
    back = f"\nRETURN {money(unreached)}" if unreached else ""
    if amount > 0:
        return f"PAY {money(amount)}{back}"
    if amount < 0:
        return f"COLLECT {money(-amount)}{back}"
    return f"RETURN {money(stake)}" if stake and result in (Result.PUSH, Result.NO_ACTION) else "—"


TABLE_STATES = {
    TableState.NEEDS_SHOE: "waiting for a new shoe",
    TableState.OFFERING_BANK: "offering the bank",
    TableState.ROUND: "in a round",
    TableState.MISDEAL: "holding a misdeal",
    TableState.UNREAD: "holding a card the shoe could not read",
}


SEAT_AS_LAST = "Seat as last round"  # "Same as last round" (RULES.md §8.22) for the seat chosen
TABLE_AS_LAST = "Table as last round"  # and for every seat that wagered then and holds nothing yet
ON_SEAT = {
    WagerKind.BASE: "",
    WagerKind.LUCKY_LUCKY: "LL ",
    WagerKind.BUSTER: "Buster ",
}  # as the seat shows its wagers
WHY_LEFT_OUT: dict[str, str] = {
    Refusal.PLAYER_DEALER_SEAT: "banks now",
    Refusal.NOT_OFFERED: "not offered",
    Refusal.WAGER_LIMIT: "outside the limits",
    Refusal.SIDE_BET_WITHOUT_BASE: "no base wager",
}


def left_out_line(left_out: tuple[LeftOut, ...]) -> str:
    """On the seat, the last round's wagers "as last round" leaves out, and why: "Not repeated: $25,
    LL $5 · banks now" (the refusal's own words where it has no short ones)."""
    wagers = ", ".join(f"{ON_SEAT[wager.kind]}{money(wager.amount)}" for wager in left_out)
    whys = dict.fromkeys(WHY_LEFT_OUT.get(wager.code, wager.message) for wager in left_out)
    return f"Not repeated: {wagers} · {'; '.join(whys)}"

"""How amounts, cards and outcomes read on the felt: short words, whole dollars without cents."""
from __future__ import annotations

from dealer_assist.rules.money import Cents
from dealer_assist.rules.operations import EndReason
from dealer_assist.rules.outcomes import Result
from dealer_assist.table.session import TableState
from dealer_assist.text.journal_text import money

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


FIRST_TO_ACT = "▶ first"  # the seat holding the action button (RULES.md §2.16): it acts first
FIRST_TO_ACT_TIP = "This seat acts first this round (the action button)"


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


def count(n: int, thing: str) -> str:
    """'1 card', '2 cards'."""
    return f"{n} {thing}" + ("" if n == 1 else "s")

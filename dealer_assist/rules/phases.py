"""Where a round stands (`Phase`) and what it waits for next (`Need`, `Awaiting`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache

__all__ = ["Need", "Phase"]


class Phase(StrEnum):
    BETTING = "betting"
    DEALING = "dealing"
    INSURANCE = "insurance"
    PEEK = "peek"
    HELD = "held"
    PLAYING = "playing"
    DEALER = "dealer"
    SETTLED = "settled"


class Need(StrEnum):
    """What the round waits for next."""

    WAGERS = "wagers"
    CARD = "card"
    DECISION = "decision"
    INSURANCE = "insurance"
    PEEK = "peek"
    CHECK_BY_HAND = "check_by_hand"
    PAYMENTS = "payments"  # the dealer settles what is due now (RULES.md §2.15, §2.17, §5.4)
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True)
class Awaiting:
    need: Need
    seat: int | None = None
    hand: int | None = None


DEALER = 0  # the deal target of the dealer's hand; seats are 1..N

PHASE_NEEDS = {  # every phase but PLAYING, where the need is the acting hand's
    Phase.BETTING: Awaiting(Need.WAGERS),
    Phase.DEALING: Awaiting(Need.CARD),
    Phase.INSURANCE: Awaiting(Need.INSURANCE),
    Phase.PEEK: Awaiting(Need.PEEK),
    Phase.HELD: Awaiting(Need.CHECK_BY_HAND),
    Phase.DEALER: Awaiting(Need.CARD),
    Phase.SETTLED: Awaiting(Need.NOTHING),
}
PAYMENTS_DUE = Awaiting(Need.PAYMENTS)
turn_need = cache(Awaiting)  # shared values: each turn's need is built once

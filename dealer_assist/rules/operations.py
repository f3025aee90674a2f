"""Operation records: what the tracker did with an accepted input, frozen for the journal."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import Action, PeekResult, WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.outcomes import Result
from dealer_assist.rules.settlement import Wager

__all__ = ["CardAssigned", "CardUse", "EndReason", "HandEnded", "HoldReason", "Operation", "StandConfirmed"]


class CardUse(StrEnum):
    DEAL = "deal"
    HIT = "hit"
    DOUBLE = "double"
    SPLIT_HAND = "split_hand"
    DEALER_DRAW = "dealer_draw"


class EndReason(StrEnum):
    NATURAL = "natural"
    TWENTY_ONE = "twenty_one"
    OVER = "over"
    DOUBLED = "doubled"
    SPLIT_ACES = "split_aces"
    MUST_STAND = "must_stand"
    STOOD = "stood"
    SURRENDERED = "surrendered"
    DEALER_NATURAL = "dealer_natural"


class HoldReason(StrEnum):
    PEEK_FAILED = "peek_failed"
    PEEK_DISAGREES = "peek_disagrees"


@dataclass(frozen=True, slots=True)
class WagerPlaced:
    seat: int
    kind: WagerKind
    amount: Cents


@dataclass(frozen=True, slots=True)
class BettingClosed:
    player_fees: Cents
    player_dealer_fee: Cents


@dataclass(frozen=True, slots=True)
class CardAssigned:
    """`seat` None is the dealer; `hidden` marks the hole card, which no screen shows yet."""

    card: Card
    seat: int | None
    hand: int
    use: CardUse
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class DecisionTaken:
    seat: int
    hand: int
    action: Action
    amount: Cents


@dataclass(frozen=True, slots=True)
class StandConfirmed:
    """A redundant stand after a forced end (RULES.md §8.13): accepted, changes nothing."""

    seat: int
    hand: int


@dataclass(frozen=True, slots=True)
class HandEnded:
    seat: int
    hand: int
    reason: EndReason
    forced: bool


@dataclass(frozen=True, slots=True)
class LuckyLuckyJudged:
    seat: int
    line: str | None
    odds: int


@dataclass(frozen=True, slots=True)
class ActionButtonPlaced:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class InsuranceOffered:
    pass


@dataclass(frozen=True, slots=True)
class InsurancePlaced:
    seat: int
    amount: Cents


@dataclass(frozen=True, slots=True)
class PeekRequested:
    up_rank: str


@dataclass(frozen=True, slots=True)
class PeekResolved:
    natural: bool
    result: PeekResult | None
    by_hand: bool


@dataclass(frozen=True, slots=True)
class RoundHeld:
    """The round waits for a person; nothing is assumed meanwhile."""

    reason: HoldReason
    detail: str


@dataclass(frozen=True, slots=True)
class NaturalPaidEarly:
    """The dealer cannot have a Natural: this seat's Natural is settled early (RULES.md §2.15) and its
    cards are put away; its money moves now (`PaymentDue`) or in its place at settlement (§5.4)."""

    seat: int
    hand: int


@dataclass(frozen=True, slots=True)
class PaymentDue:
    """A wager the dealer settles now, before the round goes on, exactly as the settlement will
    show it: `amount` > 0 is paid, < 0 collected (RULES.md §2.15, §2.17, §5.4)."""

    seat: int
    hand: int
    wager: Wager
    result: Result
    amount: Cents


@dataclass(frozen=True, slots=True)
class NaturalPaidLater:
    """This seat's Natural is settled early, but the bank may not reach it in full: it is paid in
    its place at settlement (RULES.md §5.4)."""

    seat: int


@dataclass(frozen=True, slots=True)
class PaymentsDone:
    """The dealer has settled what was due now; the round goes on."""

    rows: int


@dataclass(frozen=True, slots=True)
class HoleCardRevealed:
    card: Card


@dataclass(frozen=True, slots=True)
class DealerStood:
    total: int
    drew: bool


@dataclass(frozen=True, slots=True)
class RoundSettled:
    player_dealer_net: Cents


Operation = (
    WagerPlaced
    | BettingClosed
    | CardAssigned
    | DecisionTaken
    | StandConfirmed
    | HandEnded
    | LuckyLuckyJudged
    | ActionButtonPlaced
    | InsuranceOffered
    | InsurancePlaced
    | PeekRequested
    | PeekResolved
    | RoundHeld
    | NaturalPaidEarly
    | PaymentDue
    | NaturalPaidLater
    | PaymentsDone
    | HoleCardRevealed
    | DealerStood
    | RoundSettled
)

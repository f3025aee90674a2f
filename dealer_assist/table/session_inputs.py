"""Inputs of the table session around the rounds: the bank, the shoe, confirmations, corrections.

Corrections are inputs like any other: they never edit what was recorded, they add to it, and
each names the supervisor and the reason. The supervisor's PIN is checked before a correction
reaches the session (see pins.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.rules.cards import Card
from dealer_assist.rules.money import Cents
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.spots import Spot

__all__ = [
    "AcceptPayout",
    "BankAccepted",
    "BankRefused",
    "CardsUnread",
    "ConfirmPeek",
    "ConfirmWagers",
    "CutCardReached",
    "DealerSignIn",
    "DealerSignOut",
    "DiscardMisdeal",
    "KeyCard",
    "ReaderSpots",
    "RekeyCard",
    "ScanFor",
    "SettlementConfirmed",
    "ShoeLoaded",
    "SpotReading",
    "SpotsScanned",
    "VoidRound",
]


@dataclass(frozen=True, slots=True)
class BankAccepted:
    """The seat the bank is offered to takes it for the next round with this bank."""

    seat: int
    bank: Cents
    proposition: bool = False


@dataclass(frozen=True, slots=True)
class BankRefused:
    seat: int


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    shoe_id: str
    decks: int


@dataclass(frozen=True, slots=True)
class CutCardReached:
    n: int


@dataclass(frozen=True, slots=True)
class CardsUnread:
    """Cards `first`..`last` of the shoe left it without a readable value (NOREAD, or a gap the
    shoe's numbering revealed); the round holds until a person names each of them."""

    first: int
    last: int
    missed: bool = False


@dataclass(frozen=True, slots=True)
class KeyCard:
    """A supervisor names the oldest card that left the shoe unread, after looking at it."""

    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class SettlementConfirmed:
    """The dealer has paid and collected every row; the round closes."""


@dataclass(frozen=True, slots=True)
class VoidRound:
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class RekeyCard:
    """A misread card of the open round: the `index`-th card of the round becomes `card`."""

    index: int
    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class DiscardMisdeal:
    """The card no hand could take goes to the discard tray; the round goes on."""

    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class ConfirmPeek:
    """The hole card checked by hand after the peek device failed, confirmed by a supervisor."""

    natural: bool
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class SpotReading:
    """A spot's whole content as the wager reader read it (DEVICES.md §6): the chips, their total,
    and chips of another casino that lie there too and are not in the total (RULES.md §8.22)."""

    spot: Spot
    chips: int
    amount: Cents  # the chips' total
    alien: int = 0


@dataclass(frozen=True, slots=True)
class ReaderSpots:
    """The spots whose readings the table uses from now on: listed by the reader, not under a
    fault, its readings trusted (a scan completed since the last outage or power-up); none while
    it is down. A spot not among them is keyed by the dealer (RULES.md §6.4). `faulted`: the
    reader's spots under an ANTENNA or COLLISION fault (DEVICES.md §6), keyed until their CLEAR;
    `outage`: the reader's link went down, so its readings wait for its next completed scan."""

    spots: tuple[Spot, ...]
    faulted: tuple[Spot, ...] = ()
    outage: bool = False


class ScanFor(StrEnum):
    """What a scan of every spot was taken for."""

    READING = "reading"  # the reader's own: at its start, after an outage or a power-up
    NO_MORE_BETS = "no_more_bets"  # the wagers close at it (RULES.md §8.23)
    PAID = "paid"  # the settle-now step's "Paid", checked (§8.24)
    SETTLED = "settled"  # the settlement's "Done", checked (§8.24)


@dataclass(frozen=True, slots=True)
class SpotsScanned:
    """The reader read every spot not under a fault again; `reads` are the scan's, each a whole content."""

    purpose: ScanFor
    reads: tuple[SpotReading, ...]


@dataclass(frozen=True, slots=True)
class ConfirmWagers:
    """ "No more bets" with the wager reader down: the dealer has checked the wagers on the screen
    against the chips on the spots, and they close as shown (RULES.md §8.23)."""


@dataclass(frozen=True, slots=True)
class AcceptPayout:
    """A floor supervisor accepts what the payout check found on the spots: each difference is a mispay."""

    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class DealerSignIn:
    """The house dealer who deals from now on, by name or badge (RULES.md §8.25); a relief signs in over the last."""

    dealer: str


@dataclass(frozen=True, slots=True)
class DealerSignOut:
    """The house dealer leaves the table; its rounds from now on name no dealer until one signs in."""


SessionInput = (
    BankAccepted
    | BankRefused
    | ShoeLoaded
    | CutCardReached
    | CardsUnread
    | KeyCard
    | SettlementConfirmed
    | VoidRound
    | RekeyCard
    | DiscardMisdeal
    | ConfirmPeek
    | SpotReading
    | ReaderSpots
    | SpotsScanned
    | AcceptPayout
    | DealerSignIn
    | DealerSignOut
    | ConfirmWagers
)


Signed = KeyCard | ConfirmPeek | VoidRound | DiscardMisdeal | RekeyCard | AcceptPayout


def check_signed(event: Signed) -> None:
    """A correction is kept forever with who made it and why: neither may be blank."""
    if not event.supervisor.strip():
        raise RuleError(Refusal.SUPERVISOR_REQUIRED, "a correction names the floor supervisor who makes it")
    if not event.reason.strip():
        raise RuleError(Refusal.REASON_REQUIRED, "a correction needs a reason")

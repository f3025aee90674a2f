"""Operations of the table session, frozen for the journal beside the round's own operations."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import Action
from dealer_assist.rules.money import Cents
from dealer_assist.rules.operations import Operation
from dealer_assist.rules.refusals import Refusal
from dealer_assist.table.session_inputs import ScanFor
from dealer_assist.table.spots import Spot

__all__ = ["PayoutDifference", "ReaderBackDiffers", "TableOperation"]


@dataclass(frozen=True, slots=True)
class BankOffered:
    seat: int
    turn: int


@dataclass(frozen=True, slots=True)
class BankTaken:
    seat: int
    bank: Cents
    turn: int
    proposition: bool


@dataclass(frozen=True, slots=True)
class BankDeclined:
    seat: int


@dataclass(frozen=True, slots=True)
class RoundOpened:
    round_id: int
    player_dealer_seat: int | None
    bank: Cents | None
    turn: int | None
    shoe_id: str


@dataclass(frozen=True, slots=True)
class RoundClosed:
    round_id: int
    player_dealer_net: Cents
    voided: bool


@dataclass(frozen=True, slots=True)
class ShoeChanged:
    shoe_id: str
    decks: int


@dataclass(frozen=True, slots=True)
class NewShoeDue:
    """The cut card came out: this round is the shoe's last."""

    n: int


@dataclass(frozen=True, slots=True)
class CardBurned:
    card: Card


@dataclass(frozen=True, slots=True)
class MisdealHeld:
    """A card no hand may take left the shoe; the round holds for a supervisor (RULES.md §6.1)."""

    card: Card
    code: Refusal
    message: str
    rule: str | None


@dataclass(frozen=True, slots=True)
class CardsHeldUnread:
    """The round holds: these shoe cards must be named by a person before play goes on."""

    first: int
    last: int
    missed: bool


@dataclass(frozen=True, slots=True)
class CardKeyed:
    n: int
    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class MisdealDiscarded:
    card: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class RoundVoided:
    round_id: int
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class CardRekeyed:
    index: int
    was: Card
    now: Card
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class PeekConfirmed:
    natural: bool
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class RotationWarning:
    """Minutes left before two other player-dealers must have banked (California rotation)."""

    minutes_left: int


@dataclass(frozen=True, slots=True)
class ReadingNotAWager:
    """The chips on a spot are not a wager the rules take (outside the limits, alien chips, a side
    bet without its base): shown on the seat, and "No more bets" waits until they are put right
    (RULES.md §8.22)."""

    spot: Spot
    amount: Cents
    alien: int
    code: Refusal
    message: str


@dataclass(frozen=True, slots=True)
class LateChange:
    """A spot's chips changed after "No more bets" before its wager was settled: the closed wager
    stands (RULES.md §8.23); `due` is what the spot must hold, `held` and `alien` what it holds."""

    spot: Spot
    due: Cents
    held: Cents
    alien: int


@dataclass(frozen=True, slots=True)
class LateChangeUndone:
    """The spot holds its closed wager again."""

    spot: Spot


@dataclass(frozen=True, slots=True)
class ChipsAwaited:
    """The dealer tapped a double or a split: the chips then added on the spot are its stake (RULES.md §8.23)."""

    seat: int
    hand: int
    action: Action
    spot: Spot


@dataclass(frozen=True, slots=True)
class PayoutDifference:
    """At the dealer's "Paid", a spot settled in the step does not hold what it must (RULES.md
    §8.24): `held` read, `due` what it must hold; the step stays open."""

    spot: Spot
    held: Cents
    due: Cents


@dataclass(frozen=True, slots=True)
class MispayAccepted:
    """A floor supervisor accepted a payout difference: a mispay, kept with the round (RULES.md §8.24)."""

    spot: Spot
    held: Cents
    due: Cents
    supervisor: str
    reason: str


@dataclass(frozen=True, slots=True)
class WagersConfirmed:
    """The wagers closed as the dealer confirmed them on the screen, the wager reader down
    (RULES.md §8.23): `seats` that wagered and the `amount` wagered in all, as shown."""

    seats: int
    amount: Cents


@dataclass(frozen=True, slots=True)
class PayoutCheckSkipped:
    """A settle-now "Paid" or the settlement's "Done" with the wager reader down: the payouts on
    the spots were not checked (RULES.md §8.24); `step` says which."""

    step: ScanFor


@dataclass(frozen=True, slots=True)
class ReaderBackDiffers:
    """The reader's first scan after its outage found a spot holding other chips than the table
    holds for it: `due` the wager keyed or closed, with what decisions added; `held` what the scan read."""

    spot: Spot
    due: Cents
    held: Cents


@dataclass(frozen=True, slots=True)
class DealerSignedIn:
    dealer: str


@dataclass(frozen=True, slots=True)
class DealerSignedOut:
    dealer: str


SessionOperation = (
    BankOffered
    | BankTaken
    | BankDeclined
    | RoundOpened
    | RoundClosed
    | ShoeChanged
    | NewShoeDue
    | CardBurned
    | MisdealHeld
    | CardsHeldUnread
    | CardKeyed
    | MisdealDiscarded
    | RoundVoided
    | CardRekeyed
    | PeekConfirmed
    | RotationWarning
    | ReadingNotAWager
    | LateChange
    | LateChangeUndone
    | ChipsAwaited
    | PayoutDifference
    | MispayAccepted
    | WagersConfirmed
    | PayoutCheckSkipped
    | ReaderBackDiffers
    | DealerSignedIn
    | DealerSignedOut
)
TableOperation = Operation | SessionOperation  # what the session's `apply` returns, journaled in order

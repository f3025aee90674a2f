"""The table session: rounds in sequence at one table, around the round tracker.

It owns what lasts longer than a round: who banks and for which turn (RULES.md §5.6), the shoe
and its cut card, the wagers of the round closed last (offered again, §8.22), misdeals that hold
a round for a supervisor, corrections, and the counts of the rotation policy its settings choose
(`rotation.py`). Pure: time comes in with each input, and the state between rounds is plain data,
so the journal can restart a table from its last round.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dealer_assist.rules.cards import Card
from dealer_assist.rules.counts import count
from dealer_assist.rules.inputs import (
    CardDrawn,
    CheckedByHand,
    Decide,
    Input,
    PaymentsMade,
)
from dealer_assist.rules.money import Cents, format_money
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.profile import Profile, load_profile
from dealer_assist.rules.refusals import InputError, Refusal, RuleError
from dealer_assist.rules.seating import next_clockwise
from dealer_assist.rules.settlement import banker_net
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker
from dealer_assist.table import reader_faults
from dealer_assist.table.carried import BetweenRounds
from dealer_assist.table.reader_flow import ReaderFlow
from dealer_assist.table.readings import CHIP_DECISIONS, RoundReadings, WagerReadings
from dealer_assist.table.rotation import rotation_policy
from dealer_assist.table.session_inputs import (
    AcceptPayout,
    BankAccepted,
    BankRefused,
    CardsUnread,
    ConfirmPeek,
    ConfirmWagers,
    CutCardReached,
    DealerSignIn,
    DealerSignOut,
    DiscardMisdeal,
    KeyCard,
    ReaderSpots,
    RekeyCard,
    ScanFor,
    SessionInput,
    SettlementConfirmed,
    ShoeLoaded,
    SpotReading,
    SpotsScanned,
    VoidRound,
    check_signed,
)
from dealer_assist.table.session_operations import (
    BankDeclined,
    BankOffered,
    BankTaken,
    CardBurned,
    CardKeyed,
    CardRekeyed,
    CardsHeldUnread,
    DealerSignedIn,
    DealerSignedOut,
    MisdealDiscarded,
    MisdealHeld,
    MispayAccepted,
    NewShoeDue,
    PeekConfirmed,
    RoundClosed,
    RoundOpened,
    RoundVoided,
    ShoeChanged,
    TableOperation,
)
from dealer_assist.table.spots import BANK, Spot, SpotKind

__all__ = ["TableConfig", "TableInput", "TableSession", "TableState"]

TableInput = Input | SessionInput


class TableState(StrEnum):
    NEEDS_SHOE = "needs_shoe"
    OFFERING_BANK = "offering_bank"
    ROUND = "round"
    MISDEAL = "misdeal"
    UNREAD = "unread"


LIVE_STEPS = 2  # what a new table's journal records; see TableConfig.live_steps


@dataclass(frozen=True)
class TableConfig:
    """`live_steps`: the live table's own steps its rounds take, which a round file has no token
    for: from 1 the dealer's "No more bets" (RULES.md §8.21), from 2 also the dealer's "Paid" after
    what is settled before the round ends (§5.4). A journal keeps the steps it was recorded with
    (one written before they existed reads as 0), so its rounds replay as they were dealt."""

    table_id: str
    profile: str
    settings: Mapping[str, object] = field(default_factory=dict)
    seats: int | None = None
    burn_cards: int = 0
    rotation_rules: bool = False  # California: proposition-player rotation limits
    live_steps: int = LIVE_STEPS

    def to_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "profile": self.profile,
            "settings": dict(self.settings),
            "seats": self.seats,
            "burn_cards": self.burn_cards,
            "rotation_rules": self.rotation_rules,
            "live_steps": self.live_steps,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> TableConfig:
        """A journal's header as written by `to_json`; journals made before live steps had none."""
        return cls(
            raw["table_id"],
            raw["profile"],
            raw["settings"],
            raw["seats"],
            raw["burn_cards"],
            raw["rotation_rules"],
            raw.get("live_steps", 0),
        )


@dataclass(frozen=True)
class ClosedRound:
    """What the close record of a round keeps besides its ledger: who dealt it and its mispays."""

    dealers: tuple[str, ...] = ()
    mispays: tuple[MispayAccepted, ...] = ()


class TableSession:
    def __init__(self, config: TableConfig, state: Mapping[str, Any] | None = None) -> None:
        self.config = config
        self.profile: Profile = load_profile(config.profile, config.settings)
        self.seats = config.seats or self.profile.seats
        self.rotation = rotation_policy(config.rotation_rules)
        self.s = BetweenRounds.restored(state or {})
        self.tracker: RoundTracker | None = None
        self.round_inputs: list[Input] = []
        self.misdeal: Card | None = None
        self.unread: list[int] = []  # shoe numbers of cards out unread, oldest first
        self.reader = WagerReadings(self.s.reader_spots, self.s.readings)
        self.flow = ReaderFlow(self)
        self.round_dealers: list[str] = []  # who dealt the open round, in turn
        self.closed = ClosedRound()  # the round closed last
        self.checkpoint: dict[str, Any] = self.between_rounds()
        self._maybe_open([])  # a restored table reopens the round its checkpoint was about to open

    # --- questions ------------------------------------------------------------------------------

    @property
    def state(self) -> TableState:
        if self.unread:
            return TableState.UNREAD
        if self.misdeal is not None:
            return TableState.MISDEAL
        if self.tracker is not None:
            return TableState.ROUND
        if self.s.shoe_id is None or self.s.new_shoe_due:
            return TableState.NEEDS_SHOE
        return TableState.OFFERING_BANK

    @property
    def round_id(self) -> int:
        return self.s.round_id

    def between_rounds(self) -> dict[str, Any]:
        """The carried state as plain data, as it stands between two rounds."""
        return copy.deepcopy(vars(self.s))

    def takes_card(self) -> bool:
        """Whether a card from the shoe would go to the open round now (the shoe's card-stop is off)."""
        tracker = self.tracker
        return (
            self.state is TableState.ROUND
            and tracker is not None
            and tracker.takes_card()
            and self.reader.round.awaited is None
        )

    def second_turn(self) -> int | None:
        """The seat offered the bank for a second round once the open round closes (RULES.md §5.6):
        the player-dealer after its first, unless a proposition player, who banks one round at a time."""
        s, tracker = self.s, self.tracker
        pd = tracker.player_dealer if tracker is not None else None
        return pd.seat if pd is not None and s.pd_turn == 1 and not s.pd_proposition else None

    def rotation_deadline(self) -> float | None:
        """When two other player-dealers must have banked, if the rotation limits apply."""
        return self.rotation.deadline(self.s)

    # --- the one way in -----------------------------------------------------------------------

    def apply(self, event: TableInput, now: float) -> tuple[TableOperation, ...]:
        """Apply one input at wall time `now`; a refusal raises RuleError and changes nothing."""
        ops: list[TableOperation] = []
        match event:
            case ShoeLoaded():
                self._shoe_loaded(event, ops)
            case CutCardReached():
                self._cut_card(event, ops)
            case CardsUnread():
                self._cards_unread(event, ops)
            case KeyCard():
                self._key_card(event, ops)
            case CardDrawn():
                self._card(event, ops)
            case BankAccepted():
                self._bank_accepted(event, now, ops)
            case BankRefused():
                self._bank_refused(event, ops)
            case SettlementConfirmed():
                self.settlement_confirmed(ops)
            case VoidRound():
                self._void(event, ops)
            case DiscardMisdeal():
                self._discard(event, ops)
            case RekeyCard():
                self._rekey(event, ops)
            case ConfirmPeek():
                self._confirm_peek(event, ops)
            case SpotReading():
                self.flow.spot_read(event, ops)
            case ReaderSpots():
                reader_faults.take_spots(self.s, self.reader, event)
            case ConfirmWagers():
                self.flow.confirm_wagers(ops)
            case SpotsScanned():
                self.flow.scanned(event, ops)
            case AcceptPayout():
                self.flow.accept_payout(event, ops)
            case DealerSignIn():
                self._sign_in(event, ops)
            case DealerSignOut():
                self._sign_out(ops)
            case _:
                self._round_input(event, ops)
        ops.extend(self.rotation.warnings(self.s, now))
        return tuple(ops)

    # --- the shoe -------------------------------------------------------------------------------

    def _shoe_loaded(self, event: ShoeLoaded, ops: list[TableOperation]) -> None:
        if self.tracker is not None and self.tracker.cards_seen:
            raise RuleError(Refusal.ROUND_OPEN, "a new shoe is loaded between rounds, not while cards are out", "5.6")
        if not 1 <= event.decks <= 8:
            raise RuleError(Refusal.BAD_SHOE, f"shoe {event.shoe_id}: {event.decks} decks is not from 1 to 8")
        s = self.s
        s.shoe_id, s.shoe_decks, s.shoe_cards = event.shoe_id, event.decks, 0
        s.new_shoe_due, s.burn_left = False, self.config.burn_cards
        ops.append(ShoeChanged(event.shoe_id, event.decks))
        self._maybe_open(ops)

    def _cut_card(self, event: CutCardReached, ops: list[TableOperation]) -> None:
        if self.s.shoe_id is None:
            raise RuleError(Refusal.NO_SHOE, "no shoe is loaded")
        self.s.new_shoe_due = True
        ops.append(NewShoeDue(event.n))

    def _card(self, event: CardDrawn, ops: list[TableOperation]) -> None:
        if self.unread:
            raise RuleError(Refusal.UNREAD_HELD, f"the round holds until shoe card {self.unread[0]} is named", "6.1")
        self._place_card(event, ops)

    def _cards_unread(self, event: CardsUnread, ops: list[TableOperation]) -> None:
        if self.s.shoe_id is None:
            raise RuleError(Refusal.NO_SHOE, "a card came out but no shoe is loaded")
        if event.last < event.first:
            raise InputError(Refusal.BAD_INPUT, f"cards {event.first}..{event.last} is not a range")
        self.unread.extend(range(event.first, event.last + 1))
        self.s.shoe_cards += event.last - event.first + 1
        ops.append(CardsHeldUnread(event.first, event.last, event.missed))

    def _key_card(self, event: KeyCard, ops: list[TableOperation]) -> None:
        if not self.unread:
            raise RuleError(Refusal.NOTHING_UNREAD, "no card is waiting to be named")
        check_signed(event)
        pending = list(self.unread)
        self.unread = []
        try:
            placed: list[TableOperation] = []
            self._place_card(CardDrawn(event.card), placed, counted=True)
        except RuleError:
            self.unread = pending
            raise
        self.unread = pending[1:]
        ops.append(CardKeyed(pending[0], event.card, event.supervisor, event.reason))
        ops.extend(placed)

    def _place_card(self, event: CardDrawn, ops: list[TableOperation], counted: bool = False) -> None:
        """A card out of the shoe goes to the burn, to its hand, or is held as a misdeal."""
        if self.misdeal is not None:
            raise RuleError(Refusal.MISDEAL_HELD, f"the round holds for a supervisor: misdeal of {self.misdeal}", "6.1")
        if self.s.shoe_id is None:
            raise RuleError(Refusal.NO_SHOE, "a card came out but no shoe is loaded")
        if not counted:
            self.s.shoe_cards += 1
        if self.s.burn_left:
            self.s.burn_left -= 1
            ops.append(CardBurned(event.card))
            return
        awaited = self.reader.round.awaited
        error = (
            self.tracker.verify(event)
            if self.tracker is not None
            else RuleError(Refusal.CARD_NOT_ALLOWED, "misdeal: no round is open for this card", "6.1")
        )
        if error is None and awaited is not None:
            error = RuleError(
                Refusal.CHIPS_AWAITED,
                f"misdeal: the {awaited.action} of seat {awaited.seat} hand {awaited.hand + 1} "
                f"waits for its chips on {awaited.spot.words}",
                "8.23",
            )
        if error is not None:
            self.misdeal = event.card
            ops.append(MisdealHeld(event.card, Refusal(error.code), error.message, error.rule))
            return
        self.to_round(event, ops)

    # --- the bank -------------------------------------------------------------------------------

    def _check_offer(self, seat: int) -> None:
        if not self.profile.player_dealer:
            raise RuleError(
                Refusal.HOUSE_BANKED, f"{self.profile.id} is house-banked: nobody is offered the bank", "8.10"
            )
        if self.tracker is not None or self.s.pd_ready:
            raise RuleError(Refusal.BANK_TAKEN, "the bank is offered between rounds only", "5.6")
        if seat != self.s.offer_seat:
            raise RuleError(
                Refusal.OFFERED_ELSEWHERE, f"the bank is offered to seat {self.s.offer_seat}, not seat {seat}", "5.6"
            )

    def _check_bank_read(self, bank: Cents) -> None:
        """Where the reader reads `pd.bank`, the bank offered is the chips on it (RULES.md §8.22)."""
        if self.reader.reads(BANK) and (read := self.reader.reading(BANK).amount) != bank:
            raise RuleError(
                Refusal.SPOT_READ,
                f"{BANK.words} is read from its chips: {format_money(read)} there, {format_money(bank)} keyed",
                "8.22",
            )

    def _bank_accepted(self, event: BankAccepted, now: float, ops: list[TableOperation]) -> None:
        self._check_offer(event.seat)
        if event.bank <= 0:
            raise RuleError(Refusal.BAD_BANK, "the bank must be more than zero", "5.1")
        self._check_bank_read(event.bank)
        s = self.s
        self.rotation.check(s, event, now)
        turn = s.offer_turn
        s.pd_seat, s.pd_bank, s.pd_turn, s.pd_proposition, s.pd_ready = (
            event.seat,
            event.bank,
            turn,
            event.proposition,
            True,
        )
        s.offer_seat, s.declined = None, []
        self.rotation.count(s, event, now)
        ops.append(BankTaken(event.seat, event.bank, turn, event.proposition))
        self._maybe_open(ops)

    def _bank_refused(self, event: BankRefused, ops: list[TableOperation]) -> None:
        self._check_offer(event.seat)
        ops.append(BankDeclined(event.seat))
        self.s.declined.append(event.seat)
        self._offer_next(event.seat, ops)

    def _offer_next(self, after: int, ops: list[TableOperation]) -> None:
        """Offer the bank clockwise; a player who banked two rounds in a row is passed over."""
        s = self.s
        seat = next_clockwise(after, self.seats)
        if seat == s.pd_seat and (s.pd_turn >= 2 or s.pd_proposition):
            seat = next_clockwise(seat, self.seats)
        s.offer_seat = seat
        s.offer_turn = 2 if seat == s.pd_seat and s.pd_turn == 1 and not s.pd_proposition else 1
        ops.append(BankOffered(seat, s.offer_turn))

    # --- rounds ---------------------------------------------------------------------------------

    def _maybe_open(self, ops: list[TableOperation]) -> None:
        s = self.s
        if self.tracker is not None or s.shoe_id is None or s.new_shoe_due:
            return
        pd = None
        if self.profile.player_dealer:
            if not s.pd_ready or s.pd_seat is None:
                if s.offer_seat is None:  # the table's first offer, once a shoe is in
                    self._offer_next(self.seats, ops)
                return
            pd = PlayerDealer(s.pd_seat, s.pd_bank)
        s.round_id += 1
        steps = self.config.live_steps
        self.tracker = RoundTracker(
            self.profile, self.seats, pd, dealer_closes_betting=steps >= 1, dealer_settles_early=steps >= 2
        )
        self.round_inputs = []
        self.reader.round = RoundReadings()
        self.round_dealers = [s.dealer] if s.dealer else []
        ops.append(
            RoundOpened(
                s.round_id, pd.seat if pd else None, pd.bank if pd else None, s.pd_turn if pd else None, s.shoe_id
            )
        )
        self.flow.wagers_read(self.tracker, {spot.seat for spot in self.reader.spots if spot.seat is not None}, ops)

    def open_tracker(self) -> RoundTracker:
        if self.misdeal is not None:
            raise RuleError(Refusal.MISDEAL_HELD, f"the round holds for a supervisor: misdeal of {self.misdeal}", "6.1")
        if self.tracker is None:
            raise RuleError(Refusal.NO_ROUND, f"no round is open ({self.state})")
        return self.tracker

    def to_round(self, event: Input, ops: list[TableOperation]) -> None:
        ops.extend(self.open_tracker().apply(event))
        self.round_inputs.append(event)

    def _round_input(self, event: Input, ops: list[TableOperation]) -> None:
        if isinstance(event, CheckedByHand):
            raise RuleError(Refusal.SUPERVISOR_ONLY, "a check by hand is confirmed by a floor supervisor", "6.2")
        tracker = self.open_tracker()
        self.flow.check_read(event, tracker)
        if isinstance(event, Decide):
            awaited = self.reader.round.awaited
            if awaited is not None and (awaited.seat, awaited.hand) == (event.seat, event.hand):
                self.reader.round.awaited = None  # another decision on the hand: the chips are no longer awaited
            if event.action in CHIP_DECISIONS and self.reader.reads(Spot(event.seat, SpotKind.BASE)):
                self.flow.await_chips(event, tracker, ops)
                return
        self.to_round(event, ops)
        if isinstance(event, PaymentsMade):
            ops.extend(reader_faults.skipped_check(self.s, self.profile, ScanFor.PAID))

    # --- who deals (RULES.md §8.25) ---------------------------------------------------------------

    def _sign_in(self, event: DealerSignIn, ops: list[TableOperation]) -> None:
        dealer = event.dealer.strip()
        if not dealer:
            raise RuleError(Refusal.DEALER_REQUIRED, "a sign-in names the house dealer: a name or a badge", "8.25")
        self.s.dealer = dealer
        if self.tracker is not None and dealer not in self.round_dealers:
            self.round_dealers.append(dealer)
        ops.append(DealerSignedIn(dealer))

    def _sign_out(self, ops: list[TableOperation]) -> None:
        if self.s.dealer is None:
            raise RuleError(Refusal.NO_DEALER, "no house dealer is signed in", "8.25")
        ops.append(DealerSignedOut(self.s.dealer))
        self.s.dealer = None

    def _confirm_peek(self, event: ConfirmPeek, ops: list[TableOperation]) -> None:
        check_signed(event)
        self.to_round(CheckedByHand(event.natural), ops)
        ops.append(PeekConfirmed(event.natural, event.supervisor, event.reason))

    def settlement_confirmed(self, ops: list[TableOperation], checked: bool = False) -> None:
        tracker = self.open_tracker()
        if tracker.phase is not Phase.SETTLED:
            raise RuleError(Refusal.NOT_SETTLED, f"the round is not settled yet ({tracker.phase})")
        if not checked:
            self.flow.check_scanned(tracker)
            ops.extend(reader_faults.skipped_check(self.s, self.profile, ScanFor.SETTLED))
        self._close(banker_net(tracker.rows), voided=False, ops=ops)

    def _close(self, pd_net: Cents, voided: bool, ops: list[TableOperation]) -> None:
        s = self.s
        tracker = self.tracker
        assert tracker is not None, "a round is closed only while open"
        pd, second = tracker.player_dealer, self.second_turn()
        s.last_wagers = {
            str(seat): {str(kind): cents for kind, cents in wagers.items()} for seat, wagers in tracker.wagers.items()
        }
        ops.append(RoundClosed(s.round_id, pd_net, voided))
        self.closed = ClosedRound(tuple(self.round_dealers), tuple(self.reader.round.mispays))
        self.tracker = None
        self.round_inputs = []
        self.misdeal = None
        if pd is not None:  # the bank moves on from the seat that held it this round, or is offered it again
            s.pd_ready = False
            self._offer_next(pd.seat - 1 if second is not None else pd.seat, ops)
        self.checkpoint = self.between_rounds()
        self._maybe_open(ops)

    # --- corrections ------------------------------------------------------------------------------

    def _void(self, event: VoidRound, ops: list[TableOperation]) -> None:
        if self.tracker is None:
            raise RuleError(Refusal.NO_ROUND, "no round is open to void")
        check_signed(event)
        ops.append(RoundVoided(self.s.round_id, event.supervisor, event.reason))
        self._close(0, voided=True, ops=ops)

    def _discard(self, event: DiscardMisdeal, ops: list[TableOperation]) -> None:
        if self.misdeal is None:
            raise RuleError(Refusal.NO_MISDEAL, "no misdeal is held")
        check_signed(event)
        ops.append(MisdealDiscarded(self.misdeal, event.supervisor, event.reason))
        self.misdeal = None

    def _rekey(self, event: RekeyCard, ops: list[TableOperation]) -> None:
        tracker = self.open_tracker()
        check_signed(event)
        drawn = [(i, e.card) for i, e in enumerate(self.round_inputs) if isinstance(e, CardDrawn)]
        if not 0 <= event.index < len(drawn):
            raise RuleError(
                Refusal.NO_SUCH_CARD, f"the round has {count(len(drawn), 'card')}: there is no card {event.index + 1}"
            )
        position, was = drawn[event.index]
        replayed = list(self.round_inputs)
        replayed[position] = CardDrawn(event.card)
        rebuilt = RoundTracker(
            tracker.profile,
            tracker.seats,
            tracker.player_dealer,
            tracker.dealer_closes_betting,
            tracker.dealer_settles_early,
        )
        for number, step in enumerate(replayed):
            error = rebuilt.verify(step)
            if error is not None:
                raise RuleError(
                    Refusal.REKEY_CONFLICT,
                    f"with card {event.index + 1} as {event.card}, the round's input {number + 1} is refused:"
                    f" {error.message}",
                    error.rule,
                )
            rebuilt.apply(step)
        if rebuilt.settled_early != tracker.settled_early:
            raise RuleError(
                Refusal.REKEY_CONFLICT,
                f"with card {event.index + 1} as {event.card}, what the dealer already settled"
                " (Lucky Lucky, insurance, an early Natural) would change: void the round instead",
                "5.4",
            )
        self.tracker, self.round_inputs = rebuilt, replayed
        ops.append(CardRekeyed(event.index, was, event.card, event.supervisor, event.reason))

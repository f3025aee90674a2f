"""The round tracker: one round of one table as an event-driven state machine.

Inputs go in (a card, a wager, a decision, a peek answer); the tracker checks each against the
rules, and either refuses it with the rule that forbids it or applies it and returns the frozen
operations it caused. `verify` answers beforehand with the same checks `apply` makes, so the
screen enables exactly what the rules allow and the replay of a round file takes the same path
as the live table.

The state machine is here; what it consults lives by kind of knowledge: the phases and needs
(`round_phases`), the hand (`player_hand`), the pure option checks (`hand_options`), the dealer's
draw (`dealer_draw`) and the dealer's prompt line (`round_prompts`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.rules.betting import Betting
from dealer_assist.rules.cards import Card
from dealer_assist.rules.dealer_draw import dealer_draws, dealer_stands_reason
from dealer_assist.rules.hand_options import double_range, forced_end, why_not, why_not_hit, why_not_split
from dealer_assist.rules.inputs import (
    Action,
    CardDrawn,
    CheckedByHand,
    CloseInsurance,
    Decide,
    Input,
    Insure,
    NoMoreBets,
    PaymentsMade,
    PeekAnswered,
    PeekResult,
    PlaceWager,
    WagerKind,
)
from dealer_assist.rules.lucky_lucky import LUCKY_PAYS, lucky_line
from dealer_assist.rules.money import Cents
from dealer_assist.rules.operations import (
    ActionButtonPlaced,
    CardAssigned,
    CardUse,
    DealerStood,
    DecisionTaken,
    EndReason,
    HandEnded,
    HoldReason,
    HoleCardRevealed,
    InsuranceOffered,
    LuckyLuckyJudged,
    NaturalPaidEarly,
    NaturalPaidLater,
    Operation,
    PaymentDue,
    PaymentsDone,
    PeekRequested,
    PeekResolved,
    RoundHeld,
    RoundSettled,
    StandConfirmed,
)
from dealer_assist.rules.phases import DEALER, PAYMENTS_DUE, PHASE_NEEDS, Awaiting, Need, Phase, turn_need
from dealer_assist.rules.player_hand import PlayerHand
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.prompts import prompt
from dealer_assist.rules.refusals import InputError, Refusal, RuleError
from dealer_assist.rules.seating import action_seat, clockwise_from
from dealer_assist.rules.settlement import FinalHand, RoundFacts, Row, Wager, banker_net, settle, settle_early
from dealer_assist.rules.totals import hand_total, is_natural_pair

__all__ = ["PlayerDealer", "RoundTracker"]


@dataclass(frozen=True, slots=True)
class PlayerDealer:
    seat: int
    bank: Cents


class RoundTracker(Betting):
    def __init__(
        self,
        profile: Profile,
        seats: int | None = None,
        player_dealer: PlayerDealer | None = None,
        dealer_closes_betting: bool = False,
        dealer_settles_early: bool = False,
    ):
        """`dealer_closes_betting`: a live table, where betting stays open until the dealer's "No more
        bets" (RULES.md §8.21); a round file has no such token and its first card closes betting.
        `dealer_settles_early`: a live table, where what is settled before the round ends (Lucky
        Lucky, insurance, an early Natural: §2.15, §2.17, §5.4) waits for the dealer's "Paid"
        before the round goes on; a round file settles it all at the end."""
        self.profile = profile
        self.dealer_closes_betting = dealer_closes_betting
        self.dealer_settles_early = dealer_settles_early
        self.seats = seats if seats is not None else profile.seats
        if not 2 <= self.seats <= 12:
            raise InputError(Refusal.BAD_SEATS, f"seats: {self.seats} is not from 2 to 12", "1")
        if profile.player_dealer:
            if player_dealer is None:
                raise RuleError(
                    Refusal.MISSING_PLAYER_DEALER,
                    f"{profile.id} is banked by a player-dealer: give its seat and bank",
                    "5.1",
                )
            if not 1 <= player_dealer.seat <= self.seats:
                raise RuleError(
                    Refusal.BAD_SEAT,
                    f"player_dealer.seat: {player_dealer.seat} is not a seat from 1 to {self.seats}",
                    "1",
                )
            if player_dealer.bank <= 0:
                raise RuleError(Refusal.BAD_BANK, "player_dealer.bank: the bank must be more than zero", "5.1")
        elif player_dealer is not None:
            raise RuleError(
                Refusal.UNEXPECTED_PLAYER_DEALER, f"{profile.id} is house-banked: it has no player-dealer", "8.10"
            )
        self.player_dealer = player_dealer
        self.pd_seat = player_dealer.seat if player_dealer else None
        self.phase = Phase.BETTING
        self.wagers: dict[int, dict[WagerKind, Cents]] = {}
        self.insurance: dict[int, Cents] = {}
        self.hands: dict[int, list[PlayerHand]] = {}
        self.dealer: list[Card] = []
        self.cards_seen = 0
        self.action_seat: int | None = None
        self.first_cards: dict[int, tuple[Card, Card]] = {}
        self.dealer_natural: bool | None = None
        self.hold: RoundHeld | None = None
        self.rows: tuple[Row, ...] = ()
        self.final_hands: tuple[FinalHand, ...] = ()  # the hands as settled; empty until then
        self.fees: tuple[Cents, Cents] = (0, 0)
        self.due: tuple[Row, ...] = ()  # to settle now, before the round goes on
        self.naturals_later: tuple[int, ...] = ()  # seats whose Natural, settled early, is paid at settlement
        self.settled_early: dict[tuple[int, int, Wager], Cents] = {}  # what the dealer settled before the end
        self._step_open = False  # the dealer has been told what is due and has not yet tapped Paid
        self._deal_order: list[int] = []
        self._play_order: list[int] = []
        self._turn = 0
        self._hand_index = 0
        self._last_forced: dict[int, int] = {}
        self._hole_shown = not profile.dealer_hole_card

    # --- questions --------------------------------------------------------------------------

    def verify(self, event: Input) -> RuleError | None:
        """Why `event` would be refused now, or None when `apply` would accept it."""
        if self._step_open and type(event) is not PaymentsMade and type(event) is not CardDrawn:
            return self._payments_first()  # a card is a misdeal, which its own check says
        match event:
            case CardDrawn():
                return self._card_target()[0]
            case Decide():
                return self._check_decide(event)
            case PlaceWager():
                return self._check_wager(event)
            case NoMoreBets():
                return self._check_no_more_bets(event)
            case Insure():
                return self._check_insure(event)
            case CloseInsurance():
                return self._check_close_insurance()
            case PeekAnswered():
                return self._check_peek()
            case CheckedByHand():
                return self._check_by_hand(event)
            case PaymentsMade():
                return self._check_payments()
        return InputError(Refusal.UNKNOWN_INPUT, f"{event!r} is not a round input")

    def can(self, event: Input) -> bool:
        return self.verify(event) is None

    def awaiting(self) -> Awaiting:
        """What the round needs next."""
        phase = self.phase
        if self._step_open:
            return PAYMENTS_DUE
        if phase is Phase.PLAYING:
            seat, index = self._play_order[self._turn], self._hand_index
            need = Need.CARD if self.hands[seat][index].card_due() else Need.DECISION
            return turn_need(need, seat, index)
        return PHASE_NEEDS[phase]

    def prompt(self) -> str:
        """The one line the dealer reads: what happens next."""
        return prompt(self)

    def takes_card(self) -> bool:
        """Whether a card from the shoe would be accepted now (the shoe's card-stop is off)."""
        return self._card_target()[0] is None

    def next_card_is_hole_card(self) -> bool:
        """Whether the next card from the shoe becomes the dealer's hole card."""
        return (
            self.phase in (Phase.BETTING, Phase.DEALING)
            and self.next_card_goes_to() == DEALER
            and self._hole_card_next()
        )

    def next_card_goes_to(self) -> int:
        """The seat the next card from the shoe is for, or DEALER."""
        return self._card_target()[1]

    def expected_peek_answer(self) -> PeekResult:
        """What an honest peek device answers for the cards the shoe reported; replay uses it."""
        return PeekResult.NATURAL if is_natural_pair(self.dealer) else PeekResult.NONE

    def visible_dealer_cards(self) -> list[Card | None]:
        """The dealer's cards as the table shows them: the hole card is None until revealed."""
        if self._hole_shown:
            return list(self.dealer)
        up = self.profile.up_index
        return [card if i == up else None for i, card in enumerate(self.dealer)]

    def double_range(self, seat: int, hand: int) -> tuple[Cents, Cents]:
        """The least and the most a double of this hand may add (`hand_options.double_range`)."""
        return double_range(self.profile, self.hands[seat][hand])

    @property
    def up_card(self) -> Card:
        """The dealer's up card; only once the deal has reached it."""
        return self.dealer[self.profile.up_index]

    @property
    def hole_card(self) -> Card | None:
        """The dealer's hole card once dealt (face down until revealed); None before, or in a game without one."""
        hole = self.profile.hole_index
        return self.dealer[hole] if self.profile.dealer_hole_card and len(self.dealer) > hole else None

    def _hole_card_next(self) -> bool:
        """Whether the dealer's next card is the hole card, dealt face down."""
        return not self._hole_shown and len(self.dealer) == self.profile.hole_index

    # --- the one way in -----------------------------------------------------------------------

    def apply(self, event: Input) -> tuple[Operation, ...]:
        ops: list[Operation] = []
        if type(event) is CardDrawn:  # the commonest input: find its hand once, not twice
            error, target, index, use = self._card_target()
            if error is not None:
                raise error
            self._deal(event.card, target, index, use, ops)
        else:
            error = self.verify(event)
            if error is not None:
                raise error
            match event:
                case Decide():
                    self._do_decide(event, ops)
                case PlaceWager():
                    self._do_wager(event, ops)
                case NoMoreBets():
                    self._do_no_more_bets(event, ops)
                case Insure():
                    self._do_insure(event, ops)
                case CloseInsurance():
                    self._do_close_insurance(ops)
                case PeekAnswered():
                    self._do_peek(event, ops)
                case CheckedByHand():
                    self._do_by_hand(event, ops)
                case PaymentsMade():
                    self._do_payments(ops)
        self._advance(ops)
        return tuple(ops)

    # --- cards ----------------------------------------------------------------------------------

    def _card_target(self) -> tuple[RuleError | None, int, int, CardUse]:
        """Who the next card from the shoe belongs to, or why nobody may take it."""
        if self._step_open:
            first = self._payments_first()
            return RuleError(Refusal.CARD_NOT_ALLOWED, f"misdeal: {first.message}", first.rule), 0, 0, CardUse.DEAL
        phase = self.phase
        if phase is Phase.BETTING:
            if self.dealer_closes_betting:
                return (
                    RuleError(
                        Refusal.BETTING_OPEN, 'misdeal: it came out before the dealer tapped "No more bets"', "8.21"
                    ),
                    0,
                    0,
                    CardUse.DEAL,
                )
            if not self._has_base_wager():
                return (
                    RuleError(Refusal.NO_WAGERS, "no seat has a base wager: there is nobody to deal to", "8.1"),
                    0,
                    0,
                    CardUse.DEAL,
                )
            return None, min(s for s, w in self.wagers.items() if w.get(WagerKind.BASE)), 0, CardUse.DEAL
        if phase is Phase.DEALING:
            return None, self._deal_order[self.cards_seen], 0, CardUse.DEAL
        if phase is Phase.PLAYING:
            seat, index = self._play_order[self._turn], self._hand_index
            hand = self.hands[seat][index]
            forced = hand.card_due()
            if forced is not None:
                return None, seat, index, forced
            error = why_not_hit(self.profile, seat, index, hand)
            return error, seat, index, CardUse.HIT
        if phase is Phase.DEALER:
            return None, DEALER, 0, CardUse.DEALER_DRAW
        why = {
            Phase.INSURANCE: "insurance is open: no card until the peek",
            Phase.PEEK: "the peek has not answered: no card until it does",
            Phase.HELD: "the round waits for the hole card to be checked by hand",
            Phase.SETTLED: dealer_stands_reason(self.profile, self.dealer),
        }[phase]
        rule = self.profile.rules["dealer_draw"] if phase is Phase.SETTLED else self.profile.rules["insurance"]
        return RuleError(Refusal.CARD_NOT_ALLOWED, f"misdeal: {why}", rule), 0, 0, CardUse.DEAL

    def _deal(self, card: Card, target: int, index: int, use: CardUse, ops: list[Operation]) -> None:
        if self.phase is Phase.BETTING:
            self._close_betting(ops)
            _, target, index, use = self._card_target()
        if target == DEALER:
            hidden = self._hole_card_next()
            self.dealer.append(card)
            ops.append(CardAssigned(card, None, 0, use, hidden))
        else:
            self.hands[target][index].add(card)
            ops.append(CardAssigned(card, target, index, use))
        self.cards_seen += 1
        if self.phase is Phase.DEALING and self.cards_seen == len(self._deal_order):
            self._after_deal(ops)

    # --- after the deal: Lucky Lucky, the button, insurance and the peek ------------------------

    def _after_deal(self, ops: list[Operation]) -> None:
        p = self.profile
        up = self.up_card
        self.first_cards = {seat: (hands[0].cards[0], hands[0].cards[1]) for seat, hands in self.hands.items()}
        for seat in clockwise_from(self.pd_seat % self.seats + 1 if self.pd_seat else 1, self.seats, skip=self.pd_seat):
            if self.wagers.get(seat, {}).get(WagerKind.LUCKY_LUCKY):
                line = lucky_line((*self.hands[seat][0].cards, up))
                ops.append(LuckyLuckyJudged(seat, line, LUCKY_PAYS[line] if line else 0))
        if self.pd_seat is not None:
            self.action_seat = action_seat(self.pd_seat, self.seats, self.dealer[1], self.hands.keys())
            ops.append(ActionButtonPlaced(self.action_seat, self.dealer[1]))
        for seat, hands in self.hands.items():
            if hands[0].natural:
                self._end(seat, 0, EndReason.NATURAL, ops)
        if not p.dealer_hole_card:
            self._dealer_natural_known(is_natural_pair(self.dealer), ops)
        elif up.is_ace:
            self.phase = Phase.INSURANCE
            ops.append(InsuranceOffered())
        elif up.is_ten_value:
            self.phase = Phase.PEEK
            ops.append(PeekRequested(up.rank))
        else:
            self._dealer_natural_known(False, ops)
        self._note_due(ops)

    def _dealer_natural_known(self, natural: bool, ops: list[Operation]) -> None:
        self.dealer_natural = natural
        self.phase = Phase.PLAYING
        if natural:
            for seat in self._play_order:
                for index, hand in enumerate(self.hands[seat]):
                    if hand.ended is None:
                        self._end(seat, index, EndReason.DEALER_NATURAL, ops)
            self.phase = Phase.DEALER
            return
        for seat in self._play_order:
            if self.hands[seat][0].natural:
                ops.append(NaturalPaidEarly(seat, 0))
        self._note_due(ops)

    def _do_close_insurance(self, ops: list[Operation]) -> None:
        self.phase = Phase.PEEK
        ops.append(PeekRequested(self.up_card.rank))

    def _check_peek(self) -> RuleError | None:
        if self.phase is not Phase.PEEK:
            return RuleError(Refusal.NO_PEEK_PENDING, f"no peek is pending; the round is {self.phase}", "6.2")
        return None

    def _do_peek(self, event: PeekAnswered, ops: list[Operation]) -> None:
        if event.result in (PeekResult.NATURAL, PeekResult.NONE):
            said = event.result is PeekResult.NATURAL
            if said == is_natural_pair(self.dealer):
                ops.append(PeekResolved(said, event.result, by_hand=False))
                self._dealer_natural_known(said, ops)
                return
            self.hold = RoundHeld(
                HoldReason.PEEK_DISAGREES, "the peek answer does not match the shoe's read of the hole card"
            )
        else:
            self.hold = RoundHeld(HoldReason.PEEK_FAILED, f"the peek device answered {event.result}")
        self.phase = Phase.HELD
        ops.append(self.hold)

    def _check_by_hand(self, event: CheckedByHand) -> RuleError | None:
        if self.phase is not Phase.HELD:
            return RuleError(Refusal.NO_CHECK_PENDING, f"no check by hand is pending; the round is {self.phase}", "6.2")
        if event.natural != is_natural_pair(self.dealer):
            return RuleError(
                Refusal.CHECK_DISAGREES,
                "the check by hand does not match the shoe's read of the hole card: a floor supervisor must"
                " re-key the card",
                "6.2",
            )
        return None

    def _do_by_hand(self, event: CheckedByHand, ops: list[Operation]) -> None:
        self.hold = None
        ops.append(PeekResolved(event.natural, None, by_hand=True))
        self._dealer_natural_known(event.natural, ops)

    # --- what is settled before the round ends ---------------------------------------------------

    def _payments_first(self) -> RuleError:
        return RuleError(
            Refusal.PAYMENTS_DUE,
            "settle what is due now first (Lucky Lucky, insurance, an early Natural), then tap Paid",
            "5.4",
        )

    def _note_due(self, ops: list[Operation]) -> None:
        """At a live table: what the dealer settles now, each row as the settlement will show it."""
        if not self.dealer_settles_early:
            return
        early = settle_early(self._facts(), self.dealer_natural, self._naturals(), self._most_stakes())
        due = tuple(row for row in early.rows if (row.seat, row.hand, row.wager) not in self.settled_early)
        later = tuple(seat for seat in early.naturals_later if seat not in self.naturals_later)
        if not due and not later:
            return
        ops.extend(
            PaymentDue(row.seat, row.hand, row.wager, row.result, row.amount) for row in due if row not in self.due
        )
        ops.extend(NaturalPaidLater(seat) for seat in later)
        self.due, self.naturals_later, self._step_open = due, self.naturals_later + later, True

    def _naturals(self) -> dict[int, Cents]:
        return {seat: hands[0].stake for seat, hands in self.hands.items() if hands[0].natural}

    def _most_stakes(self) -> dict[int, Cents]:
        """The most each seat's base wager can stake by the end: doubled on every hand it may split into."""
        most = {}
        for seat, hands in self.hands.items():
            first = hands[0]
            split = why_not_split(self.profile, first, len(hands)) is None
            most[seat] = sum(2 * hand.stake for hand in hands) * (self.profile.max_hands if split else 1)
        return most

    def _check_payments(self) -> RuleError | None:
        if not self._step_open:
            return RuleError(Refusal.NOTHING_DUE, "nothing is due to be settled now", "5.4")
        return None

    def _do_payments(self, ops: list[Operation]) -> None:
        self.settled_early.update({(row.seat, row.hand, row.wager): row.amount for row in self.due})
        ops.append(PaymentsDone(len(self.due)))
        self.due, self._step_open = (), False

    # --- player decisions -----------------------------------------------------------------------

    def _check_decide(self, event: Decide) -> RuleError | None:
        if (error := self.seat_refusal(event.seat)) is not None:
            return error
        hands = self.hands.get(event.seat, [])
        if not 0 <= event.hand < len(hands):
            return RuleError(Refusal.NO_SUCH_HAND, f"seat {event.seat} has no hand {event.hand + 1}", "8.4")
        hand = hands[event.hand]
        if hand.ended is not None:
            if (
                event.action is Action.STAND
                and hand.forced
                and not hand.confirmed
                and self._last_forced.get(event.seat) == event.hand
            ):
                return None
            return RuleError(
                Refusal.NO_DECISION_DUE,
                f"seat {event.seat} hand {event.hand + 1} has ended ({hand.ended}): no decision is due",
                "8.4",
            )
        if self.phase is not Phase.PLAYING or (self._play_order[self._turn], self._hand_index) != (
            event.seat,
            event.hand,
        ):
            return RuleError(
                Refusal.NOT_YOUR_TURN, f"no decision is due from seat {event.seat} hand {event.hand + 1} now", "8.4"
            )
        if hand.card_due():
            return RuleError(
                Refusal.CARD_DUE, f"seat {event.seat} hand {event.hand + 1} takes a card before any decision", "8.6"
            )
        return why_not(self.profile, hand, len(hands), event.action, event.amount)

    def _do_decide(self, event: Decide, ops: list[Operation]) -> None:
        seat, index = event.seat, event.hand
        hand = self.hands[seat][index]
        if hand.ended is not None:
            hand.confirmed = True
            ops.append(StandConfirmed(seat, index))
            return
        action = event.action
        if action is Action.DOUBLE:
            hand.double = hand.stake if event.amount is None else event.amount
            ops.append(DecisionTaken(seat, index, action, hand.double))
        elif action is Action.SPLIT:
            moved = hand.split_off()
            aces = moved.is_ace
            hand.from_split = True
            hand.split_aces = aces
            self.hands[seat].insert(index + 1, PlayerHand([moved], hand.stake, from_split=True, split_aces=aces))
            ops.append(DecisionTaken(seat, index, action, hand.stake))
        elif action is Action.SURRENDER:
            hand.surrendered = True
            ops.append(DecisionTaken(seat, index, action, 0))
            self._end(seat, index, EndReason.SURRENDERED, ops, forced=False)
        else:
            ops.append(DecisionTaken(seat, index, action, 0))
            self._end(seat, index, EndReason.STOOD, ops, forced=False)

    def _end(self, seat: int, index: int, reason: EndReason, ops: list[Operation], forced: bool = True) -> None:
        hand = self.hands[seat][index]
        hand.ended = reason
        hand.forced = forced
        if forced:
            self._last_forced[seat] = index
        ops.append(HandEnded(seat, index, reason, forced))

    # --- moving the round on ----------------------------------------------------------------------

    def _advance(self, ops: list[Operation]) -> None:
        if self.phase is Phase.PLAYING:
            self._next_hand(ops)
        if self.phase is Phase.DEALER:
            if not self._hole_shown and (hole := self.hole_card) is not None:  # dealt before the dealer's turn
                self._hole_shown = True
                ops.append(HoleCardRevealed(hole))
            if not dealer_draws(self.profile, self.dealer, self.dealer_natural, self.wagers, self.hands.values()):
                self._settle(ops)

    def _next_hand(self, ops: list[Operation]) -> None:
        while self._turn < len(self._play_order):
            seat = self._play_order[self._turn]
            hands = self.hands[seat]
            if self._hand_index >= len(hands):
                self._turn += 1
                self._hand_index = 0
                continue
            hand = hands[self._hand_index]
            if hand.ended is None:
                if hand.card_due():
                    return
                reason = forced_end(self.profile, hand, len(hands))
                if reason is None:
                    return
                self._end(seat, self._hand_index, reason, ops)
            self._hand_index += 1
        self.phase = Phase.DEALER

    def _facts(self) -> RoundFacts:
        """The round as settlement reads it: final once the dealer stands, so far before that."""
        p = self.profile
        return RoundFacts(
            profile=p,
            seats=self.seats,
            pd_seat=self.pd_seat,
            bank=self.player_dealer.bank if self.player_dealer else None,
            action_seat=self.action_seat,
            first_cards=self.first_cards,
            dealer_up=self.up_card,
            dealer_cards=tuple(self.dealer),
            lucky_lucky={s: w[WagerKind.LUCKY_LUCKY] for s, w in self.wagers.items() if w.get(WagerKind.LUCKY_LUCKY)},
            insurance=dict(self.insurance),
            buster={s: w[WagerKind.BUSTER] for s, w in self.wagers.items() if w.get(WagerKind.BUSTER)},
            hands=self.final_hands,
        )

    def _settle(self, ops: list[Operation]) -> None:
        self.final_hands = tuple(
            FinalHand(seat, index, tuple(h.cards), h.stake + h.double, bool(h.double), h.surrendered, h.from_split)
            for seat in sorted(self.hands)
            for index, h in enumerate(self.hands[seat])
        )
        self.rows = settle(self._facts())
        self.due, self._step_open = (), False  # the round ended at once: the settlement has it all
        self.phase = Phase.SETTLED
        ops.append(DealerStood(hand_total(self.dealer).value, len(self.dealer) > 2))
        ops.append(RoundSettled(banker_net(self.rows)))

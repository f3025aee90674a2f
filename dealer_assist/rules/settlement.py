"""Settlement against the bank (RULES.md §5): the passes in order, coverage, the payout cap.

Input is the final state of a round as plain facts; output is the list of settlement rows in the
order the dealer pays and collects them. Pure arithmetic in cents, rounding down (§8.9).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import NamedTuple

from dealer_assist.rules.cards import Card
from dealer_assist.rules.lucky_lucky import LUCKY_PAYS, lucky_line
from dealer_assist.rules.money import Cents, payout
from dealer_assist.rules.outcomes import EVEN, Result, Standing, Status, base_outcome, standing
from dealer_assist.rules.profile import Coverage, FreeBonus, Profile
from dealer_assist.rules.seating import clockwise_from

__all__ = ["FREE_BONUS", "Row", "Wager", "banker_net", "seat_nets"]

FREE_BONUS: dict[FreeBonus, tuple[Cents, Cents]] = {  # (7 cards, 8 or more cards)
    FreeBonus.B1: (100_000, 800_000),
    FreeBonus.B3: (100_000, 500_000),
}
INSURANCE_ODDS = Fraction(2)


class Wager(StrEnum):
    LUCKY_LUCKY = "lucky_lucky"
    INSURANCE = "insurance"
    BASE = "base"
    BUSTER = "buster"
    FREE_BONUS = "free_bonus"


@dataclass(frozen=True, slots=True)
class FinalHand:
    seat: int
    hand: int
    cards: tuple[Card, ...]
    stake: Cents
    doubled: bool
    surrendered: bool
    from_split: bool


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """Everything settlement needs, fixed once the dealer's hand is final."""

    profile: Profile
    seats: int
    pd_seat: int | None
    bank: Cents | None
    action_seat: int | None
    first_cards: Mapping[int, tuple[Card, Card]]
    dealer_up: Card
    dealer_cards: tuple[Card, ...]
    lucky_lucky: Mapping[int, Cents]
    insurance: Mapping[int, Cents]
    buster: Mapping[int, Cents]
    hands: tuple[FinalHand, ...]


@dataclass(frozen=True, slots=True)
class Row:
    seat: int
    hand: int
    wager: Wager
    stake: Cents
    result: Result
    in_action: Cents
    amount: Cents


def banker_net(rows: Iterable[Row]) -> Cents:
    """The banker's (the player-dealer's or the house's) result: every row's amount, the other way."""
    return -sum(row.amount for row in rows)


def seat_nets(rows: Iterable[Row], wagered: Iterable[int]) -> dict[int, Cents]:
    """Each seat's result: the sum of its rows' amounts; a seat in `wagered` without a row nets 0."""
    nets = dict.fromkeys(wagered, 0)
    for row in rows:
        nets[row.seat] = nets.get(row.seat, 0) + row.amount
    return nets


class _Due(NamedTuple):
    """A wager's outcome before the bank and the cap have their say (a private, short-lived value)."""

    seat: int
    hand: int
    wager: Wager
    stake: Cents
    result: Result
    odds: Fraction
    fixed_win: Cents | None = None  # a free bonus pays a fixed sum on no stake


def settle(facts: RoundFacts) -> tuple[Row, ...]:
    take = _Bank.of(facts).take
    return tuple(take(d) for d in _dues_in_order(facts))


def _order(facts: RoundFacts) -> list[int]:
    """The seats of the insurance, base and Buster passes: from the action seat, clockwise."""
    return clockwise_from(facts.action_seat or 1, facts.seats, skip=facts.pd_seat)


def _lucky_dues(facts: RoundFacts) -> Iterator[_Due]:
    """§5.2: Lucky Lucky first, from the seat clockwise-next to the player-dealer."""
    if facts.pd_seat is None:
        return
    for seat in clockwise_from(facts.pd_seat % facts.seats + 1, facts.seats, skip=facts.pd_seat):
        if stake := facts.lucky_lucky.get(seat, 0):
            line = lucky_line((*facts.first_cards[seat], facts.dealer_up))
            yield _Due(
                seat,
                0,
                Wager.LUCKY_LUCKY,
                stake,
                *((Result.WIN, Fraction(LUCKY_PAYS[line])) if line else (Result.LOSE, EVEN)),
            )


def _insurance_dues(facts: RoundFacts, order: list[int], dealer_natural: bool) -> Iterator[_Due]:
    for seat in order:
        if stake := facts.insurance.get(seat, 0):
            yield _Due(
                seat,
                0,
                Wager.INSURANCE,
                stake,
                *((Result.WIN, INSURANCE_ODDS) if dealer_natural else (Result.LOSE, EVEN)),
            )


def _dues_in_order(facts: RoundFacts) -> Iterator[_Due]:
    profile = facts.profile
    order = _order(facts)
    yield from _lucky_dues(facts)
    dealer = standing(facts.dealer_cards, profile)
    yield from _insurance_dues(facts, order, dealer.status is Status.NATURAL)
    by_seat: dict[int, list[FinalHand]] = {}
    for hand in facts.hands:
        by_seat.setdefault(hand.seat, []).append(hand)
    for seat in order:
        for hand in by_seat.get(seat, ()):
            if hand.surrendered:
                yield _Due(seat, hand.hand, Wager.BASE, hand.stake, Result.SURRENDER, EVEN)
            else:
                player = standing(hand.cards, profile, from_split=hand.from_split)
                yield _Due(seat, hand.hand, Wager.BASE, hand.stake, *base_outcome(player, dealer, profile))
    for seat in order:
        if stake := facts.buster.get(seat, 0):
            yield _Due(seat, 0, Wager.BUSTER, stake, *_buster(dealer, profile))
    fixed = FREE_BONUS.get(profile.free_bonus)
    if fixed and dealer.status is Status.OVER and dealer.cards >= 7:
        win = fixed[1] if dealer.cards >= 8 else fixed[0]
        for seat in order:
            if facts.buster.get(seat, 0):
                yield _Due(seat, 0, Wager.FREE_BONUS, 0, Result.WIN, EVEN, fixed_win=win)


@dataclass(frozen=True, slots=True)
class EarlySettlement:
    """What can be settled before the round ends, each row exactly as `settle` will give it, and
    the Naturals that must wait for their place in the base pass."""

    rows: tuple[Row, ...]
    naturals_later: tuple[int, ...]  # seats whose Natural is paid at settlement


def settle_early(
    facts: RoundFacts, dealer_natural: bool | None, naturals: Mapping[int, Cents], most: Mapping[int, Cents]
) -> EarlySettlement:
    """The wagers settled before the round ends, known the moment they are decided.

    `facts` is the round so far (its hands not yet final); `dealer_natural` is None until the
    dealer's Natural is known either way. Lucky Lucky is settled right after the deal (§2.17) and
    insurance once the dealer's Natural is known (§3.10): each of their passes comes before any
    other, so their rows are final. A player's Natural is settled as soon as the dealer cannot
    have one (§2.15), but in its place in the base pass (§5.4): it is settled now only when the
    bank and the payout cap treat it in full whatever the hands before it do, each of which
    could at most win `most[seat]` at even money (its stake doubled on every hand it may yet
    split into); otherwise it waits for the settlement. `naturals` are the seats whose first
    hand is a Natural, with its stake.
    """
    bank = _Bank.of(facts)
    rows = [bank.take(due) for due in _lucky_dues(facts)]
    if dealer_natural is None:
        return EarlySettlement(tuple(rows), ())
    order = _order(facts)
    rows += [bank.take(due) for due in _insurance_dues(facts, order, dealer_natural)]
    if dealer_natural:
        return EarlySettlement(tuple(rows), ())
    later: list[int] = []
    low, covered, cap = bank.running_result, bank.covered, bank.cap_left  # the worst the hands before can do
    odds = facts.profile.natural_pays
    for seat in order:
        if seat in naturals:
            stake = naturals[seat]
            owed = payout(stake, odds)
            if bank.bank is None:
                reached = True
            elif facts.profile.coverage is Coverage.RUNNING:
                reached = bank.bank + low >= owed
            else:
                reached = bank.bank - covered >= stake
            if reached and (cap is None or cap >= owed):
                rows.append(Row(seat, 0, Wager.BASE, stake, Result.WIN, stake, owed))
            else:
                later.append(seat)
            stake_most, won_most = stake, owed
        else:
            stake_most = won_most = most.get(seat, 0)
        low, covered = low - won_most, covered + stake_most
        cap = None if cap is None else cap - won_most
    return EarlySettlement(tuple(rows), tuple(later))


def _buster(dealer: Standing, profile: Profile) -> tuple[Result, Fraction]:
    if dealer.status is Status.OVER:
        return Result.WIN, Fraction(profile.buster_odds(dealer.cards))
    return Result.LOSE, EVEN


class _Bank:
    """The player-dealer's bank (None: house-banked) and the table payout cap, in settlement order."""

    def __init__(self, bank: Cents | None, cap: Cents | None, running: bool) -> None:
        self.bank = bank
        self.running_result = 0  # the bank's result so far: + won, - lost
        self.covered = 0  # stake coverage: stakes given action so far
        self.cap_left = cap
        self.take: Callable[[_Due], Row] = self.running if running else self.stake

    @classmethod
    def of(cls, facts: RoundFacts) -> _Bank:
        """The round's bank under its profile's coverage (§5.3); a house bank covers everything."""
        running = facts.bank is None or facts.profile.coverage is Coverage.RUNNING
        return cls(facts.bank, facts.profile.max_table_payout, running)

    def _capped(self, owed: Cents) -> Cents:
        return owed if self.cap_left is None else min(owed, self.cap_left)

    def _pay(self, due: _Due, owed: Cents, paid: Cents, in_action: Cents) -> Row:
        if paid <= 0 and owed > 0:
            return Row(due.seat, due.hand, due.wager, due.stake, Result.NO_ACTION, 0, 0)
        self.running_result -= paid
        if self.cap_left is not None:
            self.cap_left -= paid
        return Row(due.seat, due.hand, due.wager, due.stake, due.result, in_action, paid)

    def _collect(self, due: _Due, owed: Cents, taken: Cents, in_action: Cents) -> Row:
        if taken <= 0 and owed > 0:
            return Row(due.seat, due.hand, due.wager, due.stake, Result.NO_ACTION, 0, 0)
        self.running_result += taken
        return Row(due.seat, due.hand, due.wager, due.stake, due.result, in_action, -taken)

    def running(self, due: _Due) -> Row:
        """§5.3 running coverage: pay min(X, B + R), collect min(L, B - R), action in proportion."""
        if due.result is Result.PUSH:
            return Row(due.seat, due.hand, due.wager, due.stake, Result.PUSH, due.stake, 0)
        if due.result is Result.WIN:
            owed = due.fixed_win if due.fixed_win is not None else payout(due.stake, due.odds)
            room = owed if self.bank is None else min(owed, self.bank + self.running_result)
            paid = self._capped(room)
            return self._pay(due, owed, paid, _share(due.stake, paid, owed))
        owed = _loss(due.result, due.stake)
        taken = owed if self.bank is None else min(owed, self.bank - self.running_result)
        return self._collect(due, owed, taken, _share(due.stake, taken, owed))

    def stake(self, due: _Due) -> Row:
        """§5.3 stake coverage: stakes get action in order until they sum to B, then settle in full."""
        assert self.bank is not None
        in_action = min(due.stake, self.bank - self.covered)
        self.covered += in_action
        if in_action <= 0:
            return Row(due.seat, due.hand, due.wager, due.stake, Result.NO_ACTION, 0, 0)
        if due.result is Result.PUSH:
            return Row(due.seat, due.hand, due.wager, due.stake, Result.PUSH, in_action, 0)
        if due.result is Result.WIN:
            owed = payout(in_action, due.odds)
            paid = self._capped(owed)
            return self._pay(due, owed, paid, _share(in_action, paid, owed))
        owed = _loss(due.result, in_action)
        return self._collect(due, owed, owed, in_action)


def _loss(result: Result, stake: Cents) -> Cents:
    """A loss costs the stake; a surrender half of it, rounded down (§8.9)."""
    return stake // 2 if result is Result.SURRENDER else stake


def _share(stake: Cents, moved: Cents, owed: Cents) -> Cents:
    """The part of a stake that had action when only `moved` of `owed` changed hands."""
    return stake if owed <= 0 or moved >= owed else stake * moved // owed

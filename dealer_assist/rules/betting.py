"""Betting in a round: the wagers and their limits, the seats that may take them, the close of
betting with its fees (RULES.md §2.17, §5.5, §7, §8.21), and insurance, a wager of its own (§8.8).

A part of the round tracker's class, kept apart for its reason to change: the tracker's state it
reads and keeps is named below, and `RoundTracker` sets it.
"""

from __future__ import annotations

from dealer_assist.rules.inputs import Insure, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.money import Cents, format_money
from dealer_assist.rules.operations import BettingClosed, InsurancePlaced, Operation, WagerPlaced
from dealer_assist.rules.phases import DEALER, Phase
from dealer_assist.rules.player_hand import PlayerHand
from dealer_assist.rules.profile import FeeTier, PlayStart, Profile
from dealer_assist.rules.refusals import InputError, Refusal, RuleError
from dealer_assist.rules.seating import clockwise_from

__all__ = ["wager_limits"]


class Betting:
    """The tracker's betting: its checks (`_check_*`) and what each does (`_do_*`)."""

    profile: Profile
    seats: int
    pd_seat: int | None
    phase: Phase
    wagers: dict[int, dict[WagerKind, Cents]]
    insurance: dict[int, Cents]
    hands: dict[int, list[PlayerHand]]
    fees: tuple[Cents, Cents]
    _deal_order: list[int]
    _play_order: list[int]

    def _check_wager(self, event: PlaceWager) -> RuleError | None:
        if self.phase is not Phase.BETTING:
            return RuleError(
                Refusal.BETTING_CLOSED, f"wagers are placed before the deal; the round is {self.phase}", "2.17"
            )
        if (error := self.seat_refusal(event.seat)) is not None:
            return error
        if event.amount < 0:
            return InputError(Refusal.BAD_AMOUNT, f"seat {event.seat}'s {event.kind.words}: a wager cannot be negative")
        current = self.wagers.get(event.seat, {})
        if event.kind is WagerKind.BASE and event.amount == 0:
            if any(current.get(k) for k in (WagerKind.LUCKY_LUCKY, WagerKind.BUSTER)):
                return RuleError(
                    Refusal.SIDE_BET_WITHOUT_BASE,
                    f"seat {event.seat}: take back the side bets before the base wager",
                    "2.17",
                )
        return self.wager_refusal(event, current.get(WagerKind.BASE, 0))

    def wager_refusal(self, event: PlaceWager, base: Cents) -> RuleError | None:
        """Why the amount of `event` breaks the limits or the bets it needs, were the seat's base
        wager `base`; the wagers read from the spots are checked so before they are placed."""
        if not event.amount:
            return None
        p = self.profile
        if event.kind is not WagerKind.BASE and not base:
            rule = "2.17" if event.kind is WagerKind.LUCKY_LUCKY else p.rules["buster"]
            return RuleError(
                Refusal.SIDE_BET_WITHOUT_BASE, f"seat {event.seat}: a {event.kind.words} wager needs a base wager", rule
            )
        if event.kind is WagerKind.LUCKY_LUCKY and not p.lucky_lucky:
            return RuleError(Refusal.NOT_OFFERED, f"{p.id} has no Lucky Lucky bet", "8.19")
        limits = wager_limits(p, event.kind)
        return None if limits is None else _limits(event, *limits, "7")

    def _do_wager(self, event: PlaceWager, ops: list[Operation]) -> None:
        seat = self.wagers.setdefault(event.seat, {})
        if event.amount:
            seat[event.kind] = event.amount
        else:
            seat.pop(event.kind, None)
            if not seat:
                del self.wagers[event.seat]
        ops.append(WagerPlaced(event.seat, event.kind, event.amount))

    def _has_base_wager(self) -> bool:
        return any(w.get(WagerKind.BASE) for w in self.wagers.values())

    def _check_no_more_bets(self, event: NoMoreBets) -> RuleError | None:
        if self.phase is not Phase.BETTING:
            return RuleError(Refusal.BETTING_CLOSED, f"betting is already closed; the round is {self.phase}", "8.21")
        if not self._has_base_wager():
            return RuleError(Refusal.NO_WAGERS, 'no seat has a base wager: place one before "No more bets"', "8.1")
        return None

    def _do_no_more_bets(self, event: NoMoreBets, ops: list[Operation]) -> None:
        self._close_betting(ops)

    def seat_refusal(self, seat: int) -> RuleError | None:
        if not 1 <= seat <= self.seats:
            return RuleError(Refusal.BAD_SEAT, f"seat {seat} is not a seat from 1 to {self.seats}", "1")
        if seat == self.pd_seat:
            return RuleError(
                Refusal.PLAYER_DEALER_SEAT, f"seat {seat} is the player-dealer's: it holds the bank", "5.1"
            )
        return None

    def _close_betting(self, ops: list[Operation]) -> None:
        seats = sorted(seat for seat, w in self.wagers.items() if w.get(WagerKind.BASE))
        self._deal_order = [*seats, DEALER, *seats, DEALER]
        for seat in seats:
            self.hands[seat] = [PlayerHand([], self.wagers[seat][WagerKind.BASE])]
        if self.pd_seat is None:
            self._play_order = seats
        else:
            start = self.pd_seat % self.seats + 1 if self.profile.play_starts is PlayStart.AFTER_PLAYER_DEALER else 1
            self._play_order = [s for s in clockwise_from(start, self.seats, skip=self.pd_seat) if s in self.hands]
        self.fees = self._fees(seats)
        self.phase = Phase.DEALING
        ops.append(BettingClosed(*self.fees))

    def _fees(self, seats: list[int]) -> tuple[Cents, Cents]:
        """Collection per circle and from the PD by the tier of its wager (RULES.md §5.5)."""
        tiers = self.profile.fees
        if not tiers or not seats:
            return 0, 0

        def tier(base: Cents) -> FeeTier:  # the first tier that covers the wager, else the last
            return next((t for t in tiers if t.upto >= base), tiers[-1])

        bases = [self.wagers[s][WagerKind.BASE] for s in seats]
        return sum(tier(b).player for b in bases), tier(max(bases)).pd

    def _check_insure(self, event: Insure) -> RuleError | None:
        rule = self.profile.rules["insurance"]
        if self.phase is not Phase.INSURANCE:
            return RuleError(
                Refusal.INSURANCE_NOT_OFFERED,
                "insurance is offered only with an Ace up in a hole-card game, before the peek",
                "8.8",
            )
        if (error := self.seat_refusal(event.seat)) is not None:
            return error
        base = self.wagers.get(event.seat, {}).get(WagerKind.BASE, 0)
        if not base:
            return RuleError(Refusal.SIDE_BET_WITHOUT_BASE, f"seat {event.seat} has no base wager to insure", rule)
        if event.amount and event.amount < self.profile.insurance_min:
            return RuleError(
                Refusal.WAGER_LIMIT,
                f"seat {event.seat} insurance {format_money(event.amount)} is below the minimum"
                f" {format_money(self.profile.insurance_min)}",
                rule,
            )
        if event.amount * 2 > base:
            return RuleError(
                Refusal.WAGER_LIMIT,
                f"seat {event.seat} insurance {format_money(event.amount)} is more than half the wager"
                f" {format_money(base)}",
                rule,
            )
        return None

    def _do_insure(self, event: Insure, ops: list[Operation]) -> None:
        if event.amount:
            self.insurance[event.seat] = event.amount
        else:
            self.insurance.pop(event.seat, None)
        ops.append(InsurancePlaced(event.seat, event.amount))

    def _check_close_insurance(self) -> RuleError | None:
        if self.phase is not Phase.INSURANCE:
            return RuleError(Refusal.INSURANCE_NOT_OFFERED, f"insurance is not open; the round is {self.phase}", "8.8")
        return None


def wager_limits(profile: Profile, kind: WagerKind) -> tuple[Cents, Cents] | None:
    """The least and the most a wager of this kind may be (RULES.md §7); a Lucky Lucky wager has none."""
    if kind is WagerKind.BASE:
        return profile.table_min, profile.table_max
    if kind is WagerKind.BUSTER:
        return profile.buster_min, profile.buster_max
    return None


def _limits(event: PlaceWager, low: Cents, high: Cents, rule: str) -> RuleError | None:
    if not low <= event.amount <= high:
        return RuleError(
            Refusal.WAGER_LIMIT,
            f"seat {event.seat}'s {event.kind.words} {format_money(event.amount)} is outside the limits"
            f" {format_money(low)}-{format_money(high)}",
            rule,
        )
    return None

"""The wager reader's part in a round (RULES.md §8.22-8.24): the chips read on a spot are the wager
while betting is open, a decision's stake or a late change after it, and the payouts at "Paid".

The session hands the reader's inputs here; this flow reads and changes the session only through
`RoundHost`, the few things a round at a reader table needs of it.
"""

from __future__ import annotations

from typing import Protocol

from dealer_assist.rules.cards import Card
from dealer_assist.rules.counts import count
from dealer_assist.rules.inputs import Action, Decide, Input, Insure, NoMoreBets, PaymentsMade, PlaceWager
from dealer_assist.rules.money import Cents, format_money
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.profile import PayoutCheck, Profile
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table import reader_faults
from dealer_assist.table.carried import BetweenRounds
from dealer_assist.table.readings import WAGER_SPOTS, WagerReadings, must_hold
from dealer_assist.table.session_inputs import AcceptPayout, ScanFor, SpotReading, SpotsScanned, check_signed
from dealer_assist.table.session_operations import (
    ChipsAwaited,
    LateChange,
    LateChangeUndone,
    MispayAccepted,
    ReadingNotAWager,
    TableOperation,
)
from dealer_assist.table.spots import Spot, SpotKind


class RoundHost(Protocol):
    """What the reader's flow needs of the table session."""

    s: BetweenRounds
    profile: Profile
    reader: WagerReadings
    tracker: RoundTracker | None
    misdeal: Card | None

    def open_tracker(self) -> RoundTracker: ...

    def to_round(self, event: Input, ops: list[TableOperation]) -> None: ...

    def settlement_confirmed(self, ops: list[TableOperation], checked: bool = False) -> None: ...


class ReaderFlow:
    def __init__(self, host: RoundHost) -> None:
        self.host = host

    def confirm_wagers(self, ops: list[TableOperation]) -> None:
        """ "No more bets" with the reader down: the wagers close as the dealer confirmed them (RULES.md §8.23)."""
        tracker = self.host.open_tracker()
        confirmed = reader_faults.confirmed(self.host.s, tracker)
        if (error := tracker.verify(NoMoreBets())) is not None:
            raise error
        ops.append(confirmed)
        self.host.to_round(NoMoreBets(), ops)

    def check_read(self, event: Input, tracker: RoundTracker) -> None:
        """A wager or a double for less keyed on a spot the reader reads is refused, naming the
        spot; "No more bets" and a checked "Paid" come with the reader's scan."""
        spot = (
            Spot(event.seat, WAGER_SPOTS[event.kind])
            if isinstance(event, PlaceWager)
            else Spot(event.seat, SpotKind.INSURANCE)
            if isinstance(event, Insure)
            else None
        )
        if spot is not None:
            if self.host.reader.reads(spot):
                raise RuleError(
                    Refusal.SPOT_READ,
                    f"{spot.words}: the wager reader reads it: the chips on it "
                    "are the wager; the dealer keys only a spot the reader does not have or reports faulted",
                    "8.22",
                )
        elif (
            isinstance(event, Decide)
            and event.amount is not None
            and self.host.reader.reads(Spot(event.seat, SpotKind.BASE))
        ):
            raise RuleError(
                Refusal.SPOT_READ,
                f"seat {event.seat}: a double for less is the chips added on its base: "
                "tap Double and let the player add them",
                "8.23",
            )
        elif isinstance(event, NoMoreBets) and self.host.s.reader_down:
            reader_faults.refuse_unconfirmed_close(self.host.s)
        elif isinstance(event, NoMoreBets) and self.host.reader.spots:
            raise RuleError(
                Refusal.SCAN_REQUIRED,
                "the wagers close at the reader's scan of every spot: tap No more bets again once the reader is up",
                "8.23",
            )
        elif isinstance(event, PaymentsMade):
            self.check_scanned(tracker)

    def check_scanned(self, tracker: RoundTracker) -> None:
        if self.host.profile.payout_check is PayoutCheck.HOLD and self.host.reader.settling(tracker):
            raise RuleError(
                Refusal.SCAN_REQUIRED,
                "the payouts on the spots are checked at the reader's scan: tap Paid again once the reader is up",
                "8.24",
            )

    def wagers_read(
        self, tracker: RoundTracker, seats: set[int], ops: list[TableOperation], shown: Spot | None = None
    ) -> None:
        """While betting is open: the seats' read spots become their wagers; a reading the rules do
        not take as a wager is noted for the spot just read (`shown`)."""
        for seat in sorted(seats):
            changes, problems = self.host.reader.seat_wagers(tracker, seat)
            for change in changes:
                self.host.to_round(change, ops)
            for problem in problems:
                if problem.reading.spot == shown:
                    reading = problem.reading
                    ops.append(
                        ReadingNotAWager(
                            reading.spot,
                            reading.amount,
                            reading.alien,
                            Refusal.READING_NOT_ALLOWED,
                            problem.refusal().message,
                        )
                    )

    def spot_read(self, event: SpotReading, ops: list[TableOperation]) -> None:
        if not self.host.reader.reads(event.spot):
            raise RuleError(
                Refusal.NOT_READING,
                f"{event.spot.words}: the table does not use the reader's readings of it now",
                "8.22",
            )
        self.host.reader.keep(event)
        tracker = self.host.tracker
        if tracker is None or event.spot.seat is None or self.host.misdeal is not None:
            return  # kept: the next round's wagers, the bank offered
        if tracker.phase is Phase.BETTING:
            self.wagers_read(tracker, {event.spot.seat}, ops, event.spot)
        else:
            self._after_close(tracker, event, ops)

    def _after_close(self, tracker: RoundTracker, reading: SpotReading, ops: list[TableOperation]) -> None:
        """A spot's chips after "No more bets": a decision's stake, insurance, or a late change (RULES.md §8.23)."""
        spot, seat = reading.spot, reading.spot.seat
        assert seat is not None
        awaited = self.host.reader.round.awaited
        if awaited is not None and awaited.spot == spot and reading.amount > must_hold(tracker, spot):
            self._chips_added(awaited, reading, tracker, ops)
        elif spot.kind is SpotKind.INSURANCE and tracker.phase is Phase.INSURANCE:
            self._decided_by_chips(Insure(seat, reading.amount), reading, reading.amount, "insurance", tracker, ops)
        elif self.host.reader.watched(tracker, spot):
            due = must_hold(tracker, spot)
            if reading.amount == due and not reading.alien:
                if self.host.reader.round.late.pop(spot, None) is not None:
                    ops.append(LateChangeUndone(spot))
            elif self.host.reader.round.changed_late(reading):
                ops.append(LateChange(spot, due, reading.amount, reading.alien))

    def await_chips(self, event: Decide, tracker: RoundTracker, ops: list[TableOperation]) -> None:
        """A double or a split at a read spot: its stake is the chips the player adds next."""
        error = tracker.verify(Decide(event.seat, event.hand, event.action))
        if error is not None:
            raise error
        spot = Spot(event.seat, SpotKind.BASE)
        awaited = ChipsAwaited(event.seat, event.hand, event.action, spot)
        self.host.reader.round.awaited = awaited
        ops.append(awaited)
        reading = self.host.reader.reading(spot)
        if reading.amount > must_hold(tracker, spot):  # put down before the tap: they are its stake
            self._chips_added(awaited, reading, tracker, ops)

    def _chips_added(
        self, awaited: ChipsAwaited, reading: SpotReading, tracker: RoundTracker, ops: list[TableOperation]
    ) -> None:
        added = reading.amount - must_hold(tracker, awaited.spot)
        hand = tracker.hands[awaited.seat][awaited.hand]
        if awaited.action is Action.SPLIT and added != hand.stake:
            raise RuleError(
                Refusal.CHIPS_NOT_ALLOWED,
                f"{format_money(added)} added on {awaited.spot.words} for "
                f"the split; each split hand carries the wager, {format_money(hand.stake)}",
                tracker.profile.rules["split"],
            )
        amount = added if awaited.action is Action.DOUBLE else None
        self._decided_by_chips(
            Decide(awaited.seat, awaited.hand, awaited.action, amount),
            reading,
            added,
            str(awaited.action),
            tracker,
            ops,
        )
        self.host.reader.round.awaited = None
        if self.host.reader.round.late.pop(awaited.spot, None) is not None:
            ops.append(LateChangeUndone(awaited.spot))

    def _decided_by_chips(
        self,
        event: Decide | Insure,
        reading: SpotReading,
        amount: Cents,
        what: str,
        tracker: RoundTracker,
        ops: list[TableOperation],
    ) -> None:
        """A decision whose stake is the chips read: refused, naming the amount read, when the rules do not allow it."""
        error = tracker.verify(event)
        if error is None and reading.alien:
            error = RuleError(
                Refusal.CHIPS_NOT_ALLOWED, f"{count(reading.alien, 'chip')} of another casino there too", "8.22"
            )
        if error is not None:
            raise RuleError(
                Refusal.CHIPS_NOT_ALLOWED,
                f"{format_money(amount)} read on {reading.spot.words} for the {what}: {error.message}",
                error.rule,
            )
        self.host.to_round(event, ops)

    def scanned(self, event: SpotsScanned, ops: list[TableOperation]) -> None:
        """A scan of every spot: its spots are those read from now on, each reading their content;
        taken for "No more bets" it closes the wagers, for "Paid" it checks the payouts."""
        self.host.reader.use(reading.spot for reading in event.reads)
        for reading in event.reads:
            self.host.reader.keep(reading)
        open_round = None if self.host.misdeal else self.host.tracker
        ops.extend(reader_faults.back_differences(self.host.s, self.host.reader, open_round, event.reads))
        if event.purpose is ScanFor.READING and (self.host.tracker is None or self.host.misdeal is not None):
            return
        tracker = self.host.open_tracker()
        if tracker.phase is Phase.BETTING:
            self.wagers_read(tracker, {r.spot.seat for r in event.reads if r.spot.seat is not None}, ops)
        elif event.purpose is not ScanFor.NO_MORE_BETS:
            for reading in event.reads:
                if reading.spot.seat is not None:
                    self._after_close(tracker, reading, ops)
        if event.purpose is ScanFor.NO_MORE_BETS:
            self._close_at_scan(tracker, ops)
        elif event.purpose is not ScanFor.READING:
            self._check_payouts(event, tracker, ops)

    def _close_at_scan(self, tracker: RoundTracker, ops: list[TableOperation]) -> None:
        """The closed wagers are the scan's (RULES.md §8.23); a spot whose chips are no wager holds them open."""
        problems = self.host.reader.problems(tracker) if tracker.phase is Phase.BETTING else []
        if problems:
            raise problems[0].refusal()
        if (error := tracker.verify(NoMoreBets())) is not None:
            raise error
        self.host.to_round(NoMoreBets(), ops)

    def _check_payouts(self, event: SpotsScanned, tracker: RoundTracker, ops: list[TableOperation]) -> None:
        """At "Paid": the spots settled in the step against the scan; the step ends once all are right (RULES.md
        §8.24)."""
        settling = tracker.phase is Phase.SETTLED
        wanted = ScanFor.SETTLED if settling else ScanFor.PAID
        if event.purpose is not wanted:
            raise RuleError(
                Refusal.NOTHING_DUE,
                f"a scan for {event.purpose.value.replace('_', ' ')} came while the round is {tracker.phase}",
                "8.24",
            )
        if not settling and (error := tracker.verify(PaymentsMade())) is not None:
            raise error
        differences = self.host.reader.check(tracker, event.reads)
        if differences and self.host.profile.payout_check is PayoutCheck.HOLD:
            ops.extend(differences)
            return
        self._step_done(tracker, ops)

    def _step_done(self, tracker: RoundTracker, ops: list[TableOperation]) -> None:
        self.host.reader.round.matched.clear()
        self.host.reader.round.differences.clear()
        if tracker.phase is Phase.SETTLED:
            self.host.settlement_confirmed(ops, checked=True)
        else:
            self.host.to_round(PaymentsMade(), ops)

    def accept_payout(self, event: AcceptPayout, ops: list[TableOperation]) -> None:
        tracker = self.host.open_tracker()
        found = self.host.reader.round.differences
        if not found:
            raise RuleError(Refusal.NO_PAYOUT_DIFFERENCE, "no payout difference is open to accept", "8.24")
        check_signed(event)
        for difference in found.values():
            mispay = MispayAccepted(difference.spot, difference.held, difference.due, event.supervisor, event.reason)
            self.host.reader.round.mispays.append(mispay)
            ops.append(mispay)
        self._step_done(tracker, ops)

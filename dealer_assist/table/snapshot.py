"""An immutable picture of the table for the screens (ARCHITECTURE.md "snapshot() -> views").

The screens hold no rule logic: everything they show or enable is read here from the round
tracker, once per change, into frozen records. The hole card stays None until the tracker
reveals it, so no screen can show it early.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from dealer_assist.errors import Failure
from dealer_assist.rules.cards import Card, card_text
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.operations import EndReason, HoldReason
from dealer_assist.rules.outcomes import Status, standing
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.rules.profile import PayoutCheck
from dealer_assist.rules.prompts import misdeal_prompt, unread_prompt
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.rules.settlement import Row, Wager, banker_net, seat_nets
from dealer_assist.rules.totals import hand_total
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table import reader_faults
from dealer_assist.table.device_state import DeviceState, to_tell
from dealer_assist.table.readings import WAGER_SPOTS, SpotProblem, must_hold, wager_changes
from dealer_assist.table.session import TableSession, TableState
from dealer_assist.table.session_inputs import SpotReading
from dealer_assist.table.session_operations import ChipsAwaited, MispayAccepted, PayoutDifference
from dealer_assist.table.spots import Spot, SpotKind

__all__ = [
    "Attention",
    "AttentionKind",
    "Decisions",
    "HandView",
    "LeftOut",
    "ReaderView",
    "SeatView",
    "SpotView",
    "TableSnapshot",
    "build_table_snapshot",
]


class AttentionKind(StrEnum):
    """What a person must look at before the round goes on."""

    REFUSED = "refused"
    MISDEAL = "misdeal"
    MISREAD = "misread"
    MISMATCH = "mismatch"
    PEEK_FAILED = "peek_failed"
    PEEK_DISAGREES = "peek_disagrees"
    JOURNAL = "journal"
    READER_BACK = "reader_back"  # the wager reader's first scan after its outage differs from the table


@dataclass(frozen=True, slots=True)
class Attention:
    """`held`: the round waits for a floor supervisor; nobody at the table can dismiss it."""

    kind: AttentionKind
    message: str
    rule: str | None = None
    held: bool = False

    @classmethod
    def refusal(cls, error: Failure) -> Attention:
        """A refused card is a misdeal (RULES.md §6.1); any other refusal is just refused."""
        kind = AttentionKind.MISDEAL if error.code == Refusal.CARD_NOT_ALLOWED else AttentionKind.REFUSED
        return cls(kind, error.message, error.rule if isinstance(error, RuleError) else None)


_HOLDS = {HoldReason.PEEK_FAILED: AttentionKind.PEEK_FAILED, HoldReason.PEEK_DISAGREES: AttentionKind.PEEK_DISAGREES}


@dataclass(frozen=True, slots=True)
class HandView:
    index: int
    cards: tuple[Card, ...]
    total: int
    soft: bool
    status: Status | None  # None until the hand has two cards
    stake: Cents
    doubled: Cents
    surrendered: bool
    ended: EndReason | None
    acting: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    base: Cents
    lucky_lucky: Cents
    buster: Cents
    insurance: Cents
    hands: tuple[HandView, ...]
    player_dealer: bool
    action_button: bool
    acting: bool
    net: Cents | None  # after settlement, for seats that had a wager
    lucky_cards: tuple[
        Card, ...
    ] = ()  # once dealt: its first two cards and the up card, which decide a Lucky Lucky (RULES.md §2.17)


@dataclass(frozen=True, slots=True)
class LeftOut:
    """A wager of the last round that "Same as last round" does not place again: the rules refuse it
    now (`code` and `message` of the refusal: the seat banks now, the bet is not offered, a limit)."""

    kind: WagerKind
    amount: Cents
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class LastRound:
    """A seat's wagers of the round closed last, as "Same as last round" places them again (RULES.md
    §8.22): `again` are the inputs that make the seat's wagers those of the last round that still
    fit, in an order the rules take (side bets off first, then the base, then the side bets), none
    when the seat holds them already; `left_out` are those that no longer fit."""

    seat: int
    again: tuple[PlaceWager, ...]
    left_out: tuple[LeftOut, ...] = ()


@dataclass(frozen=True, slots=True)
class DealerHandView:
    """The dealer's cards as the table shows them: None is the hole card, face down."""

    cards: tuple[Card | None, ...]
    total: int | None
    soft: bool
    status: Status | None
    hole_hidden: bool


@dataclass(frozen=True, slots=True)
class BankView:
    seat: int
    bank: Cents
    net: Cents | None


@dataclass(frozen=True, slots=True)
class Decisions:
    """The decision buttons, each enabled exactly when the tracker would accept it; a double for
    less is open when the tracker would accept one of `double_min`, up to `double_max`."""

    seat: int | None = None
    hand: int | None = None
    stand: bool = False
    double: bool = False
    split: bool = False
    surrender: bool = False
    double_for_less: bool = False
    double_min: Cents = 0
    double_max: Cents = 0

    def enabled(self, action: Action) -> bool:
        return bool(getattr(self, action.value))


@dataclass(frozen=True, slots=True)
class TableView:
    """What lasts longer than a round: the round number, the shoe, who banks and for which turn."""

    table_id: str
    state: TableState
    round_id: int
    shoe_id: str | None
    shoe_cards: int
    new_shoe_due: bool
    pd_turn: int | None  # 1 or 2 while a player-dealer banks the open round (RULES.md §5.6)
    offer_seat: int | None
    offer_turn: int
    misdeal: Card | None
    unread: tuple[int, ...]  # shoe numbers of cards that left the shoe unread, oldest first
    second_turn: int | None = None  # the player-dealer's seat, offered the bank again once the open round closes


@dataclass(frozen=True, slots=True)
class SpotView:
    """A read spot as its seat shows it: its chips, and what is wrong with them if anything: chips
    that are no wager while betting is open, a late change (`due` the closed wager it must hold),
    a payout check that found it wrong (RULES.md §8.22-8.24). `reading` is the spot's last; under a
    late change, `late_chips` is what lay on it beyond its closed wager (less than zero: taken off)."""

    reading: SpotReading
    problem: SpotProblem | None = None
    due: Cents | None = None
    difference: PayoutDifference | None = None
    late_chips: Cents = 0


@dataclass(frozen=True, slots=True)
class ReaderView:
    """The wager reader's spots in use and the open round's findings; `scanning` while a scan the
    dealer's tap asked for is awaited; `faulted` the spots under a fault, keyed by the dealer, and
    `down` while its link is down, until its next scan (RULES.md §8.22-8.24)."""

    spots: tuple[SpotView, ...]
    awaited: ChipsAwaited | None = None
    mispays: tuple[MispayAccepted, ...] = ()
    scanning: bool = False
    checks_payouts: bool = False  # the dealer's "Paid" scans the spots and holds until they are right (RULES.md §8.24)
    faulted: tuple[Spot, ...] = ()
    down: bool = False

    def faulted_on(self, seat: int | None) -> tuple[Spot, ...]:
        return tuple(spot for spot in self.faulted if spot.seat == seat)

    def on_seat(self, seat: int | None) -> tuple[SpotView, ...]:
        return tuple(view for view in self.spots if view.reading.spot.seat == seat)

    @property
    def problems(self) -> tuple[SpotProblem, ...]:
        return tuple(view.problem for view in self.spots if view.problem is not None)

    @property
    def differences(self) -> tuple[PayoutDifference, ...]:
        return tuple(view.difference for view in self.spots if view.difference is not None)

    @property
    def late(self) -> tuple[SpotView, ...]:
        return tuple(view for view in self.spots if view.due is not None)


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """`phase` and `need` are None between rounds (a shoe to load, the bank to offer)."""

    profile_id: str
    profile_title: str
    phase: Phase | None
    need: Need | None
    prompt: str
    seats: tuple[SeatView, ...]
    dealer: DealerHandView
    bank: BankView | None
    action_seat: int | None
    decisions: Decisions
    takes_card: bool
    next_card_is_hole_card: bool
    lucky_lucky_offered: bool
    player_dealer_game: bool
    settlement: tuple[Row, ...]  # each wager to pay (amount > 0), collect (< 0) or return (0), in order
    fees: tuple[Cents, Cents]
    attention: Attention | None
    table: TableView | None = None
    closes_betting: bool = False  # the dealer's "No more bets" is accepted now (RULES.md §8.21)
    held: bool = False  # the round waits for a floor supervisor: no wager, "No more bets" or decision is taken
    due: tuple[Row, ...] = ()  # to settle now, before the round goes on (need PAYMENTS)
    naturals_later: tuple[int, ...] = ()  # seats whose early Natural is paid in its place at settlement
    settled_early: frozenset[tuple[int, int, Wager]] = frozenset()  # (seat, hand, wager) settled before the end
    reader: ReaderView | None = None  # a table whose wager reader reads spots, or found something this round
    house_dealer: str | None = None  # the house dealer signed in (RULES.md §8.25)
    last_round: tuple[
        LastRound, ...
    ] = ()  # while betting is open: each keyed seat that wagered in the round closed last
    devices: tuple[DeviceState, ...] = ()  # each device's state, as the table's owner knows it

    @property
    def device_told(self) -> DeviceState | None:
        """The device state to say in words: on the banner, or before the prompt while the banner
        says something else (a refusal, a hold)."""
        return to_tell(self.devices)

    @property
    def prompt_line(self) -> str:
        """The prompt, after the word of a device state the banner has no room for."""
        told = self.device_told
        return f"{told.word} · {self.prompt}" if told is not None and self.attention is not None else self.prompt

    def was_settled_early(self, row: Row) -> bool:
        return (row.seat, row.hand, row.wager) in self.settled_early

    def seat(self, number: int) -> SeatView:
        return self.seats[number - 1]

    def last_round_of(self, seat: int) -> LastRound | None:
        return next((last for last in self.last_round if last.seat == seat), None)

    @property
    def table_again(self) -> tuple[PlaceWager, ...]:
        """ "Same as last round" for the whole table: the last round's wagers again on every seat
        that wagered then and holds no wager yet (a seat keyed already keeps what it holds)."""
        return tuple(event for last in self.last_round if not _wagered(self.seat(last.seat)) for event in last.again)


def _wagered(seat: SeatView) -> bool:
    return bool(seat.base or seat.lucky_lucky or seat.buster)


def _hand_views(tracker: RoundTracker, seat: int, acting: tuple[int | None, int | None]) -> tuple[HandView, ...]:
    views = []
    for index, hand in enumerate(tracker.hands.get(seat, [])):
        total = hand.total
        status = (
            standing(hand.cards, tracker.profile, from_split=hand.from_split).status if len(hand.cards) >= 2 else None
        )
        views.append(
            HandView(
                index,
                tuple(hand.cards),
                total.value,
                total.soft,
                status,
                hand.stake,
                hand.double,
                hand.surrendered,
                hand.ended,
                acting == (seat, index),
            )
        )
    return tuple(views)


def _dealer_view(tracker: RoundTracker) -> DealerHandView:
    shown = tuple(tracker.visible_dealer_cards())
    visible = [card for card in shown if card is not None]
    hidden = len(visible) < len(shown)
    if not visible:
        return DealerHandView(shown, None, False, None, hidden)
    total = hand_total(visible)
    status = standing(visible, tracker.profile).status if len(visible) >= 2 else None
    return DealerHandView(shown, total.value, total.soft, status, hidden)


def _decisions(tracker: RoundTracker) -> Decisions:
    wait = tracker.awaiting()
    if wait.need is not Need.DECISION or wait.seat is None or wait.hand is None:
        return Decisions()
    seat, hand = wait.seat, wait.hand
    low, high = tracker.double_range(seat, hand)
    less = low < high and tracker.can(Decide(seat, hand, Action.DOUBLE, low))
    return Decisions(
        seat,
        hand,
        **{a.value: tracker.can(Decide(seat, hand, a)) for a in Action},
        double_for_less=less,
        double_min=low if less else 0,
        double_max=high if less else 0,
    )


def build_snapshot(tracker: RoundTracker, attention: Attention | None = None) -> TableSnapshot:
    """The table as the screens show it now; `attention` is a refusal or device fault to show."""
    wait = tracker.awaiting()
    acting = (wait.seat, wait.hand)
    nets = seat_nets(tracker.rows, tracker.wagers) if tracker.phase is Phase.SETTLED else {}
    seats = tuple(
        SeatView(
            seat,
            tracker.wagers.get(seat, {}).get(WagerKind.BASE, 0),
            tracker.wagers.get(seat, {}).get(WagerKind.LUCKY_LUCKY, 0),
            tracker.wagers.get(seat, {}).get(WagerKind.BUSTER, 0),
            tracker.insurance.get(seat, 0),
            _hand_views(tracker, seat, acting),
            seat == tracker.pd_seat,
            seat == tracker.action_seat,
            seat == wait.seat,
            nets.get(seat),
            (*tracker.first_cards[seat], tracker.up_card) if seat in tracker.first_cards else (),
        )
        for seat in range(1, tracker.seats + 1)
    )
    pd = tracker.player_dealer
    bank = None if pd is None else BankView(pd.seat, pd.bank, banker_net(tracker.rows) if nets else None)
    if attention is None and tracker.hold is not None:
        attention = Attention(
            _HOLDS[tracker.hold.reason],
            f"{tracker.hold.detail}; a floor supervisor checks the hole card by hand",
            "6.2",
            held=True,
        )
    return TableSnapshot(
        profile_id=tracker.profile.id,
        profile_title=tracker.profile.title,
        phase=tracker.phase,
        need=wait.need,
        prompt=tracker.prompt(),
        seats=seats,
        dealer=_dealer_view(tracker),
        bank=bank,
        action_seat=tracker.action_seat,
        decisions=_decisions(tracker),
        takes_card=tracker.takes_card(),
        next_card_is_hole_card=tracker.next_card_is_hole_card(),
        lucky_lucky_offered=tracker.profile.lucky_lucky,
        player_dealer_game=tracker.profile.player_dealer,
        settlement=tracker.rows,
        fees=tracker.fees,
        attention=attention,
        closes_betting=tracker.dealer_closes_betting and tracker.can(NoMoreBets()),
        held=tracker.hold is not None,
        due=tracker.due,
        naturals_later=tracker.naturals_later,
        settled_early=frozenset(tracker.settled_early),
    )


def _table_view(session: TableSession) -> TableView:
    s = session.s
    open_round = session.tracker is not None and session.profile.player_dealer
    return TableView(
        session.config.table_id,
        session.state,
        s.round_id,
        s.shoe_id,
        s.shoe_cards,
        s.new_shoe_due,
        s.pd_turn if open_round else None,
        s.offer_seat,
        s.offer_turn,
        session.misdeal,
        tuple(session.unread),
        session.second_turn(),
    )


def table_prompt(session: TableSession) -> str:
    """What the table waits for, as the dealer reads it: a hold first, with who resolves it; then
    the round's next step, or what the table waits for between rounds."""
    if session.unread:
        return unread_prompt(session.unread[0])
    if session.misdeal is not None:
        return misdeal_prompt(session.misdeal, before_round=session.tracker is None)
    if session.tracker is not None:
        return session.tracker.prompt()
    s = session.s
    if session.state is TableState.NEEDS_SHOE:
        return "Cut card is out: load a new shoe" if s.new_shoe_due else "Load a shoe"
    turn = "first" if s.offer_turn == 1 else "second"
    return f"Offer the bank to seat {s.offer_seat} ({turn} turn)"


def build_table_snapshot(session: TableSession, attention: Attention | None = None) -> TableSnapshot:
    """The whole table: the open round as `build_snapshot` sees it, or the table between rounds.
    A card out unread, or a held misdeal with the refusal the round gave it, holds the table for a
    floor supervisor (RULES.md §6.1); a refusal just made is shown first."""
    table = _table_view(session)
    tracker = session.tracker
    held = session.misdeal is not None or bool(session.unread)
    if table.unread and attention is None:
        more = f" (and {len(table.unread) - 1} more after it)" if len(table.unread) > 1 else ""
        attention = Attention(
            AttentionKind.MISREAD,
            f"shoe card {table.unread[0]} left the shoe unread{more}: a floor supervisor names it",
            "6.1",
            held=True,
        )
    if tracker is not None:
        if session.misdeal is not None and attention is None:
            error = tracker.verify(CardDrawn(session.misdeal))
            message = error.message if error is not None else "the card is held for a supervisor"
            attention = Attention(
                AttentionKind.MISDEAL,
                f"{card_text(session.misdeal)} held: {message}; a floor supervisor "
                "discards it (Supervisor, Corrections), then the round goes on",
                error.rule if error is not None else "6.1",
                held=True,
            )
        snapshot = build_snapshot(tracker, attention)
        reader = reader_view(session)
        closes = snapshot.closes_betting and not (reader is not None and reader.problems)
        decisions = snapshot.decisions
        if decisions.seat is not None and session.reader.reads(Spot(decisions.seat, SpotKind.BASE)):
            # the chips added on the spot are the double: no keypad (RULES.md §8.23)
            decisions = replace(decisions, double_for_less=False, double_min=0, double_max=0)
        snapshot = replace(
            snapshot,
            table=table,
            reader=reader,
            house_dealer=session.s.dealer,
            takes_card=session.takes_card(),
            closes_betting=closes,
            decisions=decisions,
            last_round=last_round(session, tracker),
        )
        if not held:
            return snapshot
        # Nothing the dealer keys goes before the held card: dimmed until a supervisor resolves the hold.
        return replace(
            snapshot,
            prompt=table_prompt(session),
            held=True,
            decisions=Decisions(snapshot.decisions.seat, snapshot.decisions.hand),
            closes_betting=False,
        )
    if session.misdeal is not None and attention is None:
        attention = Attention(
            AttentionKind.MISDEAL,
            f"{card_text(session.misdeal)} came out of the shoe before the round: call a floor "
            "supervisor, who discards it on the supervisor's screen",
            "6.1",
            held=True,
        )
    profile = session.profile
    return TableSnapshot(
        profile_id=profile.id,
        profile_title=profile.title,
        phase=None,
        need=None,
        prompt=table_prompt(session),
        seats=tuple(
            SeatView(seat, 0, 0, 0, 0, (), False, False, seat == table.offer_seat, None)
            for seat in range(1, session.seats + 1)
        ),
        dealer=DealerHandView((), None, False, None, False),
        bank=None,
        action_seat=None,
        decisions=Decisions(),
        takes_card=False,
        next_card_is_hole_card=False,
        lucky_lucky_offered=profile.lucky_lucky,
        player_dealer_game=profile.player_dealer,
        settlement=(),
        fees=(0, 0),
        attention=attention,
        table=table,
        held=held,
        reader=reader_view(session),
        house_dealer=session.s.dealer,
    )


def reader_view(session: TableSession) -> ReaderView | None:
    """The reader's spots as the seats show them; None at a table whose reader reads nothing and found nothing."""
    reader, tracker = session.reader, session.tracker
    found = reader.round
    faulted, down = reader_faults.faulted_spots(session.s), session.s.reader_down
    if not reader.spots and not found.late and not found.differences and not found.mispays and not faulted and not down:
        return None
    betting = tracker is not None and tracker.phase is Phase.BETTING
    problems = (
        {problem.reading.spot: problem for problem in reader.problems(tracker)}
        if tracker is not None and betting
        else {}
    )
    spots = {**found.late, **reader.readings()}
    late = reader.late_chips(tracker) if tracker is not None else {}
    views = tuple(
        SpotView(
            reading,
            problems.get(spot),
            must_hold(tracker, spot) if tracker is not None and spot in found.late else None,
            found.differences.get(spot),
            late.get(spot, 0),
        )
        for spot, reading in sorted(spots.items(), key=lambda item: (item[0].seat or 0, item[0].kind.value))
    )
    return ReaderView(
        views,
        found.awaited,
        tuple(found.mispays),
        checks_payouts=bool(reader.spots) and session.profile.payout_check is PayoutCheck.HOLD,
        faulted=faulted,
        down=down,
    )


def last_round(session: TableSession, tracker: RoundTracker) -> tuple[LastRound, ...]:
    """While betting is open, each seat's wagers of the round closed last as they would go in again,
    checked as any wager; a seat whose spots the wager reader reads is left alone: its chips are its
    wagers, and chips left there ride on by themselves."""
    if tracker.phase is not Phase.BETTING:
        return ()
    views = []
    for key, last in sorted(session.s.last_wagers.items(), key=lambda item: int(item[0])):
        seat = int(key)
        if any(session.reader.reads(Spot(seat, spot)) for spot in WAGER_SPOTS.values()):
            continue
        fits: dict[WagerKind, Cents] = {}
        left_out = []
        for kind in WagerKind:  # the base first: the side bets need it
            amount = last.get(kind.value, 0)
            if not amount:
                continue
            error = tracker.seat_refusal(seat) or tracker.wager_refusal(
                PlaceWager(seat, kind, amount), fits.get(WagerKind.BASE, 0)
            )
            if error is None:
                fits[kind] = amount
            else:
                left_out.append(LeftOut(kind, amount, error.code.value, error.message))
        again = wager_changes(seat, tracker.wagers.get(seat, {}), {kind: fits.get(kind, 0) for kind in WagerKind})
        views.append(LastRound(seat, tuple(again), tuple(left_out)))
    return tuple(views)

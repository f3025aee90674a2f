"""The dealer's pace: the taps a round takes on the dealer's screen, and the rounds an hour they leave.

Every tap earns its place (ARCHITECTURE.md): an unassisted six-seat game deals about 60 rounds an
hour, and each tap on the screen is time the dealer does not deal. This drives the real dealer's
window, offscreen, as `dealer-assist run` sets it up: the emulated shoe and peek device on
pseudo-terminals, and in the third way the emulated wager reader too. The dealer's taps are clicks
on the real buttons (QTest, through the double-tap guard, whose clock is the dealer's: a tap takes
TAP_S); nothing reaches the table controller but through the screen, except what the devices send:
the cards come out of the emulated shoe, and with the reader the players' chips go on its spots
(`hw_sims/chip_players.py`).

A full table of every profile: six seats playing, plus the player-dealer where the game has one
(an eight-seat nobust-4.0 table has an empty seat, whose turn of the bank the dealer refuses).

The players, the same in every way (seeded by round and seat, so the three ways deal the same cards
to the same bets):
- a player repeats the wagers of the last round they played with probability REPEAT, else bets
  anew: a base wager uniform from $5 to $50 in $5 steps, Lucky Lucky (where offered) with
  probability LUCKY_LUCKY and Buster with probability BUSTER, each uniform from $5 to $25 in $5 steps;
- a player offered the bank takes it with probability TAKES_BANK, a bank of $500 (one chip); a
  player-dealer keeps it for its second round with the same probability, and says so while paid;
- insurance, where offered, with probability INSURES: half the base wager in whole dollars, when the
  profile's minimum allows it;
- decisions by the short strategy of `analyze game` (`short_strategy`); a hit is the next card.

The dealer, in three ways:
- keyed: each wager keyed on the pad (the seat, its kind where not the base, the fewest chips);
- keyed, same as last: the seats that bet anew keyed first, then "Table as last round" for the rest;
- reader: the players' chips on the emulated reader are the wagers; the dealer keys none.
Taps are counted by kind: seat, kind, chip, same as last, no more bets (and "Close insurance"),
decision (a surrender's confirmation included), paid (the settle-now step and the settlement),
bank choice (taking or refusing the bank, its chips); the rounds need no other (a refusal on the
banner stops the benchmark). There is no "Place": a chip goes on at once.

The dealer's time, per round: the deal itself, the same at an unassisted table, and TAP_S a tap on
the screen. The deal: CARD_S a card out of the shoe to its place, faced, with its share of the
shuffle (a six-deck shoe shuffled in about two minutes and some 230 cards dealt before its cut card:
0.5 s a card); READ_S a player's decision read, each hit and each decision; CHIP_S a chip paid (the
fewest chips) and COLLECT_S a losing wager collected. With these, an unassisted six-seat round comes
to a minute or a little more, near the 60 rounds an hour of a live game; with 2.5 s a card it would
take 75 s or more, slower than live tables deal. The players' betting, the peek and the talk are
left out: the same at any table, they only stretch every way alike.

Run: `python benchmarks/pace.py [--rounds N] [--profile P ...] [--way keyed|same|reader ...] [--seed S] [--short]`.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# benchmarks/ui.py is named like the `ui` package: import the package, not that file.
_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [os.path.dirname(_HERE)] + [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]

from PySide6.QtCore import QEventLoop, QMessageLogContext, QPoint, Qt, QTimer, QtMsgType, qInstallMessageHandler  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication, QWidget  # noqa: E402

from dealer_assist.analysis.game_sim import short_strategy  # noqa: E402
from dealer_assist.play.bench import BenchPlayer  # noqa: E402
from dealer_assist.rules.inputs import Action, Decide, Insure, NoMoreBets, PaymentsMade, PlaceWager, WagerKind  # noqa: E402
from dealer_assist.rules.money import Cents  # noqa: E402
from dealer_assist.rules.phases import Need  # noqa: E402
from dealer_assist.rules.profile import load_profile  # noqa: E402
from dealer_assist.table.session import TableConfig, TableInput, TableState  # noqa: E402
from dealer_assist.table.session_inputs import BankAccepted, SettlementConfirmed  # noqa: E402
from dealer_assist.table.snapshot import TableSnapshot  # noqa: E402
from dealer_assist.table.table_facts import TableFacts  # noqa: E402
from devices.table_owner.controller import TableController  # noqa: E402
from hw_sims.bench_devices import BenchDevices  # noqa: E402
from hw_sims.chip_players import ChipPlayers  # noqa: E402
from ui.common.bridge import TableBridge  # noqa: E402
from ui.common.confirm_overlay import open_confirmation  # noqa: E402
from ui.common.screen_font import load_screen_font  # noqa: E402
from ui.dealer.bench_panel import BenchPanel  # noqa: E402
from ui.dealer.dealer_window import DealerWindow  # noqa: E402
from ui.keypads.wager_pad import CHIPS, INSURANCE  # noqa: E402

PROFILES = ("nobust-4.0", "c21-8.0", "sd-buster-a")
PLAYING = 6  # seats playing; the player-dealer banks from a seventh
REPEAT, LUCKY_LUCKY, BUSTER, INSURES, TAKES_BANK = 0.7, 0.4, 0.3, 0.1, 0.75
BASES = tuple(range(500, 5_001, 500))  # $5 to $50 in $5 steps
SIDE_BETS = tuple(range(500, 2_501, 500))  # $5 to $25
BANK: Cents = 50_000
TAP_S = 1.0  # reach, look, tap: a button of the screen
CARD_S = 2.0  # a card out of the shoe to its place, faced, and its share of the shuffle
READ_S = 1.5  # a player's signal read: a hit, a stand, a double
CHIP_S = 1.0  # a chip paid
COLLECT_S = 0.5  # a losing wager swept in
PAY_CHIPS: tuple[Cents, ...] = (50_000, 10_000, 2_500, 500, 100, 50)  # the fewest chips of a payout, largest first
KEYED_CHIPS = tuple(sorted(CHIPS, reverse=True))  # the pad's chips, largest first
WAIT_S = 10.0


class Way(Enum):
    KEYED = "keyed"
    SAME = "keyed, same as last"
    READER = "reader"


KINDS = ("seat", "kind", "chip", "same as last", "no more bets", "decision", "paid", "bank choice")
WAGER_TAPS = KINDS[:4]
Bets = dict[int, dict[WagerKind, Cents]]


@dataclass
class Tally:
    """What the rounds took: the dealer's taps by kind, and the deal's own work."""

    rounds: int = 0
    taps: Counter[str] = field(default_factory=Counter)
    wagers: int = 0
    cards: int = 0
    reads: int = 0
    chips_paid: int = 0
    collected: int = 0

    def deal_s(self) -> float:
        return self.cards * CARD_S + self.reads * READ_S + self.chips_paid * CHIP_S + self.collected * COLLECT_S

    def taps_s(self) -> float:
        return sum(self.taps.values()) * TAP_S


def _fewest(amount: Cents, chips: tuple[Cents, ...]) -> list[Cents]:
    """`amount` in the fewest chips, largest first (a remainder below the smallest chip is one chip more)."""
    out = []
    for chip in chips:
        while amount >= chip:
            out.append(chip)
            amount -= chip
    return out + ([chips[-1]] if amount else [])


def _strategy(facts: TableFacts, seat: int, hand: int) -> Decide | None:
    """The player's decision on the hand to act; None is the hit."""
    assert facts.round is not None, "a decision is due only in a round"
    return short_strategy(facts.round, seat, hand)


class Players:
    """The players' bets and choices (the module's model), each drawn from the seed, the round and the seat."""

    def __init__(self, seed: int, profile_id: str, occupied: tuple[int, ...]) -> None:
        self.seed = seed
        self.profile = load_profile(profile_id)
        self.occupied = occupied
        self.last: Bets = {}  # the wagers each player bet the last round they played
        self.bets: dict[int, Bets] = {}  # by round

    def _rng(self, *key: object) -> random.Random:
        return random.Random(":".join(str(k) for k in (self.seed, *key)))

    def round_bets(self, round_id: int, pd_seat: int | None) -> Bets:
        if round_id not in self.bets:
            bets: Bets = {}
            for seat in self.occupied:
                if seat == pd_seat:
                    continue
                rng = self._rng("bet", round_id, seat)
                if seat in self.last and rng.random() < REPEAT:
                    bets[seat] = dict(self.last[seat])
                    continue
                bet = {WagerKind.BASE: rng.choice(BASES)}
                if self.profile.lucky_lucky and rng.random() < LUCKY_LUCKY:
                    bet[WagerKind.LUCKY_LUCKY] = rng.choice(SIDE_BETS)
                if rng.random() < BUSTER:
                    bet[WagerKind.BUSTER] = rng.choice(SIDE_BETS)
                bets[seat] = bet
            self.bets[round_id] = bets
        return self.bets[round_id]

    def wagers(self, facts: TableFacts) -> list[PlaceWager]:
        """The open round's wagers, for the players' chips on the reader."""
        assert facts.round is not None
        bets = self.round_bets(facts.round_id, facts.round.pd_seat)
        return [
            PlaceWager(seat, kind, amount) for seat, kinds in sorted(bets.items()) for kind, amount in kinds.items()
        ]

    def played(self, round_id: int) -> None:
        self.last = {**self.last, **self.bets.pop(round_id, {})}

    def takes_bank(self, seat: int, round_id: int, refusals: int) -> bool:
        return seat in self.occupied and self._rng("bank", round_id, refusals).random() < TAKES_BANK

    def insures(self, round_id: int, seat: int, base: Cents) -> Cents:
        amount = base // 2 // 100 * 100
        if amount < self.profile.insurance_min or self._rng("insure", round_id, seat).random() >= INSURES:
            return 0
        return amount


class Pace:
    """One way of one profile: the dealer's window on a fresh journal, played `rounds` rounds."""

    def __init__(self, app: QApplication, folder: Path, profile_id: str, way: Way, seed: int) -> None:
        self.app, self.way = app, way
        profile = load_profile(profile_id)
        seats = profile.seats
        occupied = PLAYING + (1 if profile.player_dealer else 0)
        self.players = Players(seed, profile_id, tuple(range(1, occupied + 1)))
        journal = folder / f"{profile_id}-{way.name.lower()}.db"
        self.controller = TableController.open(journal, TableConfig("PACE", profile_id))
        self.bridge = TableBridge(self.controller)
        self.wire = BenchDevices(
            self.controller.facts, BenchPlayer(seed, shoe_reports_cut=True), wagers=way is Way.READER
        )
        self.wire.start()
        self.controller.connect_devices(self.wire.shoe_url, self.wire.peek_url)
        self.chips: ChipPlayers | None = None
        if self.wire.reader is not None and self.wire.reader_url is not None:
            self.controller.connect_wagers(self.wire.reader_url)
            self.chips = ChipPlayers(
                self.controller, self.wire.reader, self.players.wagers, self._wait, dealer=self._dealer
            )
        self.bench = BenchPanel(None, self.controller.facts, self.controller.devices, wire=self.wire)
        self.window = DealerWindow(self.bridge, self.bench)
        self.view = self.window.view
        self.clock = 0.0  # the dealer's: the double-tap guard runs on it
        self.view.tap_guard.clock = lambda: self.clock
        self.tally = Tally()
        self.keeps_bank = False  # the player-dealer keeps the bank for its second round: told with "Done"
        assert seats >= occupied

    def play(self, rounds: int) -> Tally:
        self.window.resize(1280, 800)
        self.window.show()
        self.controller.start()
        try:
            while self.tally.rounds < rounds:
                self._step()
        finally:
            self.controller.stop()
            self.wire.stop()
            self.window.close()
            self.controller.close()
        return self.tally

    @property
    def snap(self) -> TableSnapshot:
        return self.controller.snapshot

    # --- the dealer's hands ---------------------------------------------------------------------

    def _tap(self, widget: QWidget, kind: str) -> None:
        assert widget.isVisible() and widget.isEnabled(), f"{widget.objectName()} is not tappable"
        self.clock += TAP_S
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(10, 10))
        self.tally.taps[kind] += 1
        if self.snap.attention is not None:
            raise AssertionError(f"the banner says: {self.snap.attention.message}")

    def _dealer(self, event: TableInput) -> None:
        """The dealer's part of a move the players make with chips, as a tap on the screen."""
        match event:
            case NoMoreBets():
                self._tap(self.view.wagers.no_more_bets, "no more bets")
            case BankAccepted(bank=bank):
                keypad = self.view.bank_offer.keypad
                assert keypad.amount == bank, f"the bank read is {keypad.amount}, not {bank}"
                self._tap(keypad.confirm, "bank choice")
            case Decide(action=action):
                self._tap(self.view.decisions.buttons[action], "decision")
            case PaymentsMade():
                self._tap(self.view.payments.confirm, "paid")
            case SettlementConfirmed():
                settlement = self.view.settlement
                settlement.read_through()  # a long settlement is read to its last row before Done
                self._tap(settlement.keep_bank if self.keeps_bank else settlement.confirm, "paid")
            case _:
                raise AssertionError(f"the dealer has no tap for {event}")

    def _key(self, seat: int, kinds: dict[str, Cents]) -> None:
        """The seat, each kind in turn (the base is chosen with the seat), its chips."""
        pad = self.view.wagers
        self._tap(self.view.seats[seat], "seat")
        for kind, amount in kinds.items():
            if pad.kind() != kind:
                self._tap(pad.kind_buttons[kind], "kind")
            for chip in _fewest(amount, KEYED_CHIPS):
                self._tap(pad.chip_buttons[chip], "chip")

    # --- the round ------------------------------------------------------------------------------

    def _step(self) -> None:
        if self.bench.busy() or self.controller.scanning is not None:
            self._events()
            return
        snap = self.snap
        assert snap.table is not None
        if snap.table.state is TableState.NEEDS_SHOE:
            self.bench.load.click()  # the shoe's own button, not the dealer's screen
            self._wait(lambda: not self.bench.busy(), "the new shoe")
            return
        if snap.table.state is TableState.OFFERING_BANK:
            self._bank(snap)
            return
        need = snap.need
        if need is Need.WAGERS:
            self._bets(snap)
        elif need is Need.CARD:
            self._card()
        elif need is Need.DECISION:
            self._decide(snap)
        elif need is Need.INSURANCE:
            self._insure(snap)
        elif need is Need.PEEK:
            self._wait(lambda: self.snap.need is not Need.PEEK, "the peek device's answer")
        elif need is Need.PAYMENTS:
            self._paid(PaymentsMade())
        elif need is Need.NOTHING:
            self._settled(snap)
        else:
            raise AssertionError(f"the round needs {need}, which no dealer of this benchmark gives")

    def _bank(self, snap: TableSnapshot) -> None:
        assert snap.table is not None and snap.table.offer_seat is not None
        seat, offer = snap.table.offer_seat, self.view.bank_offer
        if self.view.bank_kept is not None:  # the screen takes the second turn kept with "Done" as it comes
            self._events()
            return
        refusals = len(self.controller.facts().declined)
        if not self.players.takes_bank(seat, snap.table.round_id, refusals):
            self._tap(offer.refuse, "bank choice")
        elif self.chips is not None:
            self.chips.play(BankAccepted(seat, BANK))
        else:
            for chip in _fewest(BANK, tuple(sorted(offer.keypad.chips, reverse=True))):
                self._tap(offer.keypad.chips[chip], "bank choice")
            self._tap(offer.keypad.confirm, "bank choice")

    def _bets(self, snap: TableSnapshot) -> None:
        assert snap.table is not None
        bets = self.players.round_bets(snap.table.round_id, next((s.seat for s in snap.seats if s.player_dealer), None))
        self.tally.wagers += sum(len(kinds) for kinds in bets.values())
        if self.chips is not None:
            self.chips.play(NoMoreBets())
            return
        repeated: set[int] = set()
        if self.way is Way.SAME:
            repeated = {
                last.seat
                for last in snap.last_round
                if last.seat in bets
                and last.again
                and {(e.kind, e.amount) for e in last.again} == set(bets[last.seat].items())
            }
        for seat, kinds in sorted(bets.items()):
            if seat not in repeated:
                self._key(seat, {str(kind): amount for kind, amount in kinds.items()})
        if repeated:
            self._tap(self.view.wagers.table_as_last, "same as last")
        placed = {
            s.seat: {
                k: a
                for k, a in (
                    (WagerKind.BASE, s.base),
                    (WagerKind.LUCKY_LUCKY, s.lucky_lucky),
                    (WagerKind.BUSTER, s.buster),
                )
                if a
            }
            for s in self.snap.seats
            if s.base
        }
        assert placed == bets, f"keyed {placed}, bet {bets}"
        self._tap(self.view.wagers.no_more_bets, "no more bets")

    def _card(self) -> None:
        self._wait(lambda: not self.wire.shoe.locked, "the shoe's card-stop to come off")
        self.bench.deal.click()  # out of the emulated shoe: the deal, not a tap
        self.tally.cards += 1
        self._wait(lambda: not self.bench.busy(), "the card")

    def _decide(self, snap: TableSnapshot) -> None:
        seat, hand = snap.decisions.seat, snap.decisions.hand
        assert seat is not None and hand is not None
        decision = _strategy(self.controller.facts(), seat, hand)
        self.tally.reads += 1
        if decision is None:
            self._card()  # the hit
        elif self.chips is not None and self.chips.plays(decision):
            self.chips.play(decision)  # a double's or a split's chips on the base spot
        else:
            self._tap(self.view.decisions.buttons[decision.action], "decision")
            if decision.action is Action.SURRENDER:
                question = open_confirmation(self.view)
                assert question is not None
                self._tap(question.yes, "decision")

    def _insure(self, snap: TableSnapshot) -> None:
        assert snap.table is not None
        for view in snap.seats:
            amount = self.players.insures(snap.table.round_id, view.seat, view.base) if view.hands else 0
            if not amount:
                continue
            self.tally.wagers += 1
            if self.chips is not None:
                self.chips.play(Insure(view.seat, amount))
            else:
                self._key(view.seat, {INSURANCE: amount})
        self._tap(self.view.wagers.close_insurance, "no more bets")

    def _paid(self, event: PaymentsMade | SettlementConfirmed) -> None:
        if self.chips is not None:
            self.chips.play(event)  # each spot given what it must hold, then "Paid" at the reader's scan
        else:
            self._dealer(event)

    def _settled(self, snap: TableSnapshot) -> None:
        assert snap.table is not None
        for row in snap.settlement:
            if row.amount > 0:
                self.tally.chips_paid += len(_fewest(row.amount, PAY_CHIPS))
            elif row.amount < 0:
                self.tally.collected += 1
        round_id, second = snap.table.round_id, snap.table.second_turn
        self.keeps_bank = second is not None and self.players.takes_bank(second, round_id, 0)
        self._paid(SettlementConfirmed())
        self.players.played(round_id)
        self.tally.rounds += 1

    # --- waiting on the devices -----------------------------------------------------------------

    def _events(self) -> None:
        self.app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)

    def _wait(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not done():
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {WAIT_S:.0f} s for {what}")
            self._events()


def _qt_message(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Qt's messages, less the offscreen platform's note on each window shown."""
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds of each profile, each way (default 200)")
    parser.add_argument("--profile", action="append", choices=PROFILES, help="a profile (default: all three)")
    parser.add_argument(
        "--way", action="append", choices=[way.name.lower() for way in Way], help="a way (default: all three)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--short", action="store_true", help="a quick run: 3 rounds each")
    args = parser.parse_args(argv)
    rounds = 3 if args.short else args.rounds
    qInstallMessageHandler(_qt_message)
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    load_screen_font()
    ticker = QTimer()  # a wait wakes this often: a device's state (the shoe's card-stop) comes without an event
    ticker.start(2)
    started = time.perf_counter()
    print(
        f"{rounds} rounds a profile each way, seed {args.seed}, {PLAYING} seats playing; a tap {TAP_S:g} s; the deal: "
        f"a card {CARD_S:g} s, a decision read {READ_S:g} s, a chip paid {CHIP_S:g} s, a wager collected"
        f" {COLLECT_S:g} s"
    )
    print("rounds an hour are modelled, not measured: the taps and the deal's work are counted, each at the time above")
    shm = Path("/dev/shm")  # the journals' fsyncs are not what is measured
    with tempfile.TemporaryDirectory(prefix="dealer-assist-pace-", dir=shm if shm.is_dir() else None) as folder:
        for profile_id in args.profile or PROFILES:
            ways = [way for way in Way if args.way is None or way.name.lower() in args.way]
            tallies = {way: Pace(app, Path(folder), profile_id, way, args.seed).play(rounds) for way in ways}
            _report(profile_id, tallies)
    print(f"done in {time.perf_counter() - started:.1f} s")
    return 0


def _report(profile_id: str, tallies: dict[Way, Tally]) -> None:
    deal = next(iter(tallies.values()))  # the same rounds, cards and decisions every way
    n = deal.rounds
    print(
        f"\n{profile_id}: the deal alone {deal.deal_s() / n:.1f} s a round ({deal.cards / n:.1f} cards,"
        f" {deal.reads / n:.1f} "
        f"decisions read, {deal.chips_paid / n:.1f} chips paid, {deal.collected / n:.1f} wagers collected), "
        f"{3600 * n / deal.deal_s():.1f} rounds/h unassisted (modelled); {deal.wagers / n:.1f} wagers a round"
    )
    print(
        f"  {'way':<20} {'taps/round':>10} {'taps/wager':>10} {'dealer s/round':>15} {'modelled rounds/h':>17}  "
        "taps by kind, per round"
    )
    for way, tally in tallies.items():
        taps = sum(tally.taps.values())
        wager_taps = sum(tally.taps[kind] for kind in WAGER_TAPS)
        seconds, tapping = tally.deal_s() / n, tally.taps_s() / n
        kinds = ", ".join(f"{kind} {tally.taps[kind] / n:.2f}" for kind in KINDS if tally.taps[kind])
        print(
            f"  {way.value:<20} {taps / n:>10.2f} {wager_taps / tally.wagers:>10.2f} {seconds:>7.1f} + {tapping:>5.1f} "
            f"{3600 / (seconds + tapping):>17.1f}  {kinds}"
        )


if __name__ == "__main__":
    raise SystemExit(main())

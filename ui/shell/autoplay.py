"""Random legal rounds played through the real screens: the bench, the benchmarks and the docs.

Decisions are taps on the decision buttons, cards come from the bench's Deal button, the shoe
from its Load button, the bank from the offer panel; wagers and the rest go out through the same
signals the wager pad and the bench use. Nobody watches an unattended run, so when nothing reaches
the table's journal for `STALL_S` seconds it stops with an error that says what it waited for.
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.play.random_play import RandomTablePolicy
from dealer_assist.play.round_driver import table_input
from dealer_assist.play.shoe import FULL_DECK
from dealer_assist.rules.inputs import (
    CardDrawn,
    CloseInsurance,
    Decide,
    NoMoreBets,
    PaymentsMade,
    PeekAnswered,
    PlaceWager,
)
from dealer_assist.rules.phases import Need
from dealer_assist.table.session import TableState
from dealer_assist.table.session_inputs import ConfirmPeek
from hw_sims.linked_bench import tools_pin
from ui.common.confirm_overlay import open_confirmation
from ui.common.errors import ScreenCode, ScreenError
from ui.dealer.dealer_window import DealerWindow
from ui.keypads.bank_offer import BANK_CHIPS
from ui.supervisor.supervisor_window import open_supervisor

STALL_S = 30.0  # above the devices' longest own waits: a peek's 1.5 s, a link's 8 s back-off


class AutoplayStalled(ScreenError):
    """Nothing reached the table for too long: a device or the table stopped answering."""

    def __init__(self, message: str) -> None:
        super().__init__(ScreenCode.AUTOPLAY_STALLED, message)


class AutoPlayer:
    """Plays `rounds` rounds one input per step; screenshots of the first decision, of what is
    settled before the round ends and of the settlement panel of each round go to `shots`, and at the end one of the
    supervisor's recall of
    the last round (when the table's PIN is the bench's, which autoplay knows)."""

    def __init__(self, window: DealerWindow, rng: random.Random, rounds: int, shots: Path | None = None) -> None:
        assert window.bench is not None, "autoplay deals from the bench shoe"
        self.controller = window.bridge.controller
        self._pin, _ = tools_pin(self.controller)  # None on a table whose PIN a person set
        self.window = window
        self.bench = window.bench
        self.rng = rng
        self._policy = RandomTablePolicy(rng, lambda: FULL_DECK[0])  # the real card comes from the bench
        self.rounds = rounds
        self.shots = shots
        self.played = 0
        self._shot_mid = False
        self._journal_seq, self._moved_at = -1, time.monotonic()
        if shots is not None:
            shots.mkdir(parents=True, exist_ok=True)

    @property
    def done(self) -> bool:
        return self.played >= self.rounds

    def step(self) -> bool:
        """One input, as the dealer or a device would give it; False while it waits for a device."""
        self._check_stalled()
        if self.bench.busy() or self._awaits_peek_device() or self._awaits_card_stop():
            return False
        self._act()
        return True

    def _check_stalled(self) -> None:
        seq, now = self.controller.records_written, time.monotonic()
        if seq != self._journal_seq:
            self._journal_seq, self._moved_at = seq, now
        elif now - self._moved_at > STALL_S:
            snap = self.controller.snapshot
            table = snap.table
            assert table is not None, "a journaled table's snapshot always has its table"
            need = snap.need.value if snap.need is not None else "nothing"
            waits = "; a shoe or card pulled on the bench has not reached it" if self.bench.busy() else ""
            raise AutoplayStalled(
                f"nothing reached the table's journal for {STALL_S:.0f} s: round {table.round_id}, "
                f"table {table.state.value}, round needs {need}, shoe {table.shoe_id} at card "
                f"{table.shoe_cards}{waits}"
            )

    def _awaits_card_stop(self) -> bool:
        """On the wire the shoe releases a card only once the table's "card-stop off" reached it."""
        return self.bench.wire is not None and self.bench.wire.shoe.locked and self.controller.snapshot.takes_card

    def _awaits_peek_device(self) -> bool:
        """On the wire the peek device answers by itself."""
        return self.bench.wire is not None and self.controller.snapshot.need is Need.PEEK

    def _act(self) -> None:
        view = self.window.view
        snap = self.controller.snapshot
        table = snap.table
        assert table is not None, "a journaled table's snapshot always has its table"
        state = table.state
        if state is TableState.NEEDS_SHOE:
            self.bench.load.click()
            return
        if state is TableState.OFFERING_BANK:
            if self.rng.random() < 0.3:
                view.bank_offer.refuse.click()
                return
            view.bank_offer.keypad.chips[self.rng.choice(BANK_CHIPS)].click()
            view.bank_offer.keypad.confirm.click()
            return
        need = snap.need
        assert need is not None, f"autoplay cannot play a table in state {state}"
        if need is Need.NOTHING:
            self._shoot("settlement")
            self.played += 1
            self._shot_mid = False
            view.settlement.read_through()
            view.settlement.confirm.click()
            if self.done:
                self._shoot_recall()
            return
        if need is Need.DECISION and not self._shot_mid:
            self._shoot("midround")
            self._shot_mid = True
        event = table_input(self.controller.facts(), self._policy, "autoplay")
        if isinstance(event, PlaceWager):
            view.wagers.entered.emit(event)
        elif isinstance(event, ConfirmPeek):  # the peek device failed: a floor supervisor checks by hand
            if self._pin is None:
                raise AutoplayStalled(
                    "the peek needs a check by hand and the floor supervisor's PIN, which a person set "
                    "on this table: autoplay cannot give it"
                )
            self.controller.supervise(event, self._pin)
        elif isinstance(event, CardDrawn):
            self.bench.deal.click()
        elif isinstance(event, Decide) and event.amount is None:
            button = view.decisions.buttons[event.action]
            assert button.isEnabled(), f"{event} is legal but its button is disabled"
            button.click()
            question = open_confirmation(view)
            if question is not None:  # a surrender is asked once more
                question.yes.click()
        elif isinstance(event, PeekAnswered):
            self.bench.peek_buttons["answer"].click()
        elif isinstance(event, Decide) and event.amount is not None:  # a double for less, keyed on its keypad
            view.double_less.keypad.set_amount(event.amount)
            view.double_less.keypad.confirm.click()
        elif isinstance(event, NoMoreBets):
            view.wagers.no_more_bets.click()
        elif isinstance(event, CloseInsurance):
            view.wagers.close_insurance.click()
        elif isinstance(event, PaymentsMade):  # what is settled before the round goes on
            self._shoot("settle-now")
            view.payments.confirm.click()
        else:  # an insurance amount, as the wager pad would send it
            view.input_entered.emit(event)

    def _shoot(self, what: str) -> None:
        if self.shots is not None:
            self._grab(self.window, f"round-{self.played + 1:02d}-{what}.png")

    def _shoot_recall(self) -> None:
        """The supervisor's recall of the last round, opened through the PIN pad, a few steps in."""
        if self.shots is None or self._pin is None:
            return
        supervisor = open_supervisor(self.window, self.controller)
        for key in self._pin:
            supervisor.pad.keys[key].click()
        supervisor.pad.enter.click()
        recall = supervisor.recall
        for _ in range(6):
            if recall.next.isEnabled():
                recall.next.click()
        self._grab(supervisor, "supervisor-recall.png")
        supervisor.close()

    def _grab(self, widget: QWidget, name: str) -> None:
        assert self.shots is not None, "screenshots are taken only into a folder"
        for _ in range(3):  # the layouts settle as they would before the next frame
            QApplication.processEvents()
        widget.grab().save(str(self.shots / name))

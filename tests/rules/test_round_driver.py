"""The round driver asks its policy for each need, in table order, and applies what it answers."""

from __future__ import annotations

from dealer_assist.play.round_driver import RoundPolicy, at_the_table, next_input, play
from dealer_assist.rules.cards import Card, parse_card
from dealer_assist.rules.inputs import (
    Action,
    CardDrawn,
    CheckedByHand,
    CloseInsurance,
    Decide,
    Input,
    Insure,
    PeekAnswered,
    PeekResult,
    PlaceWager,
    WagerKind,
)
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.profile import load_profile
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.session_inputs import ConfirmPeek


class Scripted(RoundPolicy):
    """One base wager on seat 1, the given cards, hits below 17, and a record of what was asked."""

    def __init__(self, cards: str, insure: Insure | None = None, peek: PeekResult | None = None) -> None:
        self.cards = [parse_card(code) for code in cards.split()]
        self.wagers = [PlaceWager(1, WagerKind.BASE, 500)]
        self.insurance = [insure] if insure else []
        self.peek_answer = peek
        self.asked: list[str] = []

    def wager(self, tracker: RoundTracker) -> PlaceWager | None:
        return self.wagers.pop(0) if self.wagers else None

    def card(self, tracker: RoundTracker) -> Card:
        return self.cards.pop(0)

    def decide(self, tracker: RoundTracker, seat: int, hand: int) -> Decide | None:
        self.asked.append(f"decide {seat}/{hand}")
        return None if tracker.hands[seat][hand].total.value < 17 else Decide(seat, hand, Action.STAND)

    def insure(self, tracker: RoundTracker) -> Insure | None:
        return self.insurance.pop(0) if self.insurance else None

    def peek(self, tracker: RoundTracker) -> PeekResult:
        return self.peek_answer if self.peek_answer is not None else super().peek(tracker)

    def confirms_stand(self, seat: int, hand: int) -> bool:
        self.asked.append(f"confirm {seat}/{hand}")
        return True


def _played(policy: Scripted) -> tuple[RoundTracker, list[Input]]:
    seen: list[Input] = []
    tracker = play(RoundTracker(load_profile("sd-buster-a")), policy, lambda t, event: seen.append(event))
    return tracker, seen


def test_a_wrong_peek_holds_the_round_and_the_check_by_hand_settles_it():
    policy = Scripted("9H AS 7D KC", insure=Insure(1, 250), peek=PeekResult.NONE)
    tracker, seen = _played(policy)
    assert seen[0] == PlaceWager(1, WagerKind.BASE, 500)
    assert seen[1:5] == [CardDrawn(parse_card(c)) for c in ("9H", "AS", "7D", "KC")]
    assert seen[5:] == [
        Insure(1, 250),
        CloseInsurance(),
        PeekAnswered(PeekResult.NONE),
        CheckedByHand(True),
        Decide(1, 0, Action.STAND),
    ]  # the dealer's Natural ended the hand; the dealer confirms
    assert tracker.phase is Phase.SETTLED and tracker.insurance == {1: 250}
    assert policy.asked == ["confirm 1/0"]


def test_an_honest_peek_by_default_and_a_hit_is_the_next_card():
    policy = Scripted("9H TS 5D 6C 7C TD")
    tracker, seen = _played(policy)
    assert PeekAnswered(PeekResult.NONE) in seen and not any(type(e) is CheckedByHand for e in seen)
    hit = seen.index(CardDrawn(parse_card("7C")))
    assert seen[hit + 1] == Decide(1, 0, Action.STAND), "the forced end at 21 is confirmed at once"
    assert policy.asked == ["decide 1/0", "confirm 1/0"]
    assert tracker.phase is Phase.SETTLED and tracker.dealer[-1] == parse_card("TD")
    assert next_input(tracker, policy) is None


def test_at_a_table_the_check_by_hand_is_the_supervisors_confirmation_of_the_policys_answer():
    policy = Scripted("9H AS 7D KC", insure=Insure(1, 250), peek=PeekResult.NOREAD)
    tracker = RoundTracker(load_profile("sd-buster-a"))
    event = next_input(tracker, policy)
    while type(event) is not CheckedByHand:
        assert event is not None
        assert at_the_table(event, "Floor 2") is event, "every other input goes to the table as it is"
        tracker.apply(event)
        event = next_input(tracker, policy)
    assert at_the_table(event, "Floor 2") == ConfirmPeek(True, "Floor 2", "checked by hand")

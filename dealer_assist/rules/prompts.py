"""The one line the dealer reads: what the round waits for next, in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from dealer_assist.rules.cards import Card, card_text
from dealer_assist.rules.hand_options import must_stand, why_not_split, why_not_stand, why_not_surrender
from dealer_assist.rules.outcomes import Status, standing
from dealer_assist.rules.phases import DEALER, Awaiting, Need, Phase
from dealer_assist.rules.player_hand import PlayerHand
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.totals import hand_total

__all__ = ["misdeal_prompt", "unread_prompt"]


class PromptedRound(Protocol):
    """What the prompt line reads of a round (the round tracker is one)."""

    profile: Profile
    phase: Phase
    pd_seat: int | None
    hands: dict[int, list[PlayerHand]]
    dealer: list[Card]
    dealer_closes_betting: bool

    def awaiting(self) -> Awaiting: ...

    def next_card_goes_to(self) -> int: ...


_PHASE_PROMPTS = {
    Phase.BETTING: "Place wagers, then deal",
    Phase.INSURANCE: "Ace up: take insurance, then peek",
    Phase.PEEK: "Peek for a Natural",
    Phase.HELD: "Call a floor supervisor to check the hole card",  # by hand: the banner says why
}


def describe(cards: Sequence[Card]) -> str:
    total = hand_total(cards)
    return f"{'soft' if total.soft else 'hard'} {total.value}"


def misdeal_prompt(card: Card, before_round: bool) -> str:
    """A card held as a misdeal (RULES.md §6.1): the dealer sets it aside, a floor supervisor discards it."""
    return f"Hold {card_text(card)} aside and call a floor supervisor" + (
        ": it came out before the round" if before_round else ""
    )


def unread_prompt(shoe_card: int) -> str:
    """A card out of the shoe unread (RULES.md §6.1): a floor supervisor looks at it and names it."""
    return f"Hold shoe card {shoe_card} aside and call a floor supervisor"


def _came_to(tracker: PromptedRound) -> str:
    """What the dealer's final hand came to, read from the hand itself: a Natural, over, or standing."""
    final = standing(tracker.dealer, tracker.profile)
    if final.status is Status.NATURAL:
        return "has a Natural"
    if final.status is Status.OVER:
        return f"is over at {final.total}"
    return f"stands on {final.total}"


def prompt(tracker: PromptedRound) -> str:
    wait = tracker.awaiting()
    dealer = "the player-dealer" if tracker.pd_seat else "the dealer"
    if wait.need is Need.PAYMENTS:
        return "Settle now, then tap Paid; shoe locked"
    if wait.seat is not None and wait.hand is not None:
        seat_hands = tracker.hands[wait.seat]
        hand = seat_hands[wait.hand]
        label = f"Seat {wait.seat}" + (f" hand {wait.hand + 1}" if len(seat_hands) > 1 else "")
        if wait.need is Need.CARD:
            return f"{label} takes a card"
        profile = tracker.profile
        if why_not_stand(profile, hand) is not None:
            return f"{label} must hit ({hand.total.value})"
        if must_stand(profile, hand) is not None:
            others = [
                name
                for name, why in (
                    ("split", why_not_split(profile, hand, len(seat_hands))),
                    ("surrender", why_not_surrender(profile, hand, len(seat_hands))),
                )
                if why is None
            ]
            return f"{label} must stand on {describe(hand.cards)} (or {' / '.join(others)})"
        return f"{label} to act on {describe(hand.cards)}"
    if tracker.phase is Phase.DEALING:
        target = tracker.next_card_goes_to()
        return f"Deal to {dealer if target == DEALER else f'seat {target}'}"
    if tracker.phase is Phase.DEALER:
        return f"{dealer.capitalize()} hits {describe(tracker.dealer)}"
    if tracker.phase is Phase.SETTLED:
        return f"{dealer.capitalize()} {_came_to(tracker)} — settle in order"  # one line on a 1280-pixel screen
    if tracker.phase is Phase.BETTING and tracker.dealer_closes_betting:
        return "Place wagers, then tap No more bets; shoe locked"
    return _PHASE_PROMPTS[tracker.phase]

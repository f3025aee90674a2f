"""Whether the dealer draws another card (RULES.md §2.8-§2.9, §3.5, §4.1-§4.3).

The drawing rule on a total is `totals.dealer_draws_on`; here it meets the round: a Natural never
draws, and the dealer draws only while some wager still depends on the dealer's final hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.outcomes import Status, can_still_push, standing
from dealer_assist.rules.player_hand import PlayerHand
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.totals import dealer_draws_on, hand_total, is_natural_pair


def dealer_draws(
    profile: Profile,
    dealer: list[Card],
    natural: bool | None,
    wagers: Mapping[int, Mapping[WagerKind, Cents]],
    hands: Iterable[list[PlayerHand]],
) -> bool:
    if natural or is_natural_pair(dealer):
        return False
    if not dealer_draws_on(hand_total(dealer), profile.dealer_hits_soft_17):
        return False
    return any(w.get(WagerKind.BUSTER) for w in wagers.values()) or _unresolved(profile, hands)


def _unresolved(profile: Profile, hands: Iterable[list[PlayerHand]]) -> bool:
    """Some base wager still depends on the dealer's final hand (RULES.md §8.16)."""
    for seat_hands in hands:
        for hand in seat_hands:
            if hand.surrendered or hand.natural:
                continue
            player = standing(hand.cards, profile, from_split=hand.from_split)
            if player.status is Status.UNDER or can_still_push(player, profile):
                return True
    return False


def dealer_stands_reason(profile: Profile, dealer: list[Card]) -> str:
    """Why the dealer takes no more cards, for the refusal of one more."""
    total = hand_total(dealer)
    if is_natural_pair(dealer):
        return "the dealer has a Natural and does not draw"
    if not dealer_draws_on(total, profile.dealer_hits_soft_17):
        return f"the dealer stands on {'soft' if total.soft else 'hard'} {total.value}"
    return "no wager depends on the dealer's hand: the dealer does not draw"

"""Rounds dealt through the real tracker up to a player decision, for the strategy tests."""
from __future__ import annotations

from dealer_assist.analysis.game_sim import BANK_COVERS
from dealer_assist.cards import parse_card
from dealer_assist.inputs import CardDrawn, CloseInsurance, PeekAnswered, PlaceWager, WagerKind
from dealer_assist.profile import Profile
from dealer_assist.tracker import Need, Phase, PlayerDealer, RoundTracker


def to_decision(profile: Profile, player: list[str], dealer: list[str]) -> RoundTracker | None:
    """Seat 1 and the dealer dealt in table order, the peek answered honestly; None when the round
    ends before seat 1 decides (a Natural on either side)."""
    amount = profile.table_min
    bank = PlayerDealer(profile.seats, BANK_COVERS * amount) if profile.player_dealer else None
    tracker = RoundTracker(profile, None, bank)
    tracker.apply(PlaceWager(1, WagerKind.BASE, amount))
    for card in (player[0], dealer[0], player[1], dealer[1]):
        tracker.apply(CardDrawn(parse_card(card)))
    while tracker.phase in (Phase.INSURANCE, Phase.PEEK):
        tracker.apply(CloseInsurance() if tracker.phase is Phase.INSURANCE else PeekAnswered(tracker.expected_peek_answer()))
    return tracker if tracker.phase is Phase.PLAYING and tracker.awaiting().need is Need.DECISION else None


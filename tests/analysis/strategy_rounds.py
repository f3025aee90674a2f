"""Rounds dealt through the real tracker, up to a player decision or through every way they can go
on, for the strategy tests."""

from __future__ import annotations

from dealer_assist.analysis.game_sim import BANK_COVERS, Chooser, Table, play_round
from dealer_assist.rules.cards import RANKS, Card, parse_card
from dealer_assist.rules.inputs import CardDrawn, CloseInsurance, PeekAnswered, PlaceWager, WagerKind
from dealer_assist.rules.phases import Need, Phase
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.settlement import Wager
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker


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
        tracker.apply(
            CloseInsurance() if tracker.phase is Phase.INSURANCE else PeekAnswered(tracker.expected_peek_answer())
        )
    return tracker if tracker.phase is Phase.PLAYING and tracker.awaiting().need is Need.DECISION else None


class _NeedsCard(Exception):
    """The round asked for a card past the cards given: the enumeration branches there."""


def exact_result(profile: Profile, deal: list[str], choose: Chooser) -> float:
    """Seat 1's exact expected base result, in units of its wager, over every way the round can go
    on from `deal` (seat 1 and the dealer in table order) with an infinite deck: each card is one
    of the 13 ranks with chance 1/13. Every branch is a whole round through the tracker."""
    wager = PlaceWager(1, WagerKind.BASE, profile.table_min)
    bank = PlayerDealer(profile.seats, BANK_COVERS * wager.amount) if profile.player_dealer else None
    table = Table(profile, bank, (wager,))

    def value(cards: list[Card]) -> float:
        given = iter(cards)

        def draw() -> Card:
            card = next(given, None)
            if card is None:
                raise _NeedsCard
            return card

        try:
            tracker = play_round(table, draw, choose)
        except _NeedsCard:
            return sum(value([*cards, Card(rank, "C")]) for rank in RANKS) / len(RANKS)
        return sum(row.amount for row in tracker.rows if row.wager is Wager.BASE) / wager.amount

    return value([parse_card(card) for card in deal])

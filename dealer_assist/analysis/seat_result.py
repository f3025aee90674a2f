"""What the banking seat can expect per round, as a card room prices it: `players` players each
betting `wager` on the base game and playing the optimal strategy, the bank covering every wager.

The collection fees (RULES.md §5.5, §7) are the round tracker's own: a round with these wagers is
opened and its betting closed, and the fees it records are read back. The break-even fee is the
fee from the banking seat at which its expected result per round is zero; below zero it means the
seat loses before any fee, and would have to be paid that much to break even.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.analysis.game_sim import BANK_COVERS
from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import CardDrawn, PlaceWager, WagerKind
from dealer_assist.rules.money import Cents
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker

__all__ = ["SeatResult", "seat_result"]


@dataclass(frozen=True, slots=True)
class SeatResult:
    players: int
    wager: Cents
    player_ev: float  # per unit of initial wager, from the player's side
    player_fee: Cents  # each player circle, a round
    banker_fee: Cents  # from the player-dealer, a round (0 when the house banks)

    @property
    def banker_before_fees(self) -> float:
        """Cents a round, the banking seat's side."""
        return -self.player_ev * self.players * self.wager

    @property
    def banker_after_fees(self) -> float:
        return self.banker_before_fees - self.banker_fee

    @property
    def break_even_fee(self) -> float:
        return self.banker_before_fees

    @property
    def player_after_fees(self) -> float:
        """Cents a round, one player's side."""
        return self.player_ev * self.wager - self.player_fee


def seat_result(profile: Profile, player_ev: float, players: int, wager: Cents) -> SeatResult:
    player_fee, banker_fee = _fees(profile, players, wager)
    return SeatResult(players, wager, player_ev, player_fee // players if players else 0, banker_fee)


def _fees(profile: Profile, players: int, wager: Cents) -> tuple[Cents, Cents]:
    bank = PlayerDealer(profile.seats, BANK_COVERS * players * wager) if profile.player_dealer else None
    tracker = RoundTracker(profile, None, bank)
    for seat in range(1, players + 1):
        tracker.apply(PlaceWager(seat, WagerKind.BASE, wager))
    tracker.apply(CardDrawn(Card("2", "S")))  # the first card closes betting, which takes the fees
    return tracker.fees

"""The player strategy the game simulation plays: a short basic strategy a person could follow.

- Split a pair of Aces or of 8s.
- Double a hard 10 or 11 against a dealer 2 to 9.
- Hard 11 or less: hit. Hard 12 to 16: stand against a dealer 2 to 6, hit against 7 to Ace.
  Hard 17 or more: stand.
- Soft 17 or less: hit. Soft 18 or more: stand.
- Never surrender, never insure.

It looks at the player's cards and the dealer's up card only. Where a profile refuses the move
(a double after split Aces, a stand on 11 in a No Bust game), the next move down is taken:
split -> the same hand played without splitting, double -> hit, stand <-> hit.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.analysis.options import Move
from dealer_assist.rules.cards import Card
from dealer_assist.rules.totals import hand_total

__all__ = ["STRATEGY"]

STRATEGY = (
    "split A-A and 8-8; double hard 10-11 against 2-9; hard 12-16: stand against 2-6, hit "
    "against 7-A; stand on hard 17+ and soft 18+, hit below; never surrender or insure"
)


def preferred_moves(cards: Sequence[Card], up: Card) -> tuple[Move, ...]:
    """The strategy's move first, then what it falls back to when the table refuses it."""
    total = hand_total(cards)
    dealer = up.value
    if len(cards) == 2 and cards[0].rank == cards[1].rank and cards[0].rank in ("A", "8"):
        return (Move.SPLIT, *_play(total.value, total.soft, dealer, two_cards=True))
    return _play(total.value, total.soft, dealer, two_cards=len(cards) == 2)


def _play(total: int, soft: bool, dealer: int, two_cards: bool) -> tuple[Move, ...]:
    weak_dealer = 2 <= dealer <= 6
    if not soft and total in (10, 11) and 2 <= dealer <= 9 and two_cards:
        return Move.DOUBLE, Move.HIT, Move.STAND
    if soft:
        stand = total >= 18
    else:
        stand = total >= 17 or (total >= 12 and weak_dealer)
    return (Move.STAND, Move.HIT) if stand else (Move.HIT, Move.STAND)

"""The Buster bet (RULES.md §2.19, §3.11, §4.4): paid by the number of cards in the dealer's busted
hand, 3 to 7 and 8 or more; and Deadwood's free bonus (RULES.md §4.5) on top of it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dealer_assist.analysis.dealer_draws import dealer_finals
from dealer_assist.analysis.odds import BetOdds, PayLine
from dealer_assist.analysis.shoe import Shoe
from dealer_assist.rules.money import Cents
from dealer_assist.rules.profile import FreeBonus
from dealer_assist.rules.settlement import FREE_BONUS

__all__ = ["BUST_KEYS", "FreeBonusShare", "buster_odds", "free_bonus_share"]

FEWEST_BUST_CARDS = 3
MOST_PAID_CARDS = 8
BUST_KEYS: tuple[str, ...] = ("3", "4", "5", "6", "7", "8+")


def buster_odds(decks: int, hits_soft_17: bool, pays: tuple[int, ...]) -> BetOdds:
    """Exact odds of the Buster bet with `pays` (to-1 odds for 3, 4, 5, 6, 7, 8+ cards)."""
    finals = dealer_finals(Shoe.full(decks), hits_soft_17)
    by_key = dict.fromkeys(BUST_KEYS, Fraction(0))
    for cards, probability in finals.bust_by_cards.items():
        by_key[BUST_KEYS[min(cards, MOST_PAID_CARDS) - FEWEST_BUST_CARDS]] += probability
    return BetOdds(
        lines=tuple(PayLine(key, pay, by_key[key]) for key, pay in zip(BUST_KEYS, pays, strict=False)),
        loses=finals.stands,
    )


@dataclass(frozen=True, slots=True)
class FreeBonusShare:
    """What the free bonus adds to one Buster wager: its average value and that as a share of it."""

    bonus: FreeBonus
    wager: Cents
    expected: Fraction  # cents a wager
    share: Fraction  # of the wager

    def house_edge_with_bonus(self, odds: BetOdds) -> Fraction:
        return odds.house_edge - self.share


def free_bonus_share(odds: BetOdds, bonus: FreeBonus, wager: Cents) -> FreeBonusShare:
    """The free bonus is a fixed amount, so its share of the bet shrinks as the wager grows."""
    seven, eight_or_more = FREE_BONUS[bonus]
    expected = seven * odds.probability("7") + eight_or_more * odds.probability("8+")
    return FreeBonusShare(bonus, wager, expected, expected / wager)

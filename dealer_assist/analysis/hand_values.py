"""What a player hand is worth against one dealer column, each option played optimally afterwards.

A hand is known by the sum of its values (Aces as 1), whether it holds an Ace, and how many cards it
has: only "exactly three" changes an outcome (the three-card push totals, RULES.md §2.7, §3.4,
§8.6), so four or more cards are one state. Outcomes come from the rules core's `base_outcome`;
the options allowed at each state come from `options.HandRules`. EVs are per unit of the hand's
initial wager, from the player's side: a doubled hand counts twice, a surrender -1/2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.analysis.card_odds import ACE, VALUES, CardOdds
from dealer_assist.analysis.dealer_totals import FINALS, Finals
from dealer_assist.analysis.options import HandRules, Move
from dealer_assist.rules.totals import total_of

MANY_CARDS = 4  # four or more cards: no count-dependent outcome remains
SURRENDER_EV = -0.5


@dataclass
class HandValues:
    """Values of hands against one dealer column: the dealer's final totals and the next card's odds."""

    rules: HandRules
    odds: CardOdds
    finals: Finals
    _stand: dict[tuple[int, int], float] = field(default_factory=dict)
    _play: dict[tuple[int, bool, int], float] = field(default_factory=dict)
    _two_card: dict[tuple[int, bool, bool, bool], dict[Move, float]] = field(default_factory=dict)

    def stand(self, hard: int, ace: bool, cards: int) -> float:
        total = total_of(hard, ace).value
        key = (total, min(cards, MANY_CARDS))
        value = self._stand.get(key)
        if value is None:
            value = sum(
                p * self.rules.payoff(total, key[1], final) for final, p in zip(FINALS, self.finals, strict=False) if p
            )
            self._stand[key] = value
        return value

    def draw(self, hard: int, ace: bool, cards: int) -> float:
        """Take one card and play on optimally."""
        return sum(
            p * self.play(hard + v, ace or v == ACE, cards + 1) for v, p in zip(VALUES, self.odds.value, strict=False)
        )

    def double(self, hard: int, ace: bool) -> float:
        return 2 * sum(
            p * self.stand(hard + v, ace or v == ACE, 3) for v, p in zip(VALUES, self.odds.value, strict=False)
        )

    def play(self, hard: int, ace: bool, cards: int) -> float:
        """The best of stand and hit for a hand of three or more cards."""
        key = (hard, ace, min(cards, MANY_CARDS))
        value = self._play.get(key)
        if value is None:
            value = max(self.later_moves(hard, ace, cards).values())
            self._play[key] = value
        return value

    def later_moves(self, hard: int, ace: bool, cards: int) -> dict[Move, float]:
        """Each allowed move's EV for a hand of three or more cards."""
        moves = self.rules.later_moves(hard, ace)
        return {
            move: self.stand(hard, ace, cards) if move is Move.STAND else self.draw(hard, ace, cards) for move in moves
        }

    def two_card_moves(self, hard: int, ace: bool, *, after_split: bool, split_aces: bool = False) -> dict[Move, float]:
        """Each allowed move's EV for a two-card hand that is no Natural, splitting aside."""
        key = (hard, ace, after_split, split_aces)
        known = self._two_card.get(key)
        if known is not None:
            return known
        values: dict[Move, float] = {}
        for move in self.rules.two_card_moves(hard, ace, after_split=after_split, split_aces=split_aces):
            if move is Move.STAND:
                values[move] = self.stand(hard, ace, 2)
            elif move is Move.HIT:
                values[move] = self.draw(hard, ace, 2)
            elif move is Move.DOUBLE:
                values[move] = self.double(hard, ace)
            elif move is Move.SURRENDER:
                values[move] = SURRENDER_EV
        self._two_card[key] = values
        return values

    def best_two_card(self, hard: int, ace: bool, *, after_split: bool, split_aces: bool = False) -> float:
        return max(self.two_card_moves(hard, ace, after_split=after_split, split_aces=split_aces).values())

"""The value of splitting a pair, re-splits to the profile's hand limit included (RULES.md §2.12,
§3.8, §8.6, §8.15).

Drawing with replacement, the split hands' cards are independent, so the split's EV is the sum of
its hands' EVs; what couples them is only how many hands the seat holds, which decides whether a
new pair may be split again. `ResplitValue(k, m)` is the EV of `m` split hands still waiting for
their second card when the seat has `k` hands: the next one draws; a card that pairs it may be
split again (k + 1 hands, m + 1 waiting) when k is under the limit, or the pair is played as it
stands. Every hand is played optimally; split Aces take one card each and are never re-split.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.analysis.card_odds import ACE, VALUES
from dealer_assist.analysis.hand_values import HandValues

FIRST_SPLIT_HANDS = 2


@dataclass
class SplitValue:
    """Splitting a pair of point value `value` against one dealer column."""

    hands: HandValues
    value: int
    _waiting: dict[tuple[int, int], float] = field(default_factory=dict)
    resplit: dict[tuple[int, int], bool] = field(default_factory=dict)
    _parts: tuple[float, float] | None = None  # the waiting hand's EV over non-pairing cards; the pair played

    def ev(self) -> float:
        """The EV of the split, per unit of the initial wager."""
        return self.waiting(FIRST_SPLIT_HANDS, FIRST_SPLIT_HANDS)

    def waiting(self, hands: int, waiting: int) -> float:
        if waiting == 0:
            return 0.0
        key = (hands, waiting)
        known = self._waiting.get(key)
        if known is not None:
            return known
        rest = self.waiting(hands, waiting - 1)
        if self._parts is None:
            self._parts = (self._other_cards(), self._hand_of(self.value))
        other_cards, pair_played = self._parts
        pairing = self.hands.odds.pairing[self.value - 1]
        value = other_cards + (1 - pairing) * rest
        played = pair_played + rest
        if self.hands.rules.can_split(self.value, hands):
            again = self.waiting(hands + 1, waiting + 1)
            self.resplit[key] = again > played
            value += pairing * max(again, played)
        else:
            value += pairing * played
        self._waiting[key] = value
        return value

    def _other_cards(self) -> float:
        """A waiting hand's EV summed over the second cards that do not pair it (not normalized)."""
        odds = self.hands.odds
        total = 0.0
        for v, p in zip(VALUES, odds.value, strict=False):
            if v == self.value:
                p -= odds.pairing[v - 1]
            if p > 0:
                total += p * self._hand_of(v)
        return total

    def _hand_of(self, second: int) -> float:
        return self.hands.best_two_card(
            self.value + second, ACE in (self.value, second), after_split=True, split_aces=self.value == ACE
        )

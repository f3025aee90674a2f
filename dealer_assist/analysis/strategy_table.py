"""The strategy table: for every dealer column, each situation's allowed moves and their EVs.

A column is what the player sees of the dealer: the up card, or in `nobust-4.0` the player-dealer's
two face-up cards. Situations are named as a printed card names them: `hard 12`, `soft 18`,
`pair 8`, `natural`; later decisions of a hand as `hard 14, 3 cards` or `soft 17, 4+ cards`;
re-splits by the seat's hands and the split hands still waiting for their second card. Every EV is
conditioned on the dealer having no Natural (a known dealer Natural ends play, RULES.md §8.2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dealer_assist.analysis.card_odds import ACE, TEN
from dealer_assist.analysis.hand_values import MANY_CARDS, HandValues
from dealer_assist.analysis.options import Move
from dealer_assist.analysis.splits import SplitValue
from dealer_assist.rules.totals import TARGET, total_of

__all__ = ["best"]

NATURAL = "natural"
LOWEST_TWO_CARD = 4
VALUE_LABEL = {ACE: "A", TEN: "T"} | {v: str(v) for v in range(2, TEN)}

Moves = Mapping[Move, float]


def total_label(hard: int, ace: bool) -> str:
    total = total_of(hard, ace)
    return f"{'soft' if total.soft else 'hard'} {total.value}"


def situation(first: int, second: int, pair: bool) -> str:
    """The starting situation of two first cards of an unsplit hand; `pair` if the profile lets
    them be split."""
    if {first, second} == {ACE, TEN}:
        return NATURAL
    if pair:
        return f"pair {VALUE_LABEL[first]}"
    return total_label(first + second, ACE in (first, second))


def later_label(hard: int, ace: bool, cards: int) -> str:
    return f"{total_label(hard, ace)}, {'3 cards' if cards == 3 else f'{MANY_CARDS}+ cards'}"


def best(moves: Moves) -> Move:
    """The move of the largest EV; ties go to the first listed (stand before hit)."""
    return max(moves, key=lambda move: moves[move])


@dataclass
class Column:
    """One dealer column's decisions. `start` is filled by the caller, per situation."""

    label: str
    start: dict[str, dict[Move, float]] = field(default_factory=dict)
    after_split: dict[str, dict[Move, float]] = field(default_factory=dict)
    later: dict[str, dict[Move, float]] = field(default_factory=dict)
    resplit: dict[str, dict[tuple[int, int], bool]] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        def cells(table: dict[str, dict[Move, float]]) -> dict[str, object]:
            return {
                key: {"best": best(moves).value, "ev": {m.value: ev for m, ev in moves.items()}}
                for key, moves in table.items()
            }

        return {
            "start": cells(self.start),
            "after_split": cells(self.after_split),
            "later": cells(self.later),
            "resplit": {
                pair: [{"hands": k, "waiting": m, "resplit": again} for (k, m), again in sorted(choices.items())]
                for pair, choices in self.resplit.items()
            },
        }


def start_moves(values: HandValues, first: int, second: int, pair: bool) -> dict[Move, float]:
    """Every allowed move of a starting situation that is no Natural, split included for a pair."""
    hard, ace = first + second, ACE in (first, second)
    moves = dict(values.two_card_moves(hard, ace, after_split=False))
    if pair and values.rules.can_split(first, 1):
        moves[Move.SPLIT] = SplitValue(values, first).ev()
    return moves


def play_on_tables(column: Column, values: HandValues) -> None:
    """The decisions after the first: split hands' two cards, re-splits, hands of 3 or more cards;
    forced moves included, so every state a hand can be asked about has its cell."""
    for hard in range(ACE + 2, TARGET):  # A-A-A is the smallest hand that decides
        for ace in (False, True):
            if (ace and hard + 10 >= TARGET) or (not ace and hard < LOWEST_TWO_CARD):
                continue
            column.after_split[total_label(hard, ace)] = values.two_card_moves(hard, ace, after_split=True)
            for cards in (3, MANY_CARDS):
                column.later[later_label(hard, ace, cards)] = values.later_moves(hard, ace, cards)
    for value in range(ACE + 1, TEN + 1):
        split = SplitValue(values, value)
        split.ev()
        if split.resplit:
            column.resplit[f"pair {VALUE_LABEL[value]}"] = dict(split.resplit)

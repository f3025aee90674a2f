"""The strategy table as a player at the live table: the move it names for the hand now awaiting a
decision, read from what the player sees.

The first two cards of an unsplit hand play the column's starting cell; a split hand's two cards
first ask whether to split again (by the seat's hands and the split hands still waiting for a
second card), else play the after-split cell; a hand of three or more cards plays the later cell.
A missing cell is an error that names it: the table is complete, and a test holds it to that.
"""

from __future__ import annotations

from dealer_assist.analysis.base_game import BaseGame
from dealer_assist.analysis.options import Move
from dealer_assist.analysis.strategy_table import VALUE_LABEL, Column, best, later_label, situation, total_label
from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import Action, Decide
from dealer_assist.rules.tracker import RoundTracker

__all__ = ["OptimalPlayer"]

_DECISIONS = {
    Move.STAND: Action.STAND,
    Move.DOUBLE: Action.DOUBLE,
    Move.SPLIT: Action.SPLIT,
    Move.SURRENDER: Action.SURRENDER,
}


class OptimalPlayer:
    """Plays `game`'s table."""

    def __init__(self, game: BaseGame) -> None:
        self.game = game

    def column(self, tracker: RoundTracker) -> Column:
        profile = self.game.profile
        dealer = tracker.dealer
        if profile.dealer_hole_card:
            label = VALUE_LABEL[tracker.up_card.value]
        else:
            label = situation(dealer[0].value, dealer[1].value, pair=False)
        return self.game.columns[label]

    def move(self, tracker: RoundTracker, seat: int, index: int) -> Move:
        """The table's move for hand `index` of `seat`, which awaits a decision."""
        column = self.column(tracker)
        hands = tracker.hands[seat]
        cards = hands[index].cards
        if (
            len(cards) == 2
            and hands[index].from_split
            and self._is_pair(cards)
            and tracker.can(Decide(seat, index, Action.SPLIT))
        ):
            choices = column.resplit.get(f"pair {VALUE_LABEL[cards[0].value]}", {})
            key = (len(hands), len(hands) - index)
            if key not in choices:
                raise KeyError(f"column {column.label}: no re-split choice for pair {cards[0].rank} at {key}")
            if choices[key]:
                return Move.SPLIT
        return best(self.cell(tracker, seat, index))

    def cell(self, tracker: RoundTracker, seat: int, index: int) -> dict[Move, float]:
        """The cell the table reads for the hand: its allowed moves and their EVs (a split hand's
        pair asks the re-split choice first, in `move`)."""
        column = self.column(tracker)
        hand = tracker.hands[seat][index]
        cards = hand.cards
        hard = sum(card.value for card in cards)
        ace = any(card.is_ace for card in cards)
        if len(cards) > 2:
            return _cell(column.later, later_label(hard, ace, len(cards)), column)
        if not hand.from_split:
            return _cell(column.start, situation(cards[0].value, cards[1].value, self._is_pair(cards)), column)
        return _cell(column.after_split, total_label(hard, ace), column)

    def decide(self, tracker: RoundTracker, seat: int, index: int) -> Decide | None:
        """The decision for the move, as the round driver asks it: None is the hit."""
        move = self.move(tracker, seat, index)
        return None if move is Move.HIT else Decide(seat, index, _DECISIONS[move])

    def _is_pair(self, cards: list[Card]) -> bool:
        first, second = cards
        return first.value == second.value if self.game.profile.split_same_value else first.rank == second.rank


def _cell(table: dict[str, dict[Move, float]], key: str, column: Column) -> dict[Move, float]:
    cell = table.get(key)
    if cell is None:
        raise KeyError(f"column {column.label}: the strategy table has no cell {key!r}")
    return cell

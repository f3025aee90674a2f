"""The dealer's final total from the cards the player sees, with replacement (RULES.md §2.8, §3.5, §4.1).

The dealer draws by the rules core's one drawing rule. A final total is 17 to 21, or over: 22 to
26 (the dealer draws at 16 or less only). The chances are conditioned on the dealer not having a
Natural: where the peek has ruled one out, the hole card is drawn from the cards that do not make
one; a dealer Natural known before play ends the round, so no decision is taken against it.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.analysis.card_odds import ACE, TEN, VALUES
from dealer_assist.rules.totals import dealer_draws_on, total_of

LOWEST_FINAL = 17
HIGHEST_FINAL = 26
FINALS: tuple[int, ...] = tuple(range(LOWEST_FINAL, HIGHEST_FINAL + 1))

Finals = tuple[float, ...]  # chance of each total of FINALS


def natural_card(up: int) -> int | None:
    """The hole card that would give the dealer a Natural beside `up`."""
    return TEN if up == ACE else ACE if up == TEN else None


def dealer_finals(odds: Sequence[float], hard: int, ace: bool, hits_soft_17: bool, peeked: bool = False) -> Finals:
    """Final totals from a dealer hand of value `hard` (Aces as 1), `ace` if it holds one. With
    `peeked`, the hand is the up card alone and the peek said it is no Natural."""
    memo: dict[tuple[int, bool], Finals] = {}

    def finals(hard: int, ace: bool) -> Finals:
        known = memo.get((hard, ace))
        if known is not None:
            return known
        total = total_of(hard, ace)
        if not dealer_draws_on(total, hits_soft_17):
            result = tuple(1.0 if final == total.value else 0.0 for final in FINALS)
        else:
            summed = [0.0] * len(FINALS)
            for value, chance in zip(VALUES, odds, strict=False):
                for index, p in enumerate(finals(hard + value, ace or value == ACE)):
                    summed[index] += chance * p
            result = tuple(summed)
        memo[(hard, ace)] = result
        return result

    if not peeked:
        return finals(hard, ace)
    excluded = natural_card(hard)
    left = 1.0 - (0.0 if excluded is None else odds[excluded - 1])
    summed = [0.0] * len(FINALS)
    for value, chance in zip(VALUES, odds, strict=False):
        if value == excluded:
            continue
        for index, p in enumerate(finals(hard + value, ace or value == ACE)):
            summed[index] += chance / left * p
    return tuple(summed)

"""The Lucky Lucky bet's exact odds against the published tables and a card-by-card deal."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from math import comb

import pytest

from dealer_assist.analysis.lucky_odds import lucky_odds
from dealer_assist.rules.cards import RANKS, SUITS, Card
from dealer_assist.rules.lucky_lucky import LuckyLine, lucky_line

# Pay table 1 of the published analysis: as RULES.md §2.18, but a suited 21 pays 15 to 1.
PAY_TABLE_1 = {"suited_777": 200, "suited_678": 100, "777": 50, "678": 30, "suited_21": 15, "21": 3, "20": 2, "19": 2}


def test_2_18_lucky_lucky_lines_as_published_for_six_decks() -> None:
    """Wizard of Odds, "Lucky Lucky", Pay Table 1, six decks: combinations and probabilities of
    each line, and a 2.66% house edge for that table:
    https://wizardofodds.com/games/blackjack/side-bets/lucky-lucky/ (stored copy read at
    https://nilapub.com/games/blackjack/side-bets/lucky-lucky/)."""
    odds = lucky_odds(6)
    hands = comb(312, 3)
    published = {  # line: (combinations, probability)
        "suited_777": (80, 0.000016),
        "suited_678": (864, 0.000172),
        "777": (1_944, 0.000388),
        "678": (12_960, 0.002585),
        "suited_21": (26_568, 0.005299),
        "21": (406_296, 0.081043),
        "20": (377_568, 0.075313),
        "19": (364_320, None),
    }
    for line in odds.lines:
        combinations, probability = published[line.key]
        assert line.probability * hands == combinations
        assert probability is None or round(float(line.probability), 6) == probability
    pay_table_1 = sum(PAY_TABLE_1[line.key] * line.probability for line in odds.lines) - odds.loses
    assert f"{float(-pay_table_1) * 100:.2f}" == "2.66"


def test_2_18_lucky_lucky_pay_table_house_edge_as_published_for_six_decks() -> None:
    """The RULES.md §2.18 table (suited 21 at 10 to 1) has a 5.31% house edge with six decks:
    https://www.live-dealers-casino.com/lucky-lucky-blackjack-side-bet/."""
    assert f"{float(lucky_odds(6).house_edge) * 100:.2f}" == "5.31"


def test_2_18_lucky_lucky_lines_as_published_for_two_decks() -> None:
    """Stephen How, "Lucky Lucky Blackjack Sidebet" (double deck), frequencies of C(104, 3) = 182,104
    hands: https://discountgambling.net/2012/05/03/lucky-lucky-blackjack-sidebet-ev/. A suited
    7-7-7 needs three sevens of one suit, so two decks cannot make it; its 777 row is every 7-7-7."""
    odds = lucky_odds(2)
    published = {
        "suited_777": 0,
        "suited_678": 32,
        "777": 56,
        "678": 480,
        "suited_21": 936,
        "21": 14_904,
        "20": 13_792,
        "19": 13_344,
    }
    assert {line.key: line.probability * 182_104 for line in odds.lines} == published
    assert odds.loses * 182_104 == 138_560


@pytest.mark.parametrize("decks", range(1, 9))
def test_2_18_lucky_lucky_lines_cover_every_deal(decks: int) -> None:
    assert lucky_odds(decks).total_probability == 1


def test_2_18_lucky_lucky_odds_agree_with_dealing_every_three_cards_in_order() -> None:
    """Player's two cards then the dealer's up card, every ordered deal of one deck, judged one by one."""
    deck = [Card(rank, suit) for rank in RANKS for suit in SUITS]
    lines = Counter(lucky_line(cards) for cards in permutations(deck, 3))
    deals = sum(lines.values())
    odds = lucky_odds(1)
    assert {line.key: line.probability for line in odds.lines} == {
        line.value: Fraction(lines[line], deals) for line in LuckyLine
    }
    assert odds.loses == Fraction(lines[None], deals)


def test_2_18_lucky_lucky_odds_do_not_depend_on_the_order_values_are_visited() -> None:
    assert lucky_odds(8, (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)) == lucky_odds(8)
    assert lucky_odds(8, (7, 1, 10, 3, 9, 2, 6, 8, 4, 5)) == lucky_odds(8)

"""The Buster bet's exact odds against the published tables and against a second enumeration."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dealer_assist.analysis.buster_odds import BUST_KEYS, buster_odds, free_bonus_share
from dealer_assist.analysis.dealer_draws import dealer_finals
from dealer_assist.analysis.shoe import Shoe
from dealer_assist.rules.cards import Card
from dealer_assist.rules.profile import FreeBonus, load_profile
from dealer_assist.rules.settlement import FREE_BONUS
from dealer_assist.rules.totals import hand_total, is_natural_pair

# The pay table the published analysis prices: 8+ 250, 7 50, 6 12, 5 4, 4 2, 3 2 (Deadwood table C).
PUBLISHED_PAYS = (2, 2, 4, 12, 50, 250)


def test_2_19_buster_pays_by_dealer_card_count_as_published_for_six_decks_h17() -> None:
    """Wizard of Odds, "Buster Blackjack", Pay Table 1, six decks, dealer hits soft 17:
    https://wizardofodds.com/games/blackjack/side-bets/buster-blackjack/ (stored copy read at
    https://nilapub.com/games/blackjack/side-bets/buster-blackjack/). Its rows price a 6-card bust at
    12 to 1 (the return column is 12 x the probability), though its pay table lists 15.

    Its "dealer doesn't bust" row prints 0.714241, which disagrees with its own other rows and its
    total (-0.062143 needs 0.7142398); the no-bust figure is checked against the independent
    published 0.714240 (https://discountgambling.net/tag/sycuan/, same game and pay table).
    """
    odds = buster_odds(6, True, PUBLISHED_PAYS)
    published = {  # cards: (probability, return)
        "8+": (0.000012, 0.002986),
        "7": (0.000214, 0.010722),
        "6": (0.002638, 0.031651),
        "5": (0.020473, 0.08189),
        "4": (0.089392, 0.178784),
        "3": (0.173032, 0.346064),
    }
    for line in odds.lines:
        probability, returned = published[line.key]
        assert round(float(line.probability), 6) == probability
        assert round(float(line.player_return), 6) == returned
    assert round(float(odds.loses), 6) == 0.714240
    assert round(float(odds.player_return), 6) == -0.062143


def test_2_19_buster_exact_card_counts_as_published_for_six_decks_h17() -> None:
    """Stephen How, "Buster Blackjack @ Sycuan, CA" (https://discountgambling.net/tag/sycuan/):
    six decks, dealer hits soft 17, by exact number of cards (its 8-card row is exactly 8 cards)."""
    finals = dealer_finals(Shoe.full(6), True)
    published = {
        3: "1.73032e-01",
        4: "8.93918e-02",
        5: "2.04726e-02",
        6: "2.63760e-03",
        7: "2.14444e-04",
        8: "1.15280e-05",
    }
    for cards, printed in published.items():
        assert f"{float(finals.bust_by_cards[cards]):.5e}" == printed


@pytest.mark.parametrize(
    ("decks", "s17", "h17"),
    [
        (1, "8.77", "6.89"),
        (2, "8.48", "6.51"),
        (4, "8.31", "6.29"),
        (5, "8.27", "6.25"),
        (6, "8.25", "6.21"),
        (8, "8.22", "6.17"),
    ],
)
def test_4_4_buster_house_edge_by_decks_and_soft_17_rule_as_published(decks: int, s17: str, h17: str) -> None:
    """Wizard of Odds, "Buster Blackjack", house edge by decks and soft-17 rule:
    https://wizardofodds.com/games/blackjack/side-bets/buster-blackjack/ (stored copy read at
    https://nilapub.com/games/blackjack/side-bets/buster-blackjack/)."""
    assert f"{float(buster_odds(decks, False, PUBLISHED_PAYS).house_edge) * 100:.2f}" == s17
    assert f"{float(buster_odds(decks, True, PUBLISHED_PAYS).house_edge) * 100:.2f}" == h17


@pytest.mark.parametrize("decks", range(1, 9))
@pytest.mark.parametrize("hits_soft_17", [True, False])
def test_2_8_dealer_final_hands_cover_every_deal(decks: int, hits_soft_17: bool) -> None:
    finals = dealer_finals(Shoe.full(decks), hits_soft_17)
    assert finals.stands + sum(finals.bust_by_cards.values()) == 1
    assert min(finals.bust_by_cards) == 3


@pytest.mark.parametrize("order", [(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), (7, 1, 10, 3, 9, 2, 6, 8, 4, 5)])
def test_2_8_dealer_odds_do_not_depend_on_the_order_values_are_drawn_in(order: tuple[int, ...]) -> None:
    for hits_soft_17 in (True, False):
        assert dealer_finals(Shoe.full(8, order), hits_soft_17) == dealer_finals(Shoe.full(8), hits_soft_17)


def _deal_by_deal(decks: int, hits_soft_17: bool) -> dict[int | str, Fraction]:
    """Every drawing order from a shoe of thirteen ranks, judged by the table's own hand totals."""
    counts = {rank: 4 * decks for rank in "A23456789TJQK"}
    finals: dict[int | str, Fraction] = {}

    def draw(cards: list[Card], chance: Fraction, left: int) -> None:
        total = hand_total(cards)
        if len(cards) >= 2:
            stands = (
                is_natural_pair(cards) or total.value > 17 or (total.value == 17 and not (total.soft and hits_soft_17))
            )
            if total.over or stands:
                key: int | str = len(cards) if total.over else "stands"
                finals[key] = finals.get(key, Fraction(0)) + chance
                return
        for rank, count in counts.items():
            if count:
                counts[rank] -= 1
                draw([*cards, Card(rank, "S")], chance * Fraction(count, left), left - 1)
                counts[rank] += 1

    draw([], Fraction(1), 52 * decks)
    return finals


@pytest.mark.parametrize("hits_soft_17", [True, False])
def test_2_8_dealer_odds_agree_with_a_card_by_card_enumeration(hits_soft_17: bool) -> None:
    expected = _deal_by_deal(1, hits_soft_17)
    finals = dealer_finals(Shoe.full(1), hits_soft_17)
    assert finals.stands == expected.pop("stands")
    assert finals.bust_by_cards == expected


def test_2_19_buster_folds_eight_or_more_cards_into_one_line() -> None:
    finals = dealer_finals(Shoe.full(8), True)
    odds = buster_odds(8, True, load_profile("nobust-4.0").buster_pays)
    assert [line.key for line in odds.lines] == list(BUST_KEYS)
    assert [line.pays for line in odds.lines] == [2, 2, 4, 15, 50, 300]
    assert odds.probability("8+") == sum(p for cards, p in finals.bust_by_cards.items() if cards >= 8)
    assert odds.probability("7") == finals.bust_by_cards[7]
    assert odds.total_probability == 1


def test_4_5_free_bonus_adds_its_fixed_prizes_as_a_share_of_the_wager() -> None:
    odds = buster_odds(6, False, load_profile("sd-buster-a").buster_pays)
    seven, eight = FREE_BONUS[FreeBonus.B1]
    five_dollars = free_bonus_share(odds, FreeBonus.B1, 500)
    assert five_dollars.expected == seven * odds.probability("7") + eight * odds.probability("8+")
    assert free_bonus_share(odds, FreeBonus.B1, 1000).share == five_dollars.share / 2
    assert free_bonus_share(odds, FreeBonus.B3, 500).share < five_dollars.share
    assert five_dollars.house_edge_with_bonus(odds) == odds.house_edge - five_dollars.expected / 500

"""RULES.md §5: the player-dealer's bank, the settlement order, coverage, fees, rotation; §7 and §8.9
rounding and the table payout cap. The PD sits in seat 4 unless a test says otherwise."""

from __future__ import annotations

from typing import Any

import pytest
from rulebook import heads_up, make_round, rows, settle, stack

from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import CardDrawn, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.session import TableConfig, TableSession
from dealer_assist.table.session_inputs import BankAccepted, BankRefused, SettlementConfirmed, ShoeLoaded
from dealer_assist.table.session_operations import BankDeclined, BankOffered, BankTaken, RoundClosed, RoundOpened

NB, C21 = "nobust-4.0", "c21-8.0"
STAKE = {"coverage": "stake"}


def table(
    profile: str,
    hands: dict[int, list[str]],
    dealer: list[str],
    *draws: str,
    bank: float = 500,
    bases: dict[int, float] | None = None,
    actions: dict[int, list[str]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Seats in `hands` bet 10 (or `bases`) and stand unless `actions` says otherwise."""
    wagers = {s: {"base": (bases or {}).get(s, 10)} for s in hands}
    tokens = {s: ["stand"] for s in hands} | (actions or {})
    return settle(
        make_round(profile, stack(hands, dealer, *draws), wagers, actions=tokens, pd={"seat": 4, "bank": bank}, **extra)
    )


# PD 10-8 (18); the 8 counts one seat on to seat 5, so action starts at seat 1.
NATURAL_AND_TWO_19S = {1: ["AS", "KH"], 2: ["TS", "9S"], 3: ["TH", "9H"]}


def test_5_1_wagers_the_bank_does_not_reach_are_returned():
    """Bank 10: seat 1's win takes the whole bank; seats 2 and 3 get no action."""
    ledger = table(NB, {1: ["TS", "9S"], 2: ["TH", "9H"], 3: ["TD", "9D"]}, ["TC", "8C"], bank=10)
    assert rows(ledger) == [
        (1, 0, "base", "win", 10, 10),
        (2, 0, "base", "no_action", 0, 0),
        (3, 0, "base", "no_action", 0, 0),
    ]
    assert ledger["seats"] == {"1": {"net": 10}, "2": {"net": 0}, "3": {"net": 0}}
    assert ledger["player_dealer"]["net"] == -10


def test_5_2_settlement_order_lucky_lucky_insurance_base_buster():
    """4.0 with a hole card (Ace up first, 4 in the hole). The second card, 4, puts action on seat 8.
    Lucky Lucky runs from seat 5 (6, 8, 1); insurance, base and Buster from seat 8 (8, 1, 6), seat 1's
    split hands in play order. Lucky: 6 has T-9-A = 20 (2:1), 8 has T-7-A = 18, 1 has 8-8-A = 17.
    The PD draws 5 to soft 20: every insurance, base and Buster wager loses."""
    cards = ["8S", "TD", "TC", "AS", "8H", "9D", "7C", "4H", "TS", "TH", "5D"]
    side = {"lucky_lucky": 1, "buster": 1}
    ledger = settle(
        make_round(
            NB,
            cards,
            {1: {"base": 10, **side}, 6: {"base": 10, **side}, 8: {"base": 10, **side}},
            actions={1: ["split", "stand", "stand"], 6: ["stand"], 8: ["stand"]},
            pd={"seat": 4, "bank": 500},
            settings={"dealer_hole_card": True},
            insurance={1: 5, 6: 5, 8: 5},
        )
    )
    assert ledger["action_seat"] == 8
    assert rows(ledger) == [
        (6, 0, "lucky_lucky", "win", 1, 2),
        (8, 0, "lucky_lucky", "lose", 1, -1),
        (1, 0, "lucky_lucky", "lose", 1, -1),
        (8, 0, "insurance", "lose", 5, -5),
        (1, 0, "insurance", "lose", 5, -5),
        (6, 0, "insurance", "lose", 5, -5),
        (8, 0, "base", "lose", 10, -10),
        (1, 0, "base", "lose", 10, -10),
        (1, 1, "base", "lose", 10, -10),
        (6, 0, "base", "lose", 10, -10),
        (8, 0, "buster", "lose", 1, -1),
        (1, 0, "buster", "lose", 1, -1),
        (6, 0, "buster", "lose", 1, -1),
    ]


def test_5_3_running_coverage_partial_action_in_proportion():
    """Bank 15: seat 1's Natural is owed 15 and takes it all; the two 19s move nothing. Bank 20: seat 2's
    win is owed 10 with 5 room left, so 5 of its 10 has action; seat 3 gets none."""
    exact = table(NB, NATURAL_AND_TWO_19S, ["TD", "8C"], bank=15)
    assert rows(exact) == [
        (1, 0, "base", "win", 10, 15),
        (2, 0, "base", "no_action", 0, 0),
        (3, 0, "base", "no_action", 0, 0),
    ]
    partial = table(NB, NATURAL_AND_TWO_19S, ["TD", "8C"], bank=20)
    assert rows(partial) == [
        (1, 0, "base", "win", 10, 15),
        (2, 0, "base", "win", 5, 5),
        (3, 0, "base", "no_action", 0, 0),
    ]
    assert partial["player_dealer"]["net"] == -20


def test_5_3_running_coverage_partial_natural_keeps_action_in_proportion():
    """Bank 15: seat 2's 19 is paid 10 first (action seat 2); seat 3's Natural is owed 15 with 5 room:
    in action 10 x 5 / 15 = 3.33 (rounded down to the cent)."""
    hands = {2: ["TS", "9S"], 3: ["AS", "KH"]}
    ledger = table(NB, hands, ["TD", "6C"], "2D", bank=15)  # the 6 counts 6 seats on: seat 2
    assert ledger["action_seat"] == 2
    assert rows(ledger) == [(2, 0, "base", "win", 10, 10), (3, 0, "base", "win", 3.33, 5)]
    assert ledger["player_dealer"]["net"] == -15


def test_5_3_running_coverage_a_later_win_opens_room_for_losses():
    """Bank 10, PD 10-5 draws 4 (19): seat 1 loses 10 (R = +10); seat 2's loss moves nothing
    (no_action); seat 3's 20 wins 10 (R = 0); seat 5's loss is collected again (R = +10)."""
    hands = {1: ["TS", "8S"], 2: ["TH", "7H"], 3: ["TD", "QD"], 5: ["KS", "6S"]}
    ledger = table(NB, hands, ["TC", "5C"], "4D", bank=10)
    assert ledger["action_seat"] == 1
    assert rows(ledger) == [
        (1, 0, "base", "lose", 10, -10),
        (2, 0, "base", "no_action", 0, 0),
        (3, 0, "base", "win", 10, 10),
        (5, 0, "base", "lose", 10, -10),
    ]
    assert ledger["player_dealer"]["net"] == 10


def test_5_3_running_coverage_a_push_stays_a_push_after_the_bank_is_gone():
    """Bank 10: seat 1's win takes it all; seat 2's 18 ties the PD's 18. Reading of "a push stays a
    push": a push moves no money, so it is never `no_action`; its whole stake is shown in action."""
    ledger = table(NB, {1: ["TS", "9S"], 2: ["TH", "8H"]}, ["TD", "8C"], bank=10)
    assert rows(ledger) == [(1, 0, "base", "win", 10, 10), (2, 0, "base", "push", 10, 0)]


def test_5_3_stake_coverage_settles_in_full_on_the_stake_in_action():
    """Bank 15: seat 1's 10 has action and its Natural is paid 15 in full; seat 2's 10 gets the last
    5 of action and wins 5; seat 3 none. The PD loses 20, more than the bank."""
    ledger = table(NB, NATURAL_AND_TWO_19S, ["TD", "8C"], bank=15, settings=STAKE)
    assert rows(ledger) == [
        (1, 0, "base", "win", 10, 15),
        (2, 0, "base", "win", 5, 5),
        (3, 0, "base", "no_action", 0, 0),
    ]
    assert ledger["player_dealer"]["net"] == -20


def test_5_3_stake_coverage_losses_collected_on_the_stake_in_action():
    ledger = table(NB, {1: ["TS", "7S"], 2: ["TH", "7H"], 3: ["TD", "7D"]}, ["TC", "8C"], bank=15, settings=STAKE)
    assert rows(ledger) == [
        (1, 0, "base", "lose", 10, -10),
        (2, 0, "base", "lose", 5, -5),
        (3, 0, "base", "no_action", 0, 0),
    ]
    assert ledger["player_dealer"]["net"] == 15


@pytest.mark.parametrize(
    "settings, expected",
    [
        pytest.param(
            STAKE,
            [(1, 0, "base", "surrender", 10, -5), (2, 0, "base", "win", 5, 5), (3, 0, "base", "no_action", 0, 0)],
            id="stake",
        ),
        pytest.param(
            {},
            [(1, 0, "base", "surrender", 10, -5), (2, 0, "base", "win", 10, 10), (3, 0, "base", "win", 10, 10)],
            id="running",
        ),
    ],
)
def test_8_18_stake_coverage_counts_a_surrenders_whole_stake(settings, expected):
    """Bank 15. Stake: the surrender uses 10 of the 15, seat 2 gets 5, seat 3 nothing. Running: the
    surrender's 5 raises the room to 20, so both 19s are paid in full."""
    hands = {1: ["TS", "6S"], 2: ["TH", "9H"], 3: ["TD", "9D"]}
    ledger = table(NB, hands, ["TC", "8C"], bank=15, actions={1: ["surrender"]}, settings=settings)
    assert rows(ledger) == expected


def test_5_4_early_natural_and_surrender_settle_in_their_place():
    """The PD's 6 counts six seats on from seat 4: seat 2 leads, then 3, then 1."""
    hands = {1: ["TS", "9S"], 2: ["AH", "KH"], 3: ["TD", "6D"]}
    ledger = table(NB, hands, ["TC", "6C"], "2D", actions={3: ["surrender"]})
    assert rows(ledger) == [
        (2, 0, "base", "win", 10, 15),
        (3, 0, "base", "surrender", 10, -5),
        (1, 0, "base", "win", 10, 10),
    ]


@pytest.mark.parametrize(
    "bases, players, pd",
    [
        ({1: 10, 2: 50}, 1.0, 1.0),
        ({1: 10, 2: 51}, 1.5, 2.0),
        ({1: 100, 2: 5}, 1.5, 2.0),
        ({1: 200, 2: 500}, 2.0, 2.0),
    ],
)
def test_5_5_collection_fees_by_tier_apart_from_the_nets(bases, players, pd):
    """4.0 tiers: up to 50 pays 0.50 (PD 1), up to 100 pays 1 (PD 2), above that the last tier."""
    ledger = table(NB, {1: ["TS", "8S"], 2: ["TH", "8H"]}, ["9C", "9D"], bases=bases)
    assert ledger["fees"] == {"players": players, "player_dealer": pd}
    assert ledger["seats"] == {"1": {"net": 0}, "2": {"net": 0}} and ledger["player_dealer"]["net"] == 0


@pytest.mark.parametrize(
    "profile, player, base, amount",
    [
        pytest.param(NB, ["AS", "KH"], 5.01, 7.51, id="3:2-of-5.01"),
        pytest.param(C21, ["AS", "KH"], 5.01, 6.01, id="6:5-of-5.01"),
        pytest.param(C21, ["AS", "KH"], 7.04, 8.44, id="6:5-of-7.04"),
    ],
)
def test_8_9_payouts_round_down_to_the_cent(profile, player, base, amount):
    ledger = heads_up(profile, player, ["9D", "8C"], wagers={"base": base})
    assert rows(ledger) == [(1, 0, "base", "win", base, amount)]


def test_8_9_half_of_an_odd_cent_surrender_rounds_down():
    ledger = heads_up(NB, ["TS", "6H"], ["9D", "8C"], ["surrender"], wagers={"base": 5.01})
    assert rows(ledger) == [(1, 0, "base", "surrender", 5.01, -2.5)]


def test_8_9_max_table_payout_caps_gross_payments_in_order():
    """c21-8.0 with the cap at 15: seat 1's Natural takes 12 (6:5), seat 2's win gets the last 3, seat 3's
    win finds nothing left: no_action. The PD's up T counts 4 seats on: seat 1. Reading: a win the cap
    cuts short keeps action on its stake in proportion, as under §5.3 (10 x 3 / 10 = 3)."""
    ledger = table(C21, NATURAL_AND_TWO_19S, ["8C", "TD"], settings={"max_table_payout": 15})
    assert rows(ledger) == [
        (1, 0, "base", "win", 10, 12),
        (2, 0, "base", "win", 3, 3),
        (3, 0, "base", "no_action", 0, 0),
    ]


def test_8_9_max_table_payout_applies_with_stake_coverage():
    ledger = table(C21, NATURAL_AND_TWO_19S, ["8C", "TD"], settings={"max_table_payout": 15, **STAKE})
    assert rows(ledger) == [
        (1, 0, "base", "win", 10, 12),
        (2, 0, "base", "win", 3, 3),
        (3, 0, "base", "no_action", 0, 0),
    ]


def test_8_9_losses_are_not_capped():
    """The cap is on payments: collections go on after it is reached."""
    hands = {1: ["AS", "KH"], 2: ["TS", "7S"]}
    ledger = table(C21, hands, ["8C", "TD"], settings={"max_table_payout": 12})
    assert rows(ledger) == [(1, 0, "base", "win", 10, 12), (2, 0, "base", "lose", 10, -10)]


def test_5_6_rotation_two_rounds_at_most_then_the_bank_moves_clockwise():
    """Seat 1 refuses, seat 2 banks round 1 (first turn) and round 2 (second turn); the bank is then
    offered to seat 3, and seat 2 is passed over when every other seat refuses."""
    session = TableSession(TableConfig("T1", NB))
    session.apply(ShoeLoaded("S1", 6), 0)
    assert session.between_rounds()["offer_seat"] == 1
    assert session.apply(BankRefused(1), 1) == (BankDeclined(1), BankOffered(2, 1))
    for turn in (1, 2):
        opened = session.apply(BankAccepted(2, 50_000), 2)
        assert opened == (BankTaken(2, 50_000, turn, False), RoundOpened(turn, 2, 50_000, turn, "S1"))
        session.apply(PlaceWager(3, WagerKind.BASE, 1_000), 3)
        session.apply(NoMoreBets(), 3)
        for code in ["AS", "9D", "KH", "8C"]:  # seat 3's Natural against the PD's 17
            session.apply(CardDrawn(parse_card(code)), 4)
        closed = session.apply(SettlementConfirmed(), 5)
        assert closed == (RoundClosed(turn, -1_500, False), BankOffered(2 if turn == 1 else 3, 2 if turn == 1 else 1))
    with pytest.raises(RuleError) as caught:
        session.apply(BankAccepted(2, 50_000), 6)
    assert caught.value.rule == "5.6"
    offered = [
        op
        for seat in (3, 4, 5, 6, 7, 8, 1)
        for op in session.apply(BankRefused(seat), 7)
        if isinstance(op, BankOffered)
    ]
    assert offered[-1] == BankOffered(3, 1)

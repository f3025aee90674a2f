"""The table session around the rounds: the bank's rotation (RULES.md §5.6), the shoe, misdeals."""

from __future__ import annotations

import pytest

from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.session import TableConfig, TableSession, TableState
from dealer_assist.table.session_inputs import (
    BankAccepted,
    BankRefused,
    CutCardReached,
    SettlementConfirmed,
    ShoeLoaded,
)

T0 = 1_800_000_000.0


def _names(ops) -> list[str]:
    return [type(op).__name__ for op in ops]


def _quick_round(session: TableSession, now: float = T0) -> list:
    """Seat 2 bets and stands on 20 against a PD 19: a complete round with a known ending."""
    ops = []
    player = 2 if session.s.pd_seat != 2 else 3
    for event in (
        PlaceWager(player, WagerKind.BASE, 1_000),
        NoMoreBets(),
        *(CardDrawn(parse_card(c)) for c in ("TH", "KD", "QH", "9D")),
        Decide(player, 0, Action.STAND),
        SettlementConfirmed(),
    ):
        ops += session.apply(event, now)
    return ops


def _session(**config) -> TableSession:
    session = TableSession(TableConfig("T-1", "nobust-4.0", **config))
    session.apply(ShoeLoaded("S-1", 6), T0)
    return session


def test_5_6_the_same_player_banks_at_most_two_rounds_then_the_bank_goes_clockwise():
    session = _session()
    assert session.state is TableState.OFFERING_BANK and session.s.offer_seat == 1
    assert _names(session.apply(BankRefused(1), T0)) == ["BankDeclined", "BankOffered"]
    ops = session.apply(BankAccepted(2, 50_000), T0)
    assert _names(ops) == ["BankTaken", "RoundOpened"] and ops[0].turn == 1
    closing = _quick_round(session)
    offered = [op for op in closing if type(op).__name__ == "BankOffered"][0]
    assert (offered.seat, offered.turn) == (2, 2), "the PD is offered its second turn"
    second = session.apply(BankAccepted(2, 50_000), T0)
    assert second[0].turn == 2
    closing = _quick_round(session)
    offered = [op for op in closing if type(op).__name__ == "BankOffered"][0]
    assert (offered.seat, offered.turn) == (3, 1), "after two rounds the bank moves clockwise"
    with pytest.raises(RuleError) as not_yours:
        session.apply(BankAccepted(2, 50_000), T0)
    assert not_yours.value.code == "offered_elsewhere" and not_yours.value.rule == "5.6"


def test_5_6_a_refused_offer_passes_over_the_player_who_banked_twice():
    session = _session(seats=3)
    session.apply(BankAccepted(1, 50_000), T0)
    _quick_round(session)
    session.apply(BankAccepted(1, 50_000), T0)
    _quick_round(session)
    assert session.s.offer_seat == 2
    session.apply(BankRefused(2), T0)
    session.apply(BankRefused(3), T0)
    assert session.s.offer_seat == 2, "seat 1 banked twice in a row and is passed over"
    assert session.s.declined == [2, 3]


def test_the_cut_card_makes_the_round_the_shoes_last():
    session = _session()
    session.apply(BankAccepted(1, 50_000), T0)
    session.apply(CutCardReached(200), T0)
    _quick_round(session)
    session.apply(BankAccepted(1, 50_000), T0)
    assert session.state is TableState.NEEDS_SHOE and session.tracker is None
    ops = session.apply(ShoeLoaded("S-2", 6), T0)
    assert _names(ops) == ["ShoeChanged", "RoundOpened"] and ops[1].shoe_id == "S-2"


def test_burn_cards_go_to_the_discard_tray_after_a_new_shoe():
    session = _session(burn_cards=1)
    session.apply(BankAccepted(1, 50_000), T0)
    session.apply(PlaceWager(2, WagerKind.BASE, 1_000), T0)
    assert _names(session.apply(CardDrawn(parse_card("5S")), T0)) == ["CardBurned"]
    assert session.tracker.cards_seen == 0


def test_california_rotation_proposition_player_limits_and_warnings():
    session = _session(rotation_rules=True)
    session.apply(BankAccepted(1, 50_000, proposition=True), T0)
    closing = _quick_round(session)
    assert [op.seat for op in closing if type(op).__name__ == "BankOffered"] == [2], (
        "a proposition player never banks twice in a row"
    )
    with pytest.raises(RuleError) as second:
        session.apply(BankAccepted(2, 50_000, proposition=True), T0)
    assert "one per table" in second.value.message
    session.apply(BankAccepted(2, 50_000), T0)
    warnings = _quick_round(session, T0 + 36 * 60)
    assert [op.minutes_left for op in warnings if type(op).__name__ == "RotationWarning"] == [5]
    late = session.apply(BankRefused(2), T0 + 39.5 * 60)
    assert [op.minutes_left for op in late if type(op).__name__ == "RotationWarning"] == [1]
    while session.s.offer_seat != 1:
        session.apply(BankRefused(session.s.offer_seat), T0 + 41 * 60)
    with pytest.raises(RuleError) as overdue:
        session.apply(BankAccepted(1, 50_000, proposition=True), T0 + 41 * 60)
    assert "two other player-dealers" in overdue.value.message


def test_a_refused_input_changes_nothing_in_the_session():
    session = _session()
    before = session.between_rounds()
    with pytest.raises(RuleError):
        session.apply(BankAccepted(5, 50_000), T0)
    with pytest.raises(RuleError):
        session.apply(Decide(2, 0, Action.STAND), T0)
    assert session.between_rounds() == before


def test_6_1_an_unread_card_holds_the_round_until_a_person_names_it():
    from dealer_assist.table.session_inputs import CardsUnread, KeyCard

    session = _session()
    session.apply(BankAccepted(1, 50_000), T0)
    session.apply(PlaceWager(2, WagerKind.BASE, 1_000), T0)
    session.apply(NoMoreBets(), T0)
    session.apply(CardDrawn(parse_card("TH")), T0)
    ops = session.apply(CardsUnread(2, 3, missed=True), T0)
    assert _names(ops) == ["CardsHeldUnread"] and session.state is TableState.UNREAD
    with pytest.raises(RuleError) as held:
        session.apply(CardDrawn(parse_card("9D")), T0)
    assert held.value.code == "unread_held" and "card 2" in held.value.message
    with pytest.raises(RuleError) as no_reason:
        session.apply(KeyCard(parse_card("KD"), "floor-1", ""), T0)
    assert no_reason.value.code == "reason_required" and session.unread == [2, 3]
    with pytest.raises(RuleError) as nobody:
        session.apply(KeyCard(parse_card("KD"), " ", "read the card face"), T0)
    assert nobody.value.code == "supervisor_required" and session.unread == [2, 3]
    keyed = session.apply(KeyCard(parse_card("KD"), "floor-1", "read the card face"), T0)
    assert _names(keyed)[:2] == ["CardKeyed", "CardAssigned"] and keyed[0].n == 2
    session.apply(KeyCard(parse_card("QH"), "floor-1", "read the card face"), T0)
    assert session.state is TableState.ROUND and session.s.shoe_cards == 3
    assert [str(c) for c in session.tracker.dealer] == ["KD"] and [
        str(c) for c in session.tracker.hands[2][0].cards
    ] == ["TH", "QH"]


def test_8_21_betting_stays_open_until_no_more_bets_and_an_early_card_is_a_misdeal_hold():
    from dealer_assist.table.session_inputs import DiscardMisdeal

    session = _session()
    session.apply(BankAccepted(1, 50_000), T0)
    session.apply(PlaceWager(2, WagerKind.BASE, 1_000), T0)
    assert not session.tracker.takes_card(), "the card-stop stays on while betting is open"
    ops = session.apply(CardDrawn(parse_card("TH")), T0)
    assert _names(ops) == ["MisdealHeld"] and ops[0].code == "betting_open" and ops[0].rule == "8.21"
    assert session.state is TableState.MISDEAL and session.tracker.cards_seen == 0
    session.apply(DiscardMisdeal("floor-1", "card pulled before no more bets"), T0)
    for seat in (3, 4):
        session.apply(PlaceWager(seat, WagerKind.BASE, 2_000), T0)
    assert {seat: w[WagerKind.BASE] for seat, w in session.tracker.wagers.items()} == {2: 1_000, 3: 2_000, 4: 2_000}
    assert _names(session.apply(NoMoreBets(), T0)) == ["BettingClosed"]
    assert session.tracker.takes_card()
    with pytest.raises(RuleError) as late:
        session.apply(PlaceWager(5, WagerKind.BASE, 1_000), T0)
    assert late.value.code == "betting_closed"
    assert _names(session.apply(CardDrawn(parse_card("9S")), T0)) == ["CardAssigned"]
    assert session.tracker.hands[2][0].cards == [parse_card("9S")]


def test_no_more_bets_needs_a_base_wager_and_comes_once():
    session = _session()
    session.apply(BankAccepted(1, 50_000), T0)
    with pytest.raises(RuleError) as empty:
        session.apply(NoMoreBets(), T0)
    assert empty.value.code == "no_wagers"
    session.apply(PlaceWager(2, WagerKind.BASE, 1_000), T0)
    session.apply(NoMoreBets(), T0)
    with pytest.raises(RuleError) as twice:
        session.apply(NoMoreBets(), T0)
    assert twice.value.code == "betting_closed"

"""Refusals, misdeals, a failed peek and device status: what the banner and the top bar tell."""

from __future__ import annotations

import threading

from dealer_assist.rules.cards import card_text, parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, WagerKind
from dealer_assist.rules.phases import Need
from dealer_assist.table.session_inputs import CardsUnread, ConfirmPeek, DiscardMisdeal, KeyCard
from dealer_assist.table.snapshot import Attention, AttentionKind
from ui.keypads.wager_pad import INSURANCE


def test_a_wager_under_the_table_minimum_is_refused_with_its_rule(table):
    t = table("nobust-4.0")
    t.tap_seat(2)
    t.tap(t.view.wagers.chip_buttons[100])  # the chip goes on at once: $1 is below the minimum
    assert t.view.banner.isVisible()
    assert t.view.banner.message.text() == "Refused (rule 7): seat 2's base $1 is outside the limits $5-$500"
    assert t.view.seats[2].wagers.text() == "no wager"
    t.tap(t.view.wagers.chip_buttons[500])
    t.tap(t.view.wagers.chip_buttons[100])
    assert not t.view.banner.isVisible()
    assert t.view.wagers.target.text() == "Seat 2\nBase $6"
    assert t.view.seats[2].wagers.text() == "$6", "+$5 then +$1: each chip raised the wager as it was tapped"


def test_the_player_dealers_seat_takes_no_wager(table):
    t = table("nobust-4.0", pd_seat=4)
    t.tap_seat(4)
    assert not any(button.isEnabled() for button in t.view.wagers.chip_buttons.values())


def test_a_card_after_the_dealer_stands_holds_the_round_for_a_supervisor(table):
    t = table("nobust-4.0", ["TS", "9H", "KD", "8C"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)  # 20 against 17: both stand
    t.decide(Action.STAND)
    assert t.snap.need is Need.NOTHING
    t.deal()
    assert t.view.banner.isVisible()
    text = t.view.banner.message.text()
    assert (
        text.startswith("MISDEAL (rule 2.8): ")
        and "held: misdeal: the dealer stands on hard 17" in text
        and "a floor supervisor discards it" in text
    )
    assert not t.view.banner.resolve.isVisible(), "only a supervisor releases a held round"
    t.tap(t.view.settlement.confirm)
    assert t.snap.table.misdeal is not None, "nothing goes on while the misdeal is held"
    assert t.supervise(DiscardMisdeal("Floor 1", "extra card after the stand"), t.pin) is None
    assert not t.view.banner.isVisible()
    t.tap(t.view.settlement.confirm)
    assert t.view.prompt.text() == "Offer the bank to seat 4 (second turn)"


def test_a_hit_on_a_hard_17_is_a_misdeal_naming_the_must_stand_rule(table):
    t = table("nobust-4.0", ["TS", "9H", "7D", "5C"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal(4)
    assert t.view.prompt.text() == "Seat 1 must stand on hard 17 (or surrender)"
    assert t.enabled_decisions() == {Action.STAND, Action.SURRENDER}
    t.deal()
    assert "held: misdeal: seat 1 hand 1: a player must stand on hard 17" in t.view.banner.message.text()
    assert t.view.banner.message.text().startswith("MISDEAL (rule 2.10): ")
    assert t.view.prompt.text() == f"Hold {card_text(t.snap.table.misdeal)} aside and call a floor supervisor"
    assert t.enabled_decisions() == set(), "no decision is taken while the misdeal holds the round"
    assert t.supervise(DiscardMisdeal("Floor 1", "hit on a must-stand hand"), t.pin) is None
    assert t.enabled_decisions() == {Action.STAND, Action.SURRENDER}, "the buttons are back as the round stands"


def test_the_hole_card_stays_down_through_insurance_and_a_failed_peek(table):
    # c21-8.0: the dealer's second card is up; seat 1 gets 9S 7D, the dealer KH (hole) and AS (up)
    t = table("c21-8.0", ["9S", "KH", "7D", "AS"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 2_500)
    t.deal(4)
    assert t.view.prompt.text() == "Ace up: take insurance, then peek"
    assert t.view.dealer.cards.cards == (None, parse_card("AS"))
    assert t.view.dealer.total.text() == "soft 11 + ?"
    assert t.view.wagers.kind_buttons[INSURANCE].isChecked()
    t.tap_seat(1)
    t.tap(t.view.wagers.chip_buttons[500])
    assert t.view.seats[1].side.text() == "Ins $5"
    t.tap(t.view.wagers.close_insurance)
    assert t.view.prompt.text() == "Peek for a Natural"
    assert all(button.isEnabled() for button in t.bench.peek_buttons.values())
    t.tap(t.bench.peek_buttons["noread"])
    assert t.view.banner.message.text() == (
        "PEEK FAILED (rule 6.2): the peek device answered noread; a floor supervisor checks the hole card by hand"
    )
    assert t.view.prompt.text() == "Call a floor supervisor to check the hole card" and not t.view.prompt.cut
    assert not t.view.banner.resolve.isVisible()
    assert t.view.dealer.cards.cards == (None, parse_card("AS"))
    assert t.supervise(ConfirmPeek(True, "Floor 1", "checked by hand"), t.pin) is None
    assert t.snap.need is Need.NOTHING
    assert [row[2] + " " + row[5] for row in t.settlement_cells()] == ["Insurance PAY $10", "Base COLLECT $25"]
    assert t.view.settlement.nets.rows[-1][1] == ("+$15", "pay"), "the bank won: its net is not red"
    assert t.snap.dealer.cards == (parse_card("KH"), parse_card("AS"))


def test_a_check_by_hand_that_disagrees_with_the_shoe_is_refused(table):
    t = table("c21-8.0", ["9S", "5H", "7D", "KS"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 2_500)
    t.deal(4)
    assert t.view.prompt.text() == "Peek for a Natural"
    t.tap(t.bench.peek_buttons["timeout"])
    refused = t.supervise(ConfirmPeek(True, "Floor 1", "checked by hand"), t.pin)
    assert refused is not None and refused.code == "check_disagrees"
    assert refused.message.startswith("the check by hand does not match"), "the supervisor's screen shows it"
    assert t.snap.need is Need.CHECK_BY_HAND
    assert t.view.banner.message.text().startswith("PEEK FAILED (rule 6.2): the peek device answered timeout")


def test_a_wrong_pin_changes_nothing(table):
    t = table("c21-8.0", ["9S", "5H", "7D", "KS"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 2_500)
    t.deal(4)
    t.tap(t.bench.peek_buttons["timeout"])
    refused = t.supervise(ConfirmPeek(False, "Floor 1", "checked by hand"), "0000")
    assert refused is not None and refused.code == "wrong_pin"
    assert t.snap.need is Need.CHECK_BY_HAND


def test_inputs_from_a_reader_thread_reach_the_screen(table, qtbot):
    t = table("nobust-4.0", pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    t.tap(t.view.wagers.no_more_bets)
    rendered_on: list[threading.Thread] = []
    t.bridge.snapshot_changed.connect(lambda _: rendered_on.append(threading.current_thread()))
    reader = threading.Thread(target=t.bridge.submit, args=(CardDrawn(parse_card("QS")),))
    reader.start()
    reader.join()
    qtbot.waitUntil(lambda: bool(t.view.seats[1].hands) and t.view.seats[1].hands[0].cards.cards == (parse_card("QS"),))
    assert rendered_on == [threading.main_thread()]
    assert t.view.prompt.text() == "Deal to the player-dealer"


def test_a_device_fault_reported_from_a_thread_shows_in_the_banner(table, qtbot):
    t = table("nobust-4.0")
    reader = threading.Thread(
        target=t.controller.report, args=(Attention(AttentionKind.MISREAD, "the shoe could not read a card", "6.1"),)
    )
    reader.start()
    reader.join()
    qtbot.waitUntil(t.view.banner.isVisible)
    assert t.view.banner.message.text() == "MISREAD (rule 6.1): the shoe could not read a card"


def test_the_top_bar_shows_each_links_state_and_last_read(table, qtbot):
    t = table("nobust-4.0", ["7S"])
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal()
    assert "Shoe up · last 7S" in t.view.devices.labels["Shoe"].text()  # with room for it, the last read is shown
    assert t.view.devices.labels["Shoe"].toolTip() == "Shoe: up · last 7S"
    t.devices.link("Peek", False)
    qtbot.waitUntil(lambda: "Peek: link down" in t.view.devices.labels["Peek"].text())


def test_a_card_out_unread_holds_the_table_until_a_supervisor_names_it(table):
    t = table("nobust-4.0", ["TS"], pd_seat=4)
    t.wager(1, WagerKind.BASE, 1_000)
    t.deal()
    t.bridge.submit(CardsUnread(2, 2))
    assert (
        t.view.banner.message.text()
        == "MISREAD (rule 6.1): shoe card 2 left the shoe unread: a floor supervisor names it"
    )
    assert t.view.prompt.text() == "Hold shoe card 2 aside and call a floor supervisor" and not t.view.prompt.cut
    assert t.enabled_decisions() == set() and not t.view.wagers.no_more_bets.isEnabled()
    assert not t.view.banner.resolve.isVisible()
    t.deal()
    assert t.view.banner.message.text().startswith("Refused (rule 6.1): the round holds until shoe card 2 is named")
    assert t.supervise(KeyCard(parse_card("9H"), "Floor 1", "read by eye"), t.pin) is None
    assert not t.view.banner.isVisible()
    assert t.snap.dealer.cards == (parse_card("9H"),)

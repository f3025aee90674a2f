"""Corrections from the supervisor's screen: each needs the PIN and a typed reason, goes through
the table, and the rules' refusal is shown; what was accepted shows in recall afterwards."""

from __future__ import annotations

from PySide6.QtCore import Qt
from test_supervisor_helpers import journal, new_table, open_round, tap, tap_and_confirm, unlocked  # noqa: F401

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, CloseInsurance, Decide, PeekAnswered, PeekResult
from dealer_assist.table.session import TableState
from dealer_assist.table.session_inputs import CardsUnread, SettlementConfirmed, ShoeLoaded
from ui.common.confirm_overlay import open_confirmation


def _type(qtbot, window, supervisor: str, reason: str) -> None:
    view = window.corrections
    view.supervisor.clear()
    view.reason.clear()
    qtbot.keyClicks(view.supervisor, supervisor)
    qtbot.keyClicks(view.reason, reason)


def test_a_correction_without_a_reason_is_refused_and_changes_nothing(qtbot, journal):
    table = open_round(journal, "9H", "KD", "7H", "5D")
    window = unlocked(qtbot, table)
    window.tabs.setCurrentWidget(window.corrections)
    _type(qtbot, window, "floor-1", "   ")
    tap(qtbot, window.corrections.void)  # refused on the screen, before the question
    assert open_confirmation(window) is None
    assert (
        window.corrections.notice.isVisible()
        and window.corrections.notice.text() == "Give a reason first: tap one or type it"
    )
    assert table.session.tracker is not None and table.rounds_closed == 0
    assert not [r.body for r in read_records(table.path) if r.kind is RecordKind.REFUSED], "nothing reached the table"


def test_a_void_with_pin_and_reason_shows_in_recall_afterwards(qtbot, journal):
    table = open_round(journal, "9H", "KD")
    window = unlocked(qtbot, table)
    window.tabs.setCurrentWidget(window.corrections)
    assert window.corrections.status.text().startswith("Round 1 ·")
    _type(qtbot, window, "floor-1", "cards exposed")
    tap_and_confirm(qtbot, window.corrections.void, "Void round 1?")
    assert window.corrections.notice.text().startswith("Recorded: Round voided")
    assert window.corrections.reason.text() == "", "a reason is spent on one correction"
    assert table.rounds_closed == 1
    assert window.corrections.status.text().startswith("No round is open")
    window.tabs.setCurrentWidget(window.recall)
    view = window.recall
    assert view.rounds.item(0).text().startswith("Round 1 · voided")
    assert view.tabs.tabText(3) == "Corrections (1)"
    fix = view.corrections.item(0).text()
    assert "Round voided" in fix and "supervisor floor-1" in fix and "reason cards exposed" in fix
    assert view.nets.text() == "No ledger: the round was voided."
    while view.next.isEnabled():
        tap(qtbot, view.next)
    assert view.input.text().startswith("Void round") and "reason cards exposed" in view.input.text()


def test_re_keying_a_misread_card_picks_the_card_of_the_round_and_the_right_card(qtbot, journal):
    table = open_round(journal, "9H", "KD", "7H", "5D")  # seat 2: 9H 7H; the player-dealer KD 5D
    window = unlocked(qtbot, table)
    tap(qtbot, window.recall.next)
    tap(qtbot, window.recall.next)
    view = window.corrections
    window.tabs.setCurrentWidget(view)
    assert [view.cards.item(row).text() for row in range(view.cards.count())] == [
        "Card 1  ·  seat 2  ·  9♥",
        "Card 2  ·  dealer  ·  K♦",
        "Card 3  ·  seat 2  ·  7♥",
        "Card 4  ·  dealer  ·  5♦",
    ]
    _type(qtbot, window, "floor-1", "shoe misread 8H as 7H")
    tap(qtbot, view.rekey)
    assert view.notice.text() == "Pick the card of the round, then the right rank and suit"
    view.cards.setCurrentRow(2)
    for button in (*view.ranks.buttons(), *view.suits.buttons()):
        if button.text() in ("8", "♥"):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    tap_and_confirm(qtbot, view.rekey, "Re-key card 3 as 8♥?")
    assert view.notice.text().startswith("Recorded: Card rekeyed"), view.notice.text()
    assert [str(card) for card in table.session.tracker.hands[2][0].cards] == ["9H", "8H"]
    assert view.cards.item(2).text() == "Card 3  ·  seat 2  ·  8♥"
    assert window.recall.position.text() == "Input 3 of 7", "recall stays where the supervisor left it"


def test_a_misdealt_card_is_discarded_and_a_peek_confirmation_is_dimmed(qtbot, journal):
    table = open_round(journal, "TH", "KD", "8H", "9D")
    table.submit(Decide(2, 0, Action.STAND))
    table.submit(CardDrawn(parse_card("2C")))
    assert table.session.state is TableState.MISDEAL
    window = unlocked(qtbot, table)
    view = window.corrections
    window.tabs.setCurrentWidget(view)
    assert "misdeal held: 2♣" in view.status.text()
    assert not view.natural.isEnabled() and not view.no_natural.isEnabled(), "no peek to confirm"
    _type(qtbot, window, "floor-1", "card fell out of the shoe")
    tap_and_confirm(qtbot, view.discard, "Discard the misdealt card 2♣?")
    assert view.notice.text().startswith("Recorded: Misdeal discarded")
    assert table.session.state is TableState.ROUND and "misdeal" not in view.status.text()
    table.submit(SettlementConfirmed())
    assert table.rounds_closed == 1


def test_re_keying_the_hole_card_of_an_open_round_never_shows_it(qtbot, journal):
    table = open_round(journal, "9H", "KD", "7H", "5D", profile="c21-8.0")  # KD is the dealer's hole card
    window = unlocked(qtbot, table)
    view = window.corrections
    window.tabs.setCurrentWidget(view)
    assert view.cards.item(1).text() == "Card 2  ·  dealer  ·  ??"
    view.cards.setCurrentRow(1)
    for button in (*view.ranks.buttons(), *view.suits.buttons()):
        if button.text() in ("Q", "♠"):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    _type(qtbot, window, "floor-1", "hole card misread")
    tap_and_confirm(qtbot, view.rekey, "Re-key card 2 as Q♠?")
    assert view.notice.text().startswith("Recorded: Card rekeyed")
    shown = [view.notice.text(), *(view.cards.item(row).text() for row in range(view.cards.count()))]
    recall = window.recall
    window.tabs.setCurrentWidget(recall)
    shown += [recall.corrections.item(row).text() for row in range(recall.corrections.count())]
    while True:
        shown += [recall.input.text(), recall.operations.text()]
        if not recall.next.isEnabled():
            break
        tap(qtbot, recall.next)
    assert not [text for text in shown if "K♦" in text or "Q♠" in text], "the hole card stays masked"
    assert [str(card) for card in table.session.tracker.dealer] == ["QS", "5D"]


def test_a_card_out_of_the_shoe_between_rounds_is_shown_and_discarded(qtbot, journal):
    table = new_table(journal)
    table.submit(ShoeLoaded("S-1", 6))
    table.submit(CardDrawn(parse_card("2C")))
    window = unlocked(qtbot, table)
    view = window.corrections
    window.tabs.setCurrentWidget(view)
    assert view.status.text() == "No round is open: the table is holding a misdeal   ·   misdeal held: 2♣"
    _type(qtbot, window, "floor-3", "card dropped while the bank was offered")
    tap_and_confirm(qtbot, view.discard, "Discard the misdealt card 2♣?")
    assert view.notice.text().startswith("Recorded: Misdeal discarded")
    assert table.session.state is TableState.OFFERING_BANK
    assert view.status.text() == "No round is open: the table is offering the bank"


def test_a_peek_checked_by_hand_is_confirmed_with_a_reason(qtbot, journal):
    table = open_round(journal, "9H", "5D", "7H", "AS", profile="c21-8.0")  # Ace up, 5D in the hole
    table.submit(CloseInsurance())
    table.submit(PeekAnswered(PeekResult.TIMEOUT))
    assert table.session.tracker.phase.value == "held"
    window = unlocked(qtbot, table)
    view = window.corrections
    window.tabs.setCurrentWidget(view)
    _type(qtbot, window, "floor-1", "")
    tap(qtbot, view.no_natural)
    assert (
        view.notice.text() == "Give a reason first: tap one or type it"
    )  # said by the screen, never sent to be refused
    _type(qtbot, window, "floor-1", "peek timed out; hole card lifted and checked by hand")
    tap(qtbot, view.no_natural)
    assert view.notice.text().startswith("Recorded: "), view.notice.text()
    assert table.session.tracker.phase.value != "held"
    window.tabs.setCurrentWidget(window.recall)
    fix = window.recall.corrections.item(0).text()
    assert "Peek confirmed" in fix and "natural no" in fix and "supervisor floor-1" in fix


def test_a_card_out_unread_is_named_with_the_picker_and_a_hole_card_stays_masked(qtbot, journal):
    table = open_round(journal, "9H", profile="c21-8.0")  # the next card is the dealer's hole card
    shoe_card = table.session.s.shoe_cards + 1
    table.submit(CardsUnread(shoe_card, shoe_card))
    window = unlocked(qtbot, table)
    view = window.corrections
    window.tabs.setCurrentWidget(view)
    assert view.status.text().endswith(f"out unread: shoe card {shoe_card}")
    _type(qtbot, window, "floor-1", "read by eye")
    tap(qtbot, view.name_card)
    assert view.notice.text() == "Pick the rank and suit of the card out unread"
    for button in (*view.ranks.buttons(), *view.suits.buttons()):
        if button.text() in ("K", "♦"):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    tap(qtbot, view.name_card)
    assert view.notice.text().startswith("Recorded: Card keyed"), view.notice.text()
    assert [str(card) for card in table.session.tracker.dealer] == ["KD"]
    assert "unread" not in view.status.text()
    assert view.cards.item(1).text() == "Card 2  ·  dealer  ·  ??"
    window.tabs.setCurrentWidget(window.recall)
    fix = window.recall.corrections.item(0).text()
    assert "Card keyed" in fix and "card ??" in fix and "K♦" not in fix

"""The supervisor's screens check before they ask: a correction that can do nothing is dimmed, one
without a supervisor's name or a reason says what is missing instead of asking to confirm, and
Escape still gives the table back after a question was asked."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QPushButton
from pytestqt.qtbot import QtBot
from test_supervisor_helpers import PIN, journal, new_table, open_round, tap, unlocked  # noqa: F401

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, CloseInsurance, Decide, PeekAnswered, PeekResult
from dealer_assist.table.session import TableState
from dealer_assist.table.session_inputs import CardsUnread, ShoeLoaded
from ui.common.confirm_overlay import open_confirmation
from ui.supervisor.supervisor_window import SupervisorWindow


def _corrections(qtbot, table):
    window = unlocked(qtbot, table)
    window.tabs.setCurrentWidget(window.corrections)
    return window


def _lit(view) -> set[str]:
    return {
        button.text()
        for button in (view.void, view.discard, view.natural, view.no_natural, view.rekey, view.name_card)
        if button.isEnabled()
    }


def test_with_no_round_open_only_what_can_be_done_is_lit(qtbot, journal):
    table = new_table(journal)
    table.submit(ShoeLoaded("S-1", 6))
    window = _corrections(qtbot, table)
    view = window.corrections
    assert view.status.text().startswith("No round is open")
    assert _lit(view) == set(), "no round to void, no card held, no peek to confirm, no card out unread"
    table.submit(CardDrawn(parse_card("2C")))  # out of the shoe before the round: held
    window.refresh()
    assert _lit(view) == {"Discard misdealt card"}


def test_in_a_round_each_correction_is_lit_when_it_can_be_made(qtbot, journal):
    table = open_round(journal, "TH", "KD", "8H", "9D")
    window = _corrections(qtbot, table)
    view = window.corrections
    assert _lit(view) == {"Void round", "Re-key the chosen card"}
    table.submit(Decide(2, 0, Action.STAND))
    table.submit(CardDrawn(parse_card("2C")))
    assert table.session.state is TableState.MISDEAL
    window.refresh()
    assert _lit(view) == {"Void round", "Discard misdealt card", "Re-key the chosen card"}


def test_a_peek_held_and_a_card_out_unread_light_their_corrections(qtbot, journal):
    table = open_round(journal, "9H", "5D", "7H", "AS", profile="c21-8.0")
    table.submit(CloseInsurance())
    table.submit(PeekAnswered(PeekResult.TIMEOUT))
    view = _corrections(qtbot, table).corrections
    assert _lit(view) == {"Void round", "Peek checked: Natural", "Peek checked: no Natural", "Re-key the chosen card"}
    other = open_round(journal.with_name("other.db"), "9H", profile="c21-8.0")
    shoe_card = other.session.s.shoe_cards + 1
    other.submit(CardsUnread(shoe_card, shoe_card))
    assert "Name the card out unread" in _lit(_corrections(qtbot, other).corrections)


@pytest.mark.parametrize(
    ("name", "reason", "missing"),
    [
        ("", "card fell out", "Name the supervisor first: tap a name or type one"),
        ("floor-1", "  ", "Give a reason first: tap one or type it"),
        ("", "", "Name the supervisor and give a reason first"),
    ],
)
def test_a_discard_without_a_name_or_a_reason_says_what_is_missing_and_asks_nothing(
    qtbot, journal, name, reason, missing
):
    table = open_round(journal, "TH", "KD", "8H", "9D")
    table.submit(Decide(2, 0, Action.STAND))
    table.submit(CardDrawn(parse_card("2C")))
    view = _corrections(qtbot, table).corrections
    view.supervisor.setText(name)
    view.reason.setText(reason)
    before = len(list(read_records(table.path)))
    for button in (view.discard, view.void):
        tap(qtbot, button)
        assert open_confirmation(view) is None, f"{button.text()} asked to confirm what the table would refuse"
        assert view.notice.isVisible() and view.notice.text() == missing
    assert len(list(read_records(table.path))) == before and table.session.state is TableState.MISDEAL


def test_a_peek_confirmed_or_a_card_named_without_a_name_or_a_reason_is_not_sent(qtbot, journal):
    table = open_round(journal, "9H", "5D", "7H", "AS", profile="c21-8.0")
    table.submit(CloseInsurance())
    table.submit(PeekAnswered(PeekResult.TIMEOUT))
    view = _corrections(qtbot, table).corrections
    view.supervisor.setText("floor-1")
    before = len(list(read_records(table.path)))
    for button in (view.natural, view.no_natural):
        tap(qtbot, button)
        assert view.notice.text() == "Give a reason first: tap one or type it"
    other = open_round(journal.with_name("other.db"), "9H", profile="c21-8.0")
    shoe_card = other.session.s.shoe_cards + 1
    other.submit(CardsUnread(shoe_card, shoe_card))
    unread = _corrections(qtbot, other).corrections
    unread.reason.setText("card fell out")
    for button in (*unread.ranks.buttons(), *unread.suits.buttons()):
        if button.text() in ("5", "♠"):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    unread_before = len(list(read_records(other.path)))
    tap(qtbot, unread.name_card)
    assert unread.notice.text() == "Name the supervisor first: tap a name or type one"
    assert len(list(read_records(table.path))) == before and len(list(read_records(other.path))) == unread_before, (
        "an incomplete correction reached the journal as a refusal"
    )


def test_a_re_key_without_a_reason_says_so_before_asking(qtbot, journal):
    table = open_round(journal, "9H", "KD", "7H", "5D")
    view = _corrections(qtbot, table).corrections
    view.supervisor.setText("floor-1")
    view.cards.setCurrentRow(2)
    for button in (*view.ranks.buttons(), *view.suits.buttons()):
        if button.text() in ("8", "♥"):
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    tap(qtbot, view.rekey)
    assert open_confirmation(view) is None
    assert view.notice.text() == "Give a reason first: tap one or type it"
    assert not [r for r in read_records(table.path) if r.kind is RecordKind.REFUSED]


def _escape() -> None:
    """Escape as a keyboard gives it: to the widget with the focus, else to the active window."""
    target = QApplication.focusWidget() or QApplication.activeWindow()
    assert target is not None, "nothing takes the keyboard"
    QtBot.keyClick(target, Qt.Key.Key_Escape)


@pytest.mark.parametrize("answer", ["Go back", "confirm"])
def test_escape_gives_the_table_back_after_a_question_was_asked(table, answer):
    t = table("nobust-4.0", ["9H", "KD", "7H", "5D"], pd_seat=4)
    t.window.windowHandle().requestActivate()  # the keyboard goes to the table's window, as on the screen
    t.qtbot.waitUntil(lambda: QApplication.activeWindow() is t.window)
    t.tap(t.window.findChild(QPushButton, "supervisor"))
    window = next(w for w in t.window.findChildren(SupervisorWindow) if w.isVisible())
    for digit in t.pin:
        t.tap(window.pad.keys[digit])
    t.tap(window.pad.enter)
    window.tabs.setCurrentWidget(window.recall)
    t.tap(window.close_table)
    question = open_confirmation(window)
    assert question is not None
    if answer == "Go back":
        t.tap(question.back)
    else:  # a correction asked and confirmed: the open round's void
        t.tap(question.back)
        fixes = window.corrections
        window.tabs.setCurrentWidget(fixes)
        fixes.supervisor.setText("floor-1")
        fixes.reason.setText("cards exposed")
        t.tap(fixes.void)
        t.tap(open_confirmation(window).yes)
        assert fixes.notice.text().startswith("Recorded: Round voided"), fixes.notice.text()
    assert window.isVisible()
    _escape()
    assert not window.isVisible(), "Escape left the supervisor's screens open"
    assert t.window.isVisible(), "and the table is there"

"""Recall on the supervisor's screen: the last rounds listed, every input of a round stepped
through in order with its operations, the ledger row by row, an open round's hole card masked."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPushButton
from test_supervisor_helpers import (
    PIN,
    assert_fits,
    journal,  # noqa: F401 (a fixture, taken by name)
    key_in,
    new_table,
    open_round,
    opened,
    play,
    played_table,
    tap,
    unlocked,
)

from dealer_assist.history.recall import HIDDEN, recall
from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.inputs import PlaceWager, WagerKind
from dealer_assist.rules.refusals import RuleError
from dealer_assist.table.roster import ROSTER_FILE
from dealer_assist.table.table_facts import table_facts
from dealer_assist.text.journal_text import card_code, describe
from dealer_assist.text.record_words import wager_name
from tests.screenshots import shoot
from ui.supervisor.corrections_view import REASONS

SIZES = [(1280, 800), (1920, 1080)]


def test_the_list_shows_the_last_rounds_newest_first(qtbot, journal):
    window = unlocked(qtbot, played_table(journal, 14))
    rounds = window.recall.rounds
    assert rounds.count() == 14 >= 10
    assert [rounds.item(row).text().split(" ·")[0] for row in range(rounds.count())] == [
        f"Round {n}" for n in range(14, 0, -1)
    ]
    assert window.recall.story is not None and window.recall.story.round_id == 14


def test_with_no_round_yet_recall_says_so_and_its_buttons_are_dimmed(qtbot, journal):
    table = new_table(journal)
    window = unlocked(qtbot, table)
    view = window.recall
    assert view.rounds.count() == 0 and view.story is None
    assert view.heading.text().startswith("No rounds yet")
    assert [button.isEnabled() for button in (view.previous, view.next, view.report)] == [False, False, False]
    tap(qtbot, window.lock)
    play(table, 1, seed=4)
    key_in(qtbot, window, PIN)
    assert view.story is not None and view.story.round_id == 1
    assert view.report.isEnabled() and view.next.isEnabled() and not view.previous.isEnabled()


def test_the_screens_open_again_on_the_newest_round(qtbot, journal):
    table = played_table(journal, 5)
    window = unlocked(qtbot, table)
    window.recall.rounds.setCurrentRow(3)  # round 2
    tap(qtbot, window.recall.next)
    tap(qtbot, window.lock)
    play(table, 7, seed=4)  # two more rounds close while the screens are locked
    key_in(qtbot, window, PIN)
    view = window.recall
    assert view.story is not None and view.story.round_id == 7 and view.rounds.currentRow() == 0
    assert view.position.text().startswith("Input 1 of ")


def test_stepping_through_a_round_shows_each_input_in_order_with_its_operations(qtbot, journal):
    table = played_table(journal, 12)
    window = unlocked(qtbot, table)
    view = window.recall
    view.rounds.setCurrentRow(3)  # round 9
    entry = recall(table.path, round_id=9)[0]
    assert view.heading.text().startswith("Round 9 · closed")
    assert not view.previous.isEnabled()
    shown = []
    while True:
        shown.append((view.record.text().split()[1], view.input.text(), view.operations.text()))
        if not view.next.isEnabled():
            break
        tap(qtbot, view.next)
    assert [record for record, _, _ in shown] == [f"#{event['seq']}" for event in entry["inputs"]]
    assert [text for _, text, _ in shown] == [describe(event) for event in entry["inputs"]]
    for (_, _, operations), event in zip(shown, entry["inputs"], strict=True):
        caused = [describe(op) for op in entry["operations"] if op["seq"] == event["seq"]]
        assert operations.split("\n") == [f"→ {op}" for op in caused] or (not caused and operations == "→ no operation")
    assert view.position.text() == f"Input {len(entry['inputs'])} of {len(entry['inputs'])}"
    tap(qtbot, view.previous)
    assert view.record.text().split()[1] == f"#{entry['inputs'][-2]['seq']}"


def test_the_ledger_lists_every_settlement_row_in_order_with_the_nets(qtbot, journal):
    table = played_table(journal, 10)
    window = unlocked(qtbot, table)
    view = window.recall
    ledger = recall(table.path, round_id=10)[0]["ledger"]
    rows = [
        [view.ledger.item(row, column).text() for column in range(view.ledger.columnCount())]
        for row in range(view.ledger.rowCount())
    ]
    assert [(r[0], r[2], r[4]) for r in rows] == [
        (str(s["seat"]), wager_name(s["wager"]), s["result"].replace("_", " ")) for s in ledger["settlements"]
    ]
    assert view.tabs.tabText(3) == "Corrections (0)"
    hands = [view.hands.item(row).text() for row in range(view.hands.count())]
    dealer = ledger["dealer"]
    assert hands[0].startswith("Dealer   ") and hands[0].endswith(
        "=  Natural"
        if dealer["status"] == "natural"
        else f"=  {dealer['total']}" + (" · over" if dealer["status"] == "over" else "")
    )
    assert [line.split("   ")[0] for line in hands[1:]] == [
        f"Seat {h['seat']} hand {h['hand'] + 1}" for h in ledger["hands"]
    ]
    nets = view.nets.text()
    for seat in ledger["seats"]:
        assert f"Seat {seat} " in nets
    assert f"Player-dealer Seat {ledger['player_dealer']['seat']}" in nets


def test_an_open_rounds_hole_card_stays_masked_on_every_screen(qtbot, journal):
    table = played_table(journal, 3, profile="c21-8.0")
    play_into_the_next_round(table)
    hole = next(op["card"] for op in _raw_ops(table) if op["type"] == "CardAssigned" and op["hidden"])
    window = unlocked(qtbot, table)
    view = window.recall
    assert view.story.state == "open"
    texts = [view.input.text()]
    while view.next.isEnabled():
        tap(qtbot, view.next)
        texts.append(view.input.text() + view.operations.text())
    hidden = [text for text in texts if "hidden yes" in text]
    assert hidden and all(f"card {HIDDEN}" in text and card_code(hole) not in text for text in hidden)
    cards = [window.corrections.cards.item(row).text() for row in range(window.corrections.cards.count())]
    assert any(text.endswith(HIDDEN) for text in cards)


def play_into_the_next_round(table) -> None:
    """The bench deals the next round up to its first decision: a round open for corrections."""
    player = BenchPlayer(3)
    while table.session.tracker is None or table.session.tracker.phase.value in ("betting", "dealing"):
        table.submit(player.next_input(table_facts(table.session)))


def _raw_ops(table) -> list[dict]:
    return [
        op
        for record in read_records(table.path)
        if record.kind is RecordKind.INPUT and record.round_id == table.session.round_id
        for op in record.body["ops"]
    ]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_recall_screen_fits_the_screen(qtbot, journal, size, tmp_path):
    name = f"{size[0]}x{size[1]}"
    (journal.parent / ROSTER_FILE).write_text("floor-1\nfloor-2\nM. Reyes\nJ. Okafor\nbadge 4417\nnight shift\n")
    table = played_table(journal, 12)
    play_into_the_next_round(table)
    window = opened(qtbot, table, size)
    tap(qtbot, window.pad.keys[PIN[0]])
    tap(qtbot, window.pad.keys[PIN[1]])
    assert_fits(window, size)
    shoot(window, tmp_path, f"supervisor-pin-{name}.png")
    key_in(qtbot, window, PIN[2:])
    for _ in range(6):
        tap(qtbot, window.recall.next)
    assert_fits(window, size)
    shoot(window, tmp_path, f"supervisor-recall-{name}.png")
    for tab in range(window.tabs.count()):
        window.tabs.setCurrentIndex(tab)
        assert_fits(window, size)
    window.tabs.setCurrentWidget(window.rotation)
    shoot(window, tmp_path, f"supervisor-rotation-{name}.png")
    fixes = window.corrections
    window.tabs.setCurrentWidget(fixes)
    assert len(fixes.findChildren(QPushButton, "chip")) == 6 + len(REASONS), "a full roster and every reason"
    shoot(window, tmp_path, f"supervisor-corrections-{name}.png")
    fixes.type_into(fixes.reason)
    assert_fits(window, size)  # the keyboard's page
    shoot(window, tmp_path, f"supervisor-keyboard-{name}.png")
    tap(qtbot, fixes.typing)
    for chip in ("floor-2", REASONS[0]):
        tap(qtbot, next(b for b in fixes.findChildren(QPushButton, "chip") if b.text() == chip))
    tap(qtbot, fixes.void)
    assert_fits(window, size)  # the question over it
    shoot(window, tmp_path, f"supervisor-confirm-{name}.png")


def test_device_records_and_refused_inputs_are_the_rounds_evidence(qtbot, journal):
    table = open_round(journal, "9H")
    table.note_device({"device": "shoe", "event": "link_down", "url": "socket://shoe:7000"})
    with pytest.raises(RuleError):
        table.submit(PlaceWager(3, WagerKind.BUSTER, 50_000))
    window = unlocked(qtbot, table)
    view = window.recall
    assert view.tabs.tabText(2) == "Devices (1) · refused (1)", "each count named for what it counts"
    lines = [view.evidence.item(row).text() for row in range(view.evidence.count())]
    assert len(lines) == 2
    assert lines[0].endswith(
        "Place wager  ·  seat 3 · kind Buster · amount $500  —  refused (rule 2.17): "
        "wagers are placed before the deal; the round is dealing"
    )
    assert "device shoe · event link_down · url socket://shoe:7000" in lines[1]


def test_one_round_closed_is_said_so_and_recall_says_who_dealt_it_on_the_screen_and_in_text(qtbot, journal, capsys):
    from dealer_assist.table.session_inputs import DealerSignIn
    from pit.shipping.journal_command import main as journal_command

    table = new_table(journal)
    table.submit(DealerSignIn("Ana R."))
    play(table, 1, seed=3)
    window = unlocked(qtbot, table)
    assert window.title.text().endswith("· 1 round closed"), window.title.text()
    heading = window.recall.heading.text()
    assert heading.startswith("Round 1 · closed") and heading.endswith("·   dealt by Ana R."), heading
    assert window.recall.rounds.item(0).text().split(" · ")[-1].endswith(" inputs")
    table.close()
    assert journal_command(["recall", str(journal)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == heading.replace("   ·   ", "   "), "the text says what the screen says, who dealt it included"

"""The one-round dispute report: written as a PDF from the recall screen, and saying everything the
journal says about the round, including whether the journal is intact."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess

import pytest
from test_supervisor_helpers import PIN, journal, open_round, played_table, tap, unlocked  # noqa: F401

from dealer_assist.history.recall import recall
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide
from dealer_assist.table.session_inputs import RekeyCard, SettlementConfirmed
from dealer_assist.text.journal_text import describe
from dealer_assist.text.round_story import HANDS_HEAD, LEDGER_HEAD
from ui.supervisor.dispute_report import report_html, write_report


def test_the_report_button_writes_a_pdf_of_the_shown_round(qtbot, journal):
    table = played_table(journal, 11)
    window = unlocked(qtbot, table)
    window.recall.rounds.setCurrentRow(1)  # round 10
    tap(qtbot, window.recall.report)
    pdf = journal.parent / "reports" / "T-5-round-10.pdf"
    assert window.notice.isVisible() and window.notice.text() == f"Dispute report saved: {pdf}"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert len(data) > 10_000, "a report of a whole round is more than a blank page"
    assert len(re.findall(rb"/Type\s*/Page\b", data)) >= 1


def test_the_report_names_the_table_every_input_the_ledger_and_the_verification(journal):
    table = played_table(journal, 6)
    entry = recall(table.path, round_id=5)[0]
    html = report_html(table.path, 5)
    assert "table T-5 · round 5" in html and "nobust-4.0" in html and "round closed" in html
    positions = [html.index(f"<td>#{event['seq']}</td>") for event in entry["inputs"]]
    assert positions == sorted(positions), "the inputs in journal order"
    for op in entry["operations"]:
        assert describe(op).replace("&", "&amp;") in html
    assert html.count("<tr>") >= len(entry["inputs"]) + len(entry["ledger"]["settlements"])
    assert "INTACT" in html and "DAMAGED" not in html
    assert f"Player-dealer net: <b>Seat {entry['ledger']['player_dealer']['seat']}" in html


def test_a_damaged_journal_is_reported_as_damaged(journal, tmp_path):
    table = played_table(journal, 4)
    table.close()
    copy = tmp_path / "copy.db"
    shutil.copy(journal, copy)
    db = sqlite3.connect(copy)
    db.execute(
        "UPDATE records SET body = replace(body, '\"seat\":2', '\"seat\":3') WHERE seq = "
        "(SELECT min(seq) FROM records WHERE round_id = 2 AND body LIKE '%\"seat\":2%')"
    )
    db.commit()
    db.close()
    html = report_html(copy, 2)
    assert "DAMAGED" in html and "does not match its hash" in html


def test_the_report_of_an_open_round_keeps_the_hole_card_masked(journal):
    table = open_round(journal, "9H", "KD", "7H", "5D", profile="c21-8.0")  # KD is the dealer's hole card
    html = report_html(table.path, 1)
    assert "round open" in html and "card ??" in html and "K♦" not in html
    assert "No ledger yet: the round is open." in html


def test_the_report_carries_the_bank_the_final_hands_the_dealers_cards_and_the_corrections(journal):
    table = open_round(journal, "9H", "KD", "7H", "5D")  # seat 1 banks $500; seat 2: 9H 7H; the player-dealer KD 5D
    table.supervise(RekeyCard(2, parse_card("8H"), "floor-1", "shoe misread 8H as 7H"), PIN)
    table.submit(Decide(2, 0, Action.STAND))
    table.submit(CardDrawn(parse_card("KC")))  # the player-dealer hits hard 15: over
    table.submit(SettlementConfirmed())
    html = report_html(table.path, 1)
    ledger = recall(table.path, round_id=1)[0]["ledger"]
    assert "Player-dealer's bank: <b>Seat 1 banks $500</b>" in html
    hands = html[html.index("<h2>Final hands</h2>") : html.index("<h2>Inputs")]
    assert "<td><b>Dealer</b></td><td>—</td><td>K♦ 5♦ K♣</td><td>25 · over</td>" in hands
    assert "<td><b>Seat 2</b></td><td>1</td><td>9♥ 8♥</td><td>17</td>" in hands
    assert ledger["dealer"]["total"] == 25 and ledger["hands"][0]["total"] == 17
    assert "Card assigned  ·  dealer · card K♦" in html and "seat None" not in html
    fixes = html[html.index("<h2>Corrections</h2>") : html.index("<h2>Refused")]
    assert "Card rekeyed" in fixes and "supervisor floor-1" in fixes and "was 7♥ · now 8♥" in fixes
    assert "$" in html and not re.search(r"amount \d{3,}\b", html), "amounts in dollars, never cents"


@pytest.mark.slow
def test_every_page_of_a_damaged_journals_report_names_the_damage_and_its_first_bad_record(qapp, journal, tmp_path):
    table = played_table(journal, 6)
    table.close()
    copy = tmp_path / "copy.db"
    shutil.copy(journal, copy)
    db = sqlite3.connect(copy)
    (seq,) = db.execute("SELECT min(seq) FROM records WHERE round_id = 3").fetchone()
    db.execute("UPDATE records SET body = replace(body, '\"amount\":', '\"amount\": ') WHERE seq = ?", (seq,))
    db.commit()
    db.close()
    biggest = max(range(1, 7), key=lambda r: len(recall(copy, round_id=r)[0]["inputs"]))
    report = write_report(copy, biggest, tmp_path / "report.pdf")
    pdf = report.path
    assert report.damage is not None and f"first bad record #{seq}" in report.damage
    ghostscript = shutil.which("gs")
    assert ghostscript is not None, "Ghostscript reads the PDF back as text"
    subprocess.run(
        [
            ghostscript,
            "-q",
            "-dNOPAUSE",
            "-dBATCH",
            "-sDEVICE=txtwrite",
            f"-sOutputFile={tmp_path}/page-%d.txt",
            str(pdf),
        ],
        check=True,
    )
    pages = sorted(tmp_path.glob("page-*.txt"))
    assert len(pages) >= 2, "a long round runs over more than one page"
    for page in pages:
        top = page.read_text().replace("\t", " ").splitlines()[0]  # the extracted text keeps the "fi" ligature
        assert top.strip().startswith("DAMAGED JOURNAL ·") and f"bad record #{seq} ·" in top, (page.name, top)


def test_every_page_is_numbered_and_a_table_goes_on_under_its_heading_row(qapp, journal, tmp_path):
    table = played_table(journal, 6)
    biggest = max(range(1, 7), key=lambda r: len(recall(table.path, round_id=r)[0]["inputs"]))
    pdf = write_report(table.path, biggest, tmp_path / "report.pdf").path
    subprocess.run(
        ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=txtwrite", f"-sOutputFile={tmp_path}/page-%d.txt", str(pdf)],
        check=True,
    )
    pages = [
        [" ".join(line.split()) for line in path.read_text().splitlines() if line.strip()]
        for path in sorted(tmp_path.glob("page-*.txt"), key=lambda p: int(p.stem.split("-")[1]))
    ]
    assert len(pages) >= 2, "a long round runs over more than one page"
    for number, lines in enumerate(pages, start=1):
        assert lines[-1] == f"page {number} of {len(pages)}", (number, lines[-1])
    headings = {"Record Time Input ³ operations", " ".join(LEDGER_HEAD), "Record Time What", " ".join(HANDS_HEAD)}
    for number, lines in enumerate(pages[1:], start=2):
        top = lines[0]
        assert top in headings or not re.match(r"(#\d+|³|\d+ )", top), (
            f"page {number} goes on with a row, no heading: {top}"
        )

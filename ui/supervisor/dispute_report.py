"""The one-round dispute report as a PDF: the table, the round and its times, the player-dealer's
bank, the final hands with their totals (the dealer's labelled as the dealer's), every input with
the operations it caused, the evidence, the corrections, the mispays and late changes the wager
reader found, who dealt, the ledger and the journal's verification,
on paper the floor supervisor can hand over. Hands and cards are counted from 1, amounts are in
dollars. Drawn by Qt's own PDF writer, no other dependency."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

from dealer_assist.history.recall import recall
from dealer_assist.journal.journal_file import Verdict
from dealer_assist.journal.record_source import RecordSource, as_source, verify_source
from dealer_assist.table.header import table_config
from dealer_assist.text.round_story import HANDS_HEAD, LEDGER_HEAD, Evidence, RoundStory, story
from ui.common.screen_font import FAMILY

CSS = f"""
body {{ font-family: '{FAMILY}'; font-size: 8pt; color: #000; }}
h1 {{ font-size: 16pt; margin: 0; }} h2 {{ font-size: 11pt; margin-top: 12pt; }}
table {{ border-collapse: collapse; }} td, th {{ padding: 2pt 5pt; border: 0.5pt solid #888; vertical-align: top; }}
th {{ background: #e4e8ee; text-align: left; }} .op {{ color: #333; }} .bad {{ color: #b00000; font-weight: bold; }}
.ok {{ color: #006020; font-weight: bold; }}
"""
NARROW = (10, 16, 74)  # record and time columns stay narrow, the text takes the rest


def _table(head: tuple[str, ...], rows: Sequence[tuple[str, ...]], widths: tuple[int, ...] = ()) -> str:
    """A table whose heading row is repeated at the top of every page it continues on."""
    cells = "".join(
        f"<th width='{width}%'>{escape(h)}</th>" if width else f"<th>{escape(h)}</th>"
        for h, width in zip(head, widths or (0,) * len(head), strict=False)
    )
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table width='100%' cellspacing='0'><thead><tr>{cells}</tr></thead>{body}</table>"


def _evidence(title: str, rows: tuple[Evidence, ...], empty: str) -> str:
    if not rows:
        return f"<h2>{title}</h2><p>{empty}</p>"
    return f"<h2>{title}</h2>" + _table(
        ("Record", "Time", "What"), [(f"#{r.seq}", r.time, escape(r.text)) for r in rows], NARROW
    )


def report_html(where: RecordSource | Path, round_id: int, verdict: Verdict | None = None) -> str:
    """The report's text: what the journal says about one round, and whether the journal is intact
    (`verdict`, when the journal was just verified)."""
    journal = as_source(where)
    config = table_config(journal)
    told: RoundStory = story(recall(journal, round_id=round_id)[0])
    verdict = verdict or verify_source(journal)
    check = (
        f"<span class='ok'>INTACT</span> — {escape(verdict.message)}"
        if verdict.ok
        else f"<span class='bad'>DAMAGED</span> — {escape(verdict.message)}"
    )
    steps = [
        (
            f"#{step.seq}",
            step.time,
            escape(step.text) + "".join(f"<br/><span class='op'>→ {escape(op)}</span>" for op in step.operations),
        )
        for step in told.steps
    ]
    ledger = _table(LEDGER_HEAD, [(*r.cells[:-1], f"<b>{r.amount}</b>") for r in told.ledger])
    nets = " &nbsp; ".join(f"{seat}: <b>{net}</b>" for seat, net in told.seat_nets)
    pd = f"<p>Player-dealer net: <b>{told.player_dealer_net}</b></p>" if told.player_dealer_net else ""
    hands = (
        _table(
            HANDS_HEAD,
            [(f"<b>{escape(h.owner)}</b>", h.hand or "—", escape(h.cards), escape(h.total)) for h in told.hands],
        )
        if told.hands
        else "<p>No final hands: the round was voided.</p>"
        if told.state == "voided"
        else "<p>No final hands yet: the round is open.</p>"
    )
    bank = f"Player-dealer's bank: <b>{escape(told.bank)}</b><br/>" if told.bank else ""
    dealers = f"Dealt by: <b>{escape(told.dealers)}</b><br/>" if told.dealers else "Dealt by: no dealer signed in<br/>"
    settled = (
        f"{ledger}<p>Seat nets: {nets}</p>{pd}"
        if told.ledger
        else "<p>No ledger: the round was voided.</p>"
        if told.state == "voided"
        else "<p>No ledger yet: the round is open.</p>"
    )
    return f"""<html><head><style>{CSS}</style></head><body>
<h1>Dispute report · table {escape(config.table_id)} · round {told.round_id}</h1>
<p>Profile {escape(config.profile)} · round {escape(told.state)} · started {told.started} · ended {told.ended} ·
journal records {told.records}<br/>{bank}{dealers}Journal {escape(journal.name)}<br/>Journal verification: {check}<br/>
Report made {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC</p>
<h2>Final hands</h2>{hands}
<h2>Inputs and the operations they caused</h2>{_table(("Record", "Time", "Input → operations"), steps, NARROW)}
{_evidence("Corrections", told.corrections, "No corrections.")}
{_evidence("Mispays", told.mispays, "No mispays.")}
{_evidence("Late changes", told.late_changes, "No late changes.")}
{_evidence("Refused inputs", told.refused, "No refused inputs.")}
{_evidence("Device records", told.devices, "No device records during the round.")}
<h2>Ledger</h2>{settled}
</body></html>"""


def damage_mark(verdict: Verdict) -> str | None:
    """The line every page of the report carries when the journal failed its check."""
    if verdict.ok:
        return None
    first = f"first bad record #{verdict.first_bad} · " if verdict.first_bad is not None else ""
    return f"DAMAGED JOURNAL · {first}{verdict.message}"


@dataclass(frozen=True, slots=True)
class Report:
    """A report written: where, and the damage line its pages carry (None for an intact journal)."""

    path: Path
    damage: str | None


def write_report(journal: RecordSource | Path, round_id: int, pdf: Path) -> Report:
    """Write the report of round `round_id` to `pdf` (US Letter, printable margins), "page N of M"
    at the foot of every page. The journal is verified first; a damaged one is still reported,
    with the damage and its first bad record at the top of every page."""
    source = as_source(journal)
    verdict = verify_source(source)
    mark = damage_mark(verdict)
    pdf.parent.mkdir(parents=True, exist_ok=True)
    writer = QPdfWriter(str(pdf))
    writer.setTitle(f"Dispute report, round {round_id}" + (" (DAMAGED JOURNAL)" if mark else ""))
    writer.setPageLayout(
        QPageLayout(
            QPageSize(QPageSize.PageSizeId.Letter),
            QPageLayout.Orientation.Portrait,
            QMarginsF(15, 15, 15, 15),
            QPageLayout.Unit.Millimeter,
        )
    )
    document = QTextDocument()
    document.documentLayout().setPaintDevice(writer)
    document.setHtml(report_html(source, round_id, verdict))
    page = writer.pageLayout().paintRectPixels(writer.resolution())
    band = writer.resolution() // 2 if mark else 0  # half an inch: the damage in up to two lines
    foot = writer.resolution() // 4  # a quarter inch: the page's number, so a page out of order is seen
    height = page.height() - band - foot
    document.setPageSize(QSizeF(page.width(), height))
    painter = QPainter(writer)
    font = QFont(FAMILY)
    font.setPointSize(9)
    font.setBold(True)
    numbers = QFont(FAMILY)
    numbers.setPointSize(8)
    pages = document.pageCount()
    for number in range(pages):
        if number:
            writer.newPage()
        if mark:
            painter.setFont(font)
            painter.setPen(QColor("#b00000"))
            painter.drawText(
                QRectF(0, 0, page.width(), band),
                int(Qt.AlignmentFlag.AlignVCenter) | int(Qt.TextFlag.TextWordWrap),
                mark,
            )
        painter.setFont(numbers)
        painter.setPen(QColor("#000"))
        painter.drawText(
            QRectF(0, page.height() - foot, page.width(), foot),
            int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom),
            f"page {number + 1} of {pages}",
        )
        painter.save()
        painter.translate(0, band - number * height)
        document.drawContents(painter, QRectF(0, number * height, page.width(), height))
        painter.restore()
    painter.end()
    return Report(pdf, mark)

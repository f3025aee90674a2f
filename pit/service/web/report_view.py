"""The reports as a manager reads them: a shift's row per table and a dealer's row per dealer, the
same rows as CSV, and their charts drawn on the server (SVG, classes only: the pages' Content-Security-
Policy allows no inline style), so a page needs no script and prints as it shows."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape

from markupsafe import Markup

from dealer_assist.text.journal_text import units
from pit.service.floor.data import DealerReport, ShiftReport

SHIFT_COLUMNS = (
    "table_id",
    "room",
    "from",
    "to",
    "rounds",
    "fees_players",
    "fees_player_dealer",
    "drop",
    "player_dealer_net",
    "corrections",
    "largest_payout",
)
DEALER_COLUMNS = (
    "dealer",
    "from",
    "to",
    "tables",
    "hours",
    "rounds",
    "rounds_per_hour",
    "taps",
    "taps_per_round",
    "late_changes",
    "mispays",
)
NO_DEALER_TEXT = "no dealer signed in"
MAX_BARS = 24
LABEL_CHARACTERS = 20  # a dealer's name on the chart; the whole name is its tooltip and in the table


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    players: float  # fees from players, currency units
    player_dealer: float  # fees from player-dealers

    @property
    def drop(self) -> float:
        return self.players + self.player_dealer


def summary(
    table_id: str, start: datetime, end: datetime, report: ShiftReport, room: str | None = None
) -> dict[str, Any]:
    """One table's shift in the CSV's columns (its room at a head office); amounts in currency units."""
    fees = report["fees"]
    payouts = [row["amount"] for row in report["largest_payouts"]]
    return {
        "table_id": table_id,
        "room": room or "",
        "from": start.isoformat(),
        "to": end.isoformat(),
        "rounds": report["rounds"],
        "fees_players": fees["players"],
        "fees_player_dealer": fees["player_dealer"],
        "drop": round(fees["players"] + fees["player_dealer"], 2),
        "player_dealer_net": report["player_dealer_net"],
        "corrections": len(report["corrections"]),
        "largest_payout": max(payouts, default=0),
    }


def dealer_lines(start: datetime, end: datetime, report: DealerReport) -> list[dict[str, Any]]:
    """The per-dealer report in the CSV's columns: the tables dealt space-separated, no figure as blank."""
    return [
        {
            **row,
            "dealer": row["dealer"] or NO_DEALER_TEXT,
            "from": start.isoformat(),
            "to": end.isoformat(),
            "tables": " ".join(row["tables"]),
        }
        for row in report["dealers"]
    ]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def as_csv(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> str:
    """CSV for a spreadsheet: a text cell that a spreadsheet would run as a formula (a dealer's name
    typed as "=HYPERLINK(...)") is written with a leading apostrophe; numbers are left as they are."""
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(
        {
            key: f"'{value}" if isinstance(value, str) and value.startswith(FORMULA_START) else value
            for key, value in row.items()
        }
        for row in rows
    )
    return out.getvalue()


def slices(start: datetime, end: datetime) -> list[tuple[datetime, datetime]]:
    """The shift cut into hours, or into 24 equal parts when it is longer than a day."""
    hours = max(1, round((end - start).total_seconds() / 3600))
    count = min(hours, MAX_BARS)
    step = (end - start) / count
    return [(start + step * i, start + step * (i + 1)) for i in range(count)]


def bar_chart(bars: list[Bar], title: str) -> Markup:
    """Stacked bars (players' fees below, player-dealers' above) with the drop written on each."""
    width, height, left, bottom, top = 960, 360, 70, 56, 30
    plot_w, plot_h = width - left - 20, height - bottom - top
    peak = max((bar.drop for bar in bars), default=0.0) or 1.0
    slot = plot_w / max(1, len(bars))
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - 20}" y2="{top + plot_h}" class="axis"/>',
        f'<text x="{left - 8}" y="{top + 6}" class="tick" text-anchor="end">{units(peak)}</text>',
        f'<text x="{left - 8}" y="{top + plot_h}" class="tick" text-anchor="end">$0</text>',
    ]
    for i, bar in enumerate(bars):
        x = left + i * slot + slot * 0.15
        w = slot * 0.7
        base = top + plot_h
        h_players = plot_h * bar.players / peak
        h_pd = plot_h * bar.player_dealer / peak
        parts.append(
            f'<rect x="{x:.1f}" y="{base - h_players:.1f}" width="{w:.1f}" height="{h_players:.1f}" class="players"/>'
        )
        parts.append(
            f'<rect x="{x:.1f}" y="{base - h_players - h_pd:.1f}" width="{w:.1f}" height="{h_pd:.1f}" class="pd"/>'
        )
        if bar.drop:
            parts.append(
                f'<text x="{x + w / 2:.1f}" y="{base - h_players - h_pd - 6:.1f}" class="value" '
                f'text-anchor="middle">{units(bar.drop)}</text>'
            )
        parts.append(
            f'<text x="{x + w / 2:.1f}" y="{base + 26}" class="label" text-anchor="middle">{escape(bar.label)}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def rate_chart(rates: list[tuple[str, float]], title: str) -> Markup:
    """A bar per dealer, lying down so that a name of any length has its place on the left, with the
    rate written at the bar's end."""
    width, left, right, top, row = 960, 250, 90, 8, 46
    plot_w, height = width - left - right, 2 * top + row * max(1, len(rates))
    peak = max((rate for _, rate in rates), default=0.0) or 1.0
    parts = [
        f'<svg class="chart rates" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - top}" class="axis"/>',
    ]
    for i, (label, rate) in enumerate(rates):
        y, w = top + i * row, plot_w * rate / peak
        shown = label if len(label) <= LABEL_CHARACTERS else label[: LABEL_CHARACTERS - 1] + "…"
        parts.append(
            f'<text x="{left - 12}" y="{y + row / 2 + 6:.1f}" class="label" text-anchor="end">'
            f"<title>{escape(label)}</title>{escape(shown)}</text>"
        )
        parts.append(f'<rect x="{left}" y="{y + 9}" width="{w:.1f}" height="{row - 18}" class="rate"/>')
        parts.append(f'<text x="{left + w + 10:.1f}" y="{y + row / 2 + 6:.1f}" class="value">{rate:.1f}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))

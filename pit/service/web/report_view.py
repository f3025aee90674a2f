"""A shift report as a manager reads it: one row per table, the same rows as CSV, and the drop as a
bar chart drawn on the server (SVG), so the page needs no script and prints as it shows."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from xml.sax.saxutils import escape

from pit.service.data import ShiftReport
from markupsafe import Markup

from dealer_assist.text.journal_text import units

CSV_COLUMNS = ("table_id", "room", "from", "to", "rounds", "fees_players", "fees_player_dealer", "drop",
               "player_dealer_net", "corrections", "largest_payout")
MAX_BARS = 24


@dataclass(frozen=True, slots=True)
class Bar:
    label: str
    players: float  # fees from players, currency units
    player_dealer: float  # fees from player-dealers

    @property
    def drop(self) -> float:
        return self.players + self.player_dealer


def summary(table_id: str, start: datetime, end: datetime, report: ShiftReport, room: str | None = None
            ) -> dict[str, Any]:
    """One table's shift in the CSV's columns (its room at a head office); amounts in currency units."""
    fees = report["fees"]
    payouts = [row["amount"] for row in report["largest_payouts"]]
    return {
        "table_id": table_id, "room": room or "", "from": start.isoformat(), "to": end.isoformat(), "rounds": report["rounds"],
        "fees_players": fees["players"], "fees_player_dealer": fees["player_dealer"],
        "drop": round(fees["players"] + fees["player_dealer"], 2), "player_dealer_net": report["player_dealer_net"],
        "corrections": len(report["corrections"]), "largest_payout": max(payouts, default=0),
    }


def as_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
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
    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" '
             f'xmlns="http://www.w3.org/2000/svg">',
             f'<line x1="{left}" y1="{top + plot_h}" x2="{width - 20}" y2="{top + plot_h}" class="axis"/>',
             f'<text x="{left - 8}" y="{top + 6}" class="tick" text-anchor="end">{units(peak)}</text>',
             f'<text x="{left - 8}" y="{top + plot_h}" class="tick" text-anchor="end">$0</text>']
    for i, bar in enumerate(bars):
        x = left + i * slot + slot * 0.15
        w = slot * 0.7
        base = top + plot_h
        h_players = plot_h * bar.players / peak
        h_pd = plot_h * bar.player_dealer / peak
        parts.append(f'<rect x="{x:.1f}" y="{base - h_players:.1f}" width="{w:.1f}" height="{h_players:.1f}" class="players"/>')
        parts.append(f'<rect x="{x:.1f}" y="{base - h_players - h_pd:.1f}" width="{w:.1f}" height="{h_pd:.1f}" class="pd"/>')
        if bar.drop:
            parts.append(f'<text x="{x + w / 2:.1f}" y="{base - h_players - h_pd - 6:.1f}" class="value" '
                         f'text-anchor="middle">{units(bar.drop)}</text>')
        parts.append(f'<text x="{x + w / 2:.1f}" y="{base + 26}" class="label" text-anchor="middle">{escape(bar.label)}</text>')
    parts.append("</svg>")
    return Markup("".join(parts))

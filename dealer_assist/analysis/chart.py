"""A bar chart of a bet's distribution as PNG bytes; the caller decides where they go."""
from __future__ import annotations

import io
from collections.abc import Sequence
from fractions import Fraction


def bar_chart_png(title: str, bars: Sequence[tuple[str, Fraction]]) -> bytes:
    """One bar per outcome on a log scale, so a 1-in-80,000 line is as readable as a 70% one.

    Outcomes that cannot happen (a suited 7-7-7 from two decks) have no bar.
    """
    from matplotlib.figure import Figure  # imported here: only a plot needs it

    shown = [(label, float(p)) for label, p in bars if p > 0]
    figure = Figure(figsize=(9, 4.8), dpi=100, layout="constrained")
    axes = figure.subplots()
    drawn = axes.bar([label for label, _ in shown], [p for _, p in shown], color="#2f6f4f")
    axes.bar_label(drawn, labels=[f"{p:.3g}" for _, p in shown], fontsize=8, padding=2)
    axes.set_yscale("log")
    axes.set_ylabel("probability (log scale)")
    axes.set_title(title)
    axes.tick_params(axis="x", labelrotation=30, labelsize=8)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()

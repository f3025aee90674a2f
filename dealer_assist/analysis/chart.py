"""Charts of the analyses as PNG bytes; the caller decides where they go.

matplotlib is imported inside each function, so only a plot pays for loading it, and through its
Figure class, so no window system or pyplot backend is ever chosen.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

__all__ = ["bar_chart_png", "interval_chart_png"]


def bar_chart_png(title: str, bars: Sequence[tuple[str, Fraction]]) -> bytes:
    """One bar per outcome on a log scale, so a 1-in-80,000 line is as readable as a 70% one.

    Outcomes that cannot happen (a suited 7-7-7 from two decks) have no bar.
    """
    shown = [(label, float(p)) for label, p in bars if p > 0]
    figure, axes = _axes(title)
    drawn = axes.bar([label for label, _ in shown], [p for _, p in shown], color=_GREEN)
    axes.bar_label(drawn, labels=[f"{p:.3g}" for _, p in shown], fontsize=8, padding=2)
    axes.set_yscale("log")
    axes.set_ylabel("probability (log scale)")
    axes.tick_params(axis="x", labelrotation=30, labelsize=8)
    return _png(figure)


def interval_chart_png(title: str, estimates: Sequence[tuple[str, float, float, float, float | None]]) -> bytes:
    """Each (label, estimate, low, high, exact or None) as a point with its confidence interval, in
    percent, and the exact figure beside it where one is known."""
    figure, axes = _axes(title)
    labels = [label for label, *_ in estimates]
    axes.errorbar(
        labels,
        [value * 100 for _, value, *_ in estimates],
        yerr=[
            [(value - low) * 100 for _, value, low, *_ in estimates],
            [(high - value) * 100 for _, value, _, high, _ in estimates],
        ],
        fmt="o",
        capsize=6,
        color=_GREEN,
        label="simulated, 95% interval",
    )
    known = [(label, exact * 100) for label, *_, exact in estimates if exact is not None]
    if known:
        axes.plot(
            [label for label, _ in known],
            [value for _, value in known],
            "x",
            color="#b22222",
            markersize=9,
            label="exact, full shoe",
        )
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_ylabel("edge, % of the wager")
    axes.legend()
    return _png(figure)


_GREEN = "#2f6f4f"


def _axes(title: str) -> tuple[Any, Any]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(9, 4.8), dpi=100, layout="constrained")
    axes = figure.subplots()
    axes.set_title(title)
    return figure, axes


def _png(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()

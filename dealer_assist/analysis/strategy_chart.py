"""The strategy as the printed card a card room posts beside the table: hard totals, soft totals and
pairs against each dealer column, one colour per move, the game's EV in the corner; PNG bytes."""

from __future__ import annotations

import io
from typing import Any

from dealer_assist.analysis.base_game import BaseGame
from dealer_assist.analysis.options import Move
from dealer_assist.analysis.strategy_table import VALUE_LABEL, best
from dealer_assist.rules.counts import count

__all__ = ["LETTER", "chart_columns", "strategy_chart_png", "strategy_rows"]

LETTER = {Move.HIT: "H", Move.STAND: "S", Move.DOUBLE: "D", Move.SPLIT: "P", Move.SURRENDER: "R"}
COLOUR = {
    Move.HIT: "#f4f1e8",
    Move.STAND: "#e8b04a",
    Move.DOUBLE: "#5fa05f",
    Move.SPLIT: "#6f8fcf",
    Move.SURRENDER: "#d9736b",
}
LEGEND = {Move.HIT: "hit", Move.STAND: "stand", Move.DOUBLE: "double", Move.SPLIT: "split", Move.SURRENDER: "surrender"}
PAIR_ORDER = ("A", *(VALUE_LABEL[v] for v in range(2, 11)))


def strategy_rows(game: BaseGame) -> list[tuple[str, list[str]]]:
    """The card's sections and their row labels, as the starting cells name them."""
    cells = {key for column in game.columns.values() for key in column.start}
    hard = [f"hard {t}" for t in range(4, 21) if f"hard {t}" in cells]
    soft = [f"soft {t}" for t in range(12, 21) if f"soft {t}" in cells]
    pairs = [f"pair {p}" for p in PAIR_ORDER if f"pair {p}" in cells]
    return [("Hard", hard), ("Soft", soft), ("Pairs", pairs)]


def chart_columns(game: BaseGame) -> list[str]:
    """The dealer columns a card prints, in its order: up cards 2 to T then A; the player-dealer's
    hands hard 4 to 20 then soft 12 to 20 (a player-dealer Natural ends play: no column)."""
    if game.profile.dealer_hole_card:
        order = [VALUE_LABEL[v] for v in (*range(2, 11), 1)]
    else:
        order = [f"hard {t}" for t in range(4, 21)] + [f"soft {t}" for t in range(12, 21)]
    return [label for label in order if label in game.columns and game.columns[label].start]


def strategy_chart_png(game: BaseGame) -> bytes:
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    columns = chart_columns(game)
    sections = strategy_rows(game)
    rows = sum(len(keys) + 1 for _, keys in sections)
    width = max(7.0, 1.6 + 0.42 * len(columns))
    figure = Figure(figsize=(width, 1.6 + 0.27 * rows), dpi=110, layout="constrained")
    axes: Any = figure.subplots()
    y = 0
    shown: set[Move] = set()
    for title, keys in sections:
        axes.text(-0.5, y, title, fontsize=9, fontweight="bold", va="center", ha="left")
        for x, label in enumerate(columns):
            axes.text(
                x + 1,
                y,
                label.replace("hard ", "h").replace("soft ", "s").replace("natural", "BJ"),
                fontsize=7,
                ha="center",
                va="center",
                fontweight="bold",
            )
        y += 1
        for key in keys:
            axes.text(
                0.4,
                y,
                key.split(" ", 1)[1] if title != "Pairs" else key.split()[1] * 2,
                fontsize=8,
                ha="right",
                va="center",
            )
            for x, label in enumerate(columns):
                moves = game.columns[label].start.get(key)
                if moves is None:
                    continue
                move = best(moves)
                shown.add(move)
                axes.add_patch(_cell(x + 1, y, COLOUR[move]))
                axes.text(x + 1, y, LETTER[move], fontsize=8, ha="center", va="center")
            y += 1
    axes.set_xlim(-0.6, len(columns) + 0.6)
    axes.set_ylim(y, -1.5)
    axes.axis("off")
    decks = "infinite deck" if game.decks is None else count(game.decks, "deck")
    seen = "dealer's up card" if game.profile.dealer_hole_card else "player-dealer's two cards"
    axes.set_title(f"{game.profile.title}: optimal strategy, {decks}, against the {seen}", fontsize=10)
    axes.text(
        len(columns) + 0.5,
        -1.2,
        f"player EV {game.ev:+.3%}",
        fontsize=9,
        ha="right",
        va="center",
        fontweight="bold",
        color="#2f6f4f" if game.ev >= 0 else "#a03030",
    )
    figure.legend(
        handles=[Patch(facecolor=COLOUR[m], edgecolor="grey", label=LEGEND[m]) for m in LETTER if m in shown],
        loc="outside lower center",
        ncols=len(shown),
        fontsize=8,
        frameon=False,
    )
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def _cell(x: float, y: float, colour: str) -> Any:
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=colour, edgecolor="#999999", linewidth=0.5)

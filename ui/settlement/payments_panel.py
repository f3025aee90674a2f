"""What the dealer settles now, before the round goes on (RULES.md §2.15, §2.17, §3.10, §5.4):
Lucky Lucky right after the deal, insurance once the peek has answered, a Natural as soon as the
dealer cannot have one. It covers the seats, as the settlement does, until the dealer taps Paid;
the shoe stays locked meanwhile. Each row reads as it will on the settlement, where it is then
named as settled before."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from dealer_assist.table.snapshot import TableSnapshot
from ui.settlement.settlement_panel import EARLY_NAMES, RowsPanel, settlement_rows

__all__ = ["PaymentsPanel"]


def step_title(snap: TableSnapshot) -> str:
    """'Settle now: Lucky Lucky · Natural' — the kinds of wager due, in settlement order."""
    kinds = [name for kind, name in EARLY_NAMES.items() if any(row.wager is kind for row in snap.due)]
    if not kinds:
        return "A Natural's cards go away now; it is paid at settlement"
    return "Settle now: " + " · ".join(kinds)


class PaymentsPanel(RowsPanel):
    """The rows due now, and the Naturals whose payment waits for the settlement."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Paid · go on", parent)
        # lines of its own, as the fees
        self.side_top.addWidget(QLabel("Pay and collect\ntop to bottom,\nbefore any\nmore cards."))

    def show_table(self, snap: TableSnapshot) -> None:
        self.title.setText(step_title(snap))
        self.confirm.setText("Paid · go on" if snap.due else "Cards away · go on")
        self.rows.show_rows(settlement_rows(snap.due, snap) if snap.due else [])
        self.scroller.setVisible(bool(snap.due))
        later = ", ".join(str(seat) for seat in snap.naturals_later)
        self.show_note(
            f"Natural of seat {later}: put the cards away and leave the wager;\nit is paid in its place"
            " at settlement (the bank may not reach it in full)."
            if later
            else ""
        )

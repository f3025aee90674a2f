"""Player-dealer rotation at a glance: who banks and for which turn, who the bank is offered to,
the seats that refused it and, under California's rotation limits, the time left before two
other player-dealers must have banked. Read from the table session; nothing decided here."""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtWidgets import QFormLayout, QFrame, QLabel, QVBoxLayout, QWidget

from dealer_assist.table import Table
from ui.text import money

TURNS = {1: "first turn", 2: "second turn"}


@dataclass(frozen=True, slots=True)
class RotationStatus:
    """The rotation as plain lines, in the order the screen shows them."""

    banker: str
    offer: str
    refused: str
    rotation: str
    time_left: str

    @classmethod
    def of(cls, table: Table) -> RotationStatus:
        session, s = table.session, table.session.s
        if not session.profile.player_dealer:
            house = f"the house banks: {session.profile.id} has no player-dealer"
            return cls(house, "—", "—", "off", "—")
        banker = "nobody yet"
        if s.pd_seat is not None:
            kind = " · proposition player" if s.pd_proposition else ""
            banker = f"seat {s.pd_seat} · bank {money(s.pd_bank)} · {TURNS.get(s.pd_turn, f'turn {s.pd_turn}')}{kind}"
            banker += "" if s.pd_ready or session.tracker is not None else " (banked the last round)"
        offer = "—" if s.offer_seat is None else f"seat {s.offer_seat} · {TURNS.get(s.offer_turn, f'turn {s.offer_turn}')}"
        refused = ", ".join(f"seat {seat}" for seat in s.declined) or "none"
        return cls(banker, offer, refused, *_rotation(table))


def _rotation(table: Table) -> tuple[str, str]:
    session, s = table.session, table.session.s
    if not session.config.rotation_rules:
        return "off", "—"
    if s.prop_seat is None:
        return "on · no proposition player has banked", "—"
    banked = ", ".join(f"seat {seat}" for seat in s.window_pds) or "none yet"
    rotation = f"on · proposition player seat {s.prop_seat} · other player-dealers since: {banked} ({len(s.window_pds)} of 2)"
    deadline = session.rotation_deadline()
    if deadline is None:
        return rotation, "—"
    left = math.ceil(deadline - table.clock())
    if left <= 0:
        return rotation, f"none: the window closed {-left // 60}:{-left % 60:02d} ago"
    return rotation, f"{left // 60}:{left % 60:02d}"


class RotationView(QFrame):
    """Rendered again every second while shown, so the time left counts down."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("panel")
        root = QVBoxLayout(self)
        root.setContentsMargins(20, 16, 20, 16)
        form = QFormLayout()
        form.setVerticalSpacing(18)
        form.setHorizontalSpacing(28)
        self.lines: dict[str, QLabel] = {}
        for key, title in (("banker", "Banks now"), ("offer", "Bank offered to"), ("refused", "Refused the bank"),
                           ("rotation", "Rotation limits"), ("time_left", "Time left for two others")):
            name = QLabel(title)
            name.setObjectName("muted")
            value = QLabel("")
            value.setObjectName("amount")
            value.setWordWrap(True)
            form.addRow(name, value)
            self.lines[key] = value
        root.addLayout(form)
        root.addStretch(1)

    def show_status(self, status: RotationStatus) -> None:
        for key, label in self.lines.items():
            label.setText(getattr(status, key))

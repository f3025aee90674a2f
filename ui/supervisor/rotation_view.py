"""Player-dealer rotation at a glance: who banks and for which turn, who the bank is offered to,
the seats that refused it and, under California's rotation limits, the time left before two
other player-dealers must have banked. Read from the supervisor snapshot; nothing decided here."""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtWidgets import QFormLayout, QFrame, QLabel, QVBoxLayout, QWidget

from dealer_assist.history.supervisor_snapshot import RotationFacts
from dealer_assist.text.journal_text import money

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
    def of(cls, r: RotationFacts) -> RotationStatus:
        if not r.player_dealer:
            return cls(f"the house banks: {r.profile_id} has no player-dealer", "—", "—", "off", "—")
        banker = "nobody yet"
        if r.pd_seat is not None:
            kind = " · proposition player" if r.pd_proposition else ""
            banker = f"seat {r.pd_seat} · bank {money(r.pd_bank)} · {TURNS.get(r.pd_turn, f'turn {r.pd_turn}')}{kind}"
            banker += "" if r.pd_ready or r.round_open else " (banked the last round)"
        offer = (
            "—" if r.offer_seat is None else f"seat {r.offer_seat} · {TURNS.get(r.offer_turn, f'turn {r.offer_turn}')}"
        )
        refused = ", ".join(f"seat {seat}" for seat in r.declined) or "none"
        return cls(banker, offer, refused, *_rotation(r))


def _rotation(r: RotationFacts) -> tuple[str, str]:
    if not r.rotation_rules:
        return "off", "—"
    if r.prop_seat is None:
        return "on · no proposition player has banked", "—"
    banked = ", ".join(f"seat {seat}" for seat in r.window_pds) or "none yet"
    rotation = (
        f"on · proposition player seat {r.prop_seat} · other player-dealers since: {banked} ({len(r.window_pds)} of 2)"
    )
    if r.deadline is None:
        return rotation, "—"
    left = math.ceil(r.deadline - r.now)
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
        for key, title in (
            ("banker", "Banks now"),
            ("offer", "Bank offered to"),
            ("refused", "Refused the bank"),
            ("rotation", "Rotation limits"),
            ("time_left", "Time left for two others"),
        ):
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

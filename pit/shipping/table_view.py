"""What a table's status message says about its game, beside what the shipper knows of the link.

The table's owner hands the shipper a `StatusSource`; the shipper calls it on its own thread, so the
source reads what the owner has already published: the table controller's snapshot and its device
lights, as `run` and `bench` both do.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.rules.money import to_units
from dealer_assist.table.snapshot import TableSnapshot

__all__ = ["snapshot_view"]


@dataclass(frozen=True, slots=True)
class TableView:
    profile: str
    round_id: int | None
    phase: str  # the round's phase while one is open, else the table's state between rounds
    player_dealer: dict[str, Any] | None = None  # {"seat", "bank" (currency units), "turn"}
    devices: dict[str, str] = field(default_factory=dict)  # device name -> "up" / "down"


StatusSource = Callable[[], TableView]


def snapshot_view(snapshot: Callable[[], TableSnapshot], devices: Callable[[], dict[str, str]]) -> StatusSource:
    """A status source over what a table controller last published: read whole, never torn."""

    def view() -> TableView:
        snap = snapshot()
        table = snap.table
        bank = snap.bank
        player_dealer = (
            None
            if bank is None
            else {"seat": bank.seat, "bank": to_units(bank.bank), "turn": table.pd_turn if table is not None else None}
        )
        phase = snap.phase.value if snap.phase is not None else (table.state.value if table is not None else "")
        return TableView(
            snap.profile_id, table.round_id if table is not None else None, phase, player_dealer, dict(devices())
        )

    return view

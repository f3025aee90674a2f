"""What a table session carries from one round to the next, as plain data: the closing record
keeps it whole, so a restarted table reopens exactly where its last round left it."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from dealer_assist.journal.errors import JournalCode, JournalError
from dealer_assist.rules.money import Cents


@dataclass
class BetweenRounds:
    """Everything the session carries from one round to the next; plain data for the journal."""

    round_id: int = 0
    pd_seat: int | None = None
    pd_bank: Cents = 0
    pd_turn: int = 0
    pd_proposition: bool = False
    pd_ready: bool = False
    offer_seat: int | None = None
    offer_turn: int = 1
    declined: list[int] = field(default_factory=list)  # seats that refused the bank since it was last taken
    shoe_id: str | None = None
    shoe_decks: int = 0
    shoe_cards: int = 0
    new_shoe_due: bool = False
    burn_left: int = 0
    prop_seat: int | None = None
    window_start: float | None = None
    window_pds: list[int] = field(default_factory=list)
    warned: list[int] = field(default_factory=list)
    dealer: str | None = None  # the house dealer signed in (RULES.md §8.25)
    reader_spots: list[str] = field(default_factory=list)  # the wager reader's spots in use (RULES.md §8.22)
    readings: dict[str, list[int]] = field(default_factory=dict)  # each read spot's last [chips, total, alien]
    reader_faulted: list[str] = field(default_factory=list)  # the reader's spots under a fault, keyed meanwhile
    reader_down: bool = False  # the reader's link went down and no scan has completed since
    # seat -> kind -> cents of the round closed last
    last_wagers: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def restored(cls, state: Mapping[str, Any]) -> BetweenRounds:
        """The state a closing record carried; a field this version does not know is an error
        naming it, not a crash on reopening the table."""
        known = {f.name for f in fields(cls)}
        carried: dict[str, Any] = {}
        for name, value in state.items():
            if name not in known:
                raise JournalError(JournalCode.BAD_RECORD, f"carried state: unknown field {name!r}")
            carried[name] = copy.deepcopy(value)
        return cls(**carried)

"""Where the table stands, as values: what a bench, autoplay or a benchmark plays by.

Those who play at a table or emulate its devices ask its owner (`TableController.facts`) and get
these facts, never the live session: the open round comes as a replica, on which a player model
may try its moves, so the table itself changes only by the inputs its owner takes.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass

from dealer_assist.rules.cards import Card
from dealer_assist.rules.inputs import Input
from dealer_assist.rules.money import Cents
from dealer_assist.rules.profile import Profile
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.session import TableSession, TableState
from dealer_assist.table.session_inputs import SpotReading
from dealer_assist.table.session_operations import PayoutDifference
from dealer_assist.table.snapshot import table_prompt
from dealer_assist.table.spots import Spot, parse_spot

__all__ = ["TableFacts", "table_facts"]


@dataclass(frozen=True)
class TableFacts:
    """`round` is a copy of the open round (None between rounds); `readings` each spot's last
    reading as the journal keeps it, in use or not; `settling` what each read spot settled in the
    step open now must hold; `chips_awaited` while a double or a split waits for its chips."""

    state: TableState
    prompt: str
    profile: Profile
    seats: int
    round_id: int
    shoe_id: str | None
    shoe_decks: int
    shoe_cards: int
    new_shoe_due: bool
    offer_seat: int | None
    declined: tuple[int, ...]
    round: RoundTracker | None
    round_inputs: tuple[Input, ...]
    reader_spots: frozenset[Spot]
    readings: Mapping[Spot, SpotReading]
    settling: Mapping[Spot, Cents]
    chips_awaited: bool
    differences: Mapping[Spot, PayoutDifference]

    @property
    def hole_card(self) -> Card | None:
        """The open round's hole card, once dealt."""
        return self.round.hole_card if self.round is not None else None

    @property
    def next_card_is_hole_card(self) -> bool:
        return self.round is not None and self.round.next_card_is_hole_card()


def table_facts(session: TableSession) -> TableFacts:
    """The facts of `session` now; nothing in them is shared with it."""
    s, tracker, reader = session.s, session.tracker, session.reader
    readings = {
        parse_spot(name): SpotReading(parse_spot(name), chips, total, alien)
        for name, (chips, total, alien) in s.readings.items()
    }
    replica = copy.deepcopy(tracker, {id(tracker.profile): tracker.profile}) if tracker is not None else None
    return TableFacts(
        state=session.state,
        prompt=table_prompt(session),
        profile=session.profile,
        seats=session.seats,
        round_id=s.round_id,
        shoe_id=s.shoe_id,
        shoe_decks=s.shoe_decks,
        shoe_cards=s.shoe_cards,
        new_shoe_due=s.new_shoe_due,
        offer_seat=s.offer_seat,
        declined=tuple(s.declined),
        round=replica,
        round_inputs=tuple(session.round_inputs),
        reader_spots=reader.spots,
        readings=readings,
        settling=reader.settling(tracker) if tracker is not None else {},
        chips_awaited=reader.round.awaited is not None,
        differences=dict(reader.round.differences),
    )

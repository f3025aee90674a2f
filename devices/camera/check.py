"""The camera against the round: the cards it places on the felt beside the cards the shoe reported.

DEVICES.md §4: placements are compared with the cards the shoe reported for each seat, and a
difference is shown to the dealer and journaled. The camera reads the codes on card faces, so it
cannot see a face-down hole card, a card under the next one of a fanned hand, or a card still on
its way: a reported card it does not see is no difference by itself. A card it places where the
shoe did not deal it is one, named with the card the shoe reported in that place, if any. Cards
come and go between frames, so a difference counts once it has lasted `settle_frames` frames, and
each round starts from a cleared felt (the last round's cards are collected).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealer_assist.rules.cards import Card
from dealer_assist.table.snapshot import TableSnapshot
from devices.camera.mismatch import Mismatch, MismatchKind, compare_placements
from devices.camera.placements import PlacementTracker
from devices.camera.reader import FrameReading

__all__ = ["CameraCheck", "CameraVerdict", "reported_by_zone"]

DEFAULT_SETTLE_FRAMES = 10
DEALER, DISCARD = "dealer", "discard"


def reported_by_zone(snap: TableSnapshot) -> dict[str, list[Card]]:
    """Zone -> the face-up cards the shoe reported there: each seat's hands, the dealer's shown cards."""
    zones = {f"seat_{seat.seat}": [card for hand in seat.hands for card in hand.cards] for seat in snap.seats}
    zones[DEALER] = [card for card in snap.dealer.cards if card is not None]
    return {zone: cards for zone, cards in zones.items() if cards}


def differences(reported: Mapping[str, Sequence[Card]], placed: Mapping[str, Sequence[Card]]) -> tuple[Mismatch, ...]:
    """What the camera's placements contradict: cards in the wrong zone, cards the shoe did not deal
    there, and with those the reported cards the camera does not see in the same zone. The discard
    tray is left out: burnt cards lie there stacked."""
    found = compare_placements(reported, {zone: cards for zone, cards in placed.items() if zone != DISCARD})
    crowded = {m.seen_zone for m in found if m.kind is MismatchKind.EXTRA_ON_TABLE}
    return tuple(m for m in found if m.kind is not MismatchKind.MISSING_ON_TABLE or m.expected_zone in crowded)


def describe(mismatches: Sequence[Mismatch], snap: TableSnapshot) -> str:
    """The dealer's words for the differences: the seat (and hand) or the dealer, and both cards."""
    unseen: dict[str | None, list[Card]] = {}
    for m in mismatches:
        if m.kind is MismatchKind.MISSING_ON_TABLE:
            unseen.setdefault(m.expected_zone, []).append(m.card)
    lines = []
    for m in mismatches:
        if m.kind is MismatchKind.WRONG_ZONE:
            lines.append(
                f"{m.card}: the shoe dealt it to {_place(m.expected_zone, snap, m.card)}, "
                f"the camera sees it at {_place(m.seen_zone, snap)}"
            )
        elif m.kind is MismatchKind.EXTRA_ON_TABLE and unseen.get(m.seen_zone):
            read = unseen[m.seen_zone].pop(0)
            lines.append(
                f"{_place(m.seen_zone, snap, read).capitalize()}: the shoe read {read}, the camera sees {m.card}"
            )
        elif m.kind is MismatchKind.EXTRA_ON_TABLE:
            lines.append(
                f"{_place(m.seen_zone, snap).capitalize()}: the camera sees {m.card}, the shoe dealt no such card there"
            )
    return "; ".join(lines)


def _place(zone: str | None, snap: TableSnapshot, card: Card | None = None) -> str:
    """`seat_3` as "seat 3", or "seat 3 hand 2" when the seat plays several hands and `card` is in one."""
    if zone == DEALER:
        return "the player-dealer" if snap.player_dealer_game else "the dealer"
    if zone is None or not zone.startswith("seat_") or not zone[5:].isdigit():
        return str(zone)
    number = int(zone[5:])
    hands = snap.seats[number - 1].hands if 1 <= number <= len(snap.seats) else ()
    holding = [hand.index for hand in hands if card is not None and card in hand.cards]
    return f"seat {number} hand {holding[0] + 1}" if len(hands) > 1 and holding else f"seat {number}"


@dataclass(frozen=True, slots=True)
class CameraVerdict:
    """The differences that now last, and the dealer's words for them; none: the camera agrees again."""

    mismatches: tuple[Mismatch, ...]
    message: str

    @property
    def banner(self) -> str:
        """The differences, then what to do and who does it: the journal keeps `message` alone."""
        return f"{self.message}. Dealer: check the card; a floor supervisor re-keys a misread, else tap OK"


class CameraCheck:
    """Frame by frame: places the cards read and compares them with the round. It speaks when a new
    difference has lasted, and when none is left; a difference going away while others last (a card
    put right, still placed for a few frames) is no news."""

    def __init__(self, placements: PlacementTracker | None = None, settle_frames: int = DEFAULT_SETTLE_FRAMES) -> None:
        self.placements = placements or PlacementTracker()
        self.settle_frames = settle_frames
        self.shown: tuple[Mismatch, ...] = ()  # the differences last told
        self._round: int | None = None
        self._candidate: tuple[Mismatch, ...] = ()
        self._lasted = 0

    def frame(self, reading: FrameReading, snap: TableSnapshot) -> CameraVerdict | None:
        """One frame against the table as it stands; a verdict when the lasting differences change."""
        round_id = snap.table.round_id if snap.table is not None else None
        if round_id != self._round:
            self._round, self.shown, self._candidate, self._lasted = round_id, (), (), 0
            self.placements.clear()
        self.placements.update(reading)
        reported = reported_by_zone(snap) if snap.phase is not None else {}
        found = differences(reported, self.placements.cards_by_zone()) if reported else ()
        self._candidate, self._lasted = found, self._lasted + 1 if found == self._candidate else 1
        if self._lasted < self.settle_frames or found == self.shown:
            return None
        news = not set(found) <= set(self.shown)
        self.shown = found
        return CameraVerdict(found, describe(found, snap)) if news or not found else None

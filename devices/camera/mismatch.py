"""The camera's placements against the cards the shoe reported: every difference, none resolved.

The shoe knows which card left it and the round tracker knows whose turn it was; the camera knows where
the card landed. When they disagree a person decides, so each difference becomes a record to show and
journal, and nothing here guesses which side is right.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.rules.cards import Card


class MismatchKind(StrEnum):
    MISSING_ON_TABLE = "missing_on_table"
    EXTRA_ON_TABLE = "extra_on_table"
    WRONG_ZONE = "wrong_zone"


@dataclass(frozen=True, slots=True)
class Mismatch:
    """expected_zone is where the shoe's report puts the card; seen_zone where the camera placed it."""

    kind: MismatchKind
    card: Card
    expected_zone: str | None
    seen_zone: str | None

    @property
    def message(self) -> str:
        """What the dealer is shown."""
        if self.kind is MismatchKind.MISSING_ON_TABLE:
            return f"{self.card}: the shoe dealt it to {self.expected_zone}, the camera does not see it there"
        if self.kind is MismatchKind.EXTRA_ON_TABLE:
            return f"{self.card}: the camera sees it at {self.seen_zone}, the shoe did not deal it there"
        return f"{self.card}: the shoe dealt it to {self.expected_zone}, the camera sees it at {self.seen_zone}"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "card": str(self.card),
            "expected_zone": self.expected_zone,
            "seen_zone": self.seen_zone,
        }


def compare_placements(
    reported: Mapping[str, Sequence[Card]], placed: Mapping[str, Sequence[Card]]
) -> tuple[Mismatch, ...]:
    """Zone -> cards from the shoe, zone -> cards placed on the table; both keyed seat_N, dealer, discard.

    Cards that match zone for zone cancel; a card left over on both sides in different zones is in the
    wrong zone; what is left after that is missing on the table or extra on it.
    """
    zones = list(dict.fromkeys([*reported, *placed]))
    missing = {zone: Counter(reported.get(zone, ())) - Counter(placed.get(zone, ())) for zone in zones}
    extra = {zone: Counter(placed.get(zone, ())) - Counter(reported.get(zone, ())) for zone in zones}
    found: list[Mismatch] = []
    for expected_zone in zones:
        for card in sorted(missing[expected_zone].elements(), key=str):
            seen_zone = next((zone for zone in zones if extra[zone][card] > 0), None)
            if seen_zone is None:
                found.append(Mismatch(MismatchKind.MISSING_ON_TABLE, card, expected_zone, None))
            else:
                extra[seen_zone][card] -= 1
                found.append(Mismatch(MismatchKind.WRONG_ZONE, card, expected_zone, seen_zone))
    for seen_zone in zones:
        extras = sorted(extra[seen_zone].elements(), key=str)
        found += [Mismatch(MismatchKind.EXTRA_ON_TABLE, card, None, seen_zone) for card in extras]
    return tuple(found)

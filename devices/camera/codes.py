"""Card codes as printed on the faces: `<rank><suit>` or `<rank><suit>.<deck>`, e.g. `TS`, `QH.0417`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from dealer_assist.rules.cards import RANKS, SUITS, Card, parse_card

_CODE = re.compile(rf"([{RANKS}][{SUITS}])(?:\.([0-9A-Za-z]+))?")


@dataclass(frozen=True, slots=True)
class CardCode:
    """A card and, when printed, the serial of the deck it belongs to (letters and digits)."""

    card: Card
    deck: str | None = None

    def __str__(self) -> str:
        return str(self.card) if self.deck is None else f"{self.card}.{self.deck}"


def parse_card_code(text: str) -> CardCode | None:
    """The card a code names, or None for any other code in view (a calibration marker, a chip label)."""
    match = _CODE.fullmatch(text)
    if match is None:
        return None
    return CardCode(parse_card(match.group(1)), match.group(2))

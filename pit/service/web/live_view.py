"""The table's current round as the dealer sees it, from the round as recall gives it: each seat's
wagers and hands, the player-dealer's cards with the hole card still masked until it is revealed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.history.recall import HIDDEN, round_cards
from dealer_assist.text.journal_text import card_code, money


@dataclass(frozen=True, slots=True)
class Hand:
    number: int  # counted from 1, as people count
    cards: tuple[str, ...]  # as shown: 10♠, or ?? for the masked hole card


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    wagers: tuple[str, ...]  # "base $25"
    hands: tuple[Hand, ...]


@dataclass(frozen=True, slots=True)
class LiveRound:
    round_id: int
    state: str  # open / closed / voided
    dealer: tuple[str, ...]
    hole_hidden: bool
    seats: tuple[Seat, ...]


def live_round(entry: dict[str, Any] | None) -> LiveRound | None:
    if entry is None:
        return None
    cards = round_cards(entry)
    wagers: dict[int, list[str]] = {}
    for event in entry["inputs"]:
        if event["type"] == "PlaceWager":
            wagers.setdefault(event["seat"], []).append(
                f"{str(event['kind']).replace('_', ' ')} {money(event['amount'])}"
            )
    hands: dict[int, dict[int, list[str]]] = {}
    for card in cards:
        if card["seat"] is not None:
            hands.setdefault(card["seat"], {}).setdefault(card["hand"], []).append(card_code(card["card"]))
    seats = tuple(
        Seat(
            seat,
            tuple(wagers.get(seat, ())),
            tuple(Hand(hand + 1, tuple(shown)) for hand, shown in sorted(hands.get(seat, {}).items())),
        )
        for seat in sorted(set(wagers) | set(hands))
    )
    dealer = tuple(card_code(card["card"]) for card in cards if card["seat"] is None)
    state = "voided" if entry["voided"] else "closed" if entry["closed"] else "open"
    return LiveRound(entry["round_id"], state, dealer, HIDDEN in dealer, seats)

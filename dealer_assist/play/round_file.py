"""Round files (`round-v1`, ROUND-FILE.md): the facts of one round, replayed through the tracker.

The round driver feeds the file's wagers, cards and decision tokens to the same RoundTracker the live
table uses, in table order, so a replay and the live round cannot differ.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.play.round_driver import RoundPolicy, play
from dealer_assist.rules.cards import Card, check_copies, parse_card
from dealer_assist.rules.inputs import Action, Decide, Insure, PlaceWager, WagerKind
from dealer_assist.rules.ledger import ledger
from dealer_assist.rules.money import Cents, parse_amount
from dealer_assist.rules.profile import Profile, load_profile
from dealer_assist.rules.refusals import InputError, Refusal, RuleError
from dealer_assist.rules.tracker import PlayerDealer, RoundTracker

__all__ = ["FORMAT", "settle_round"]

FORMAT = "round-v1"
_FIELDS = {"format", "profile", "settings", "seats", "player_dealer", "wagers", "cards", "actions", "insurance", "meta"}
_TOKENS = {"hit", "stand", "double", "split", "surrender"}
_WAGER_KINDS = tuple(WagerKind)
_WAGER_BY_NAME = {kind.value: kind for kind in _WAGER_KINDS}


@dataclass(frozen=True, slots=True)
class Token:
    """One decision token of a seat: `hit`, or a tracker action with its amount."""

    text: str
    action: Action | None
    amount: Cents | None


@dataclass(frozen=True, slots=True)
class RoundSpec:
    profile: Profile
    seats: int
    player_dealer: PlayerDealer | None
    wagers: Mapping[int, Mapping[WagerKind, Cents]]
    cards: tuple[Card, ...]
    actions: Mapping[int, tuple[Token, ...]]
    insurance: Mapping[int, Cents]


def _object(value: object, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(Refusal.BAD_FIELD, f"{field}: expected an object, got {type(value).__name__}")
    return value


def _seat(key: object, field: str) -> int:
    if isinstance(key, str) and key.isdigit():
        return int(key)
    raise InputError(Refusal.BAD_FIELD, f"{field}: seat {key!r} is not a seat number")


def _token(text: object, key: str, index: int) -> Token:
    known = _PLAIN_TOKENS.get(text) if isinstance(text, str) else None
    if known is not None:
        return known
    field = f"actions.{key}[{index}]"
    if not isinstance(text, str):
        raise InputError(Refusal.BAD_ACTION, f"{field}: {text!r} is not an action")
    name, _, amount = text.partition(":")
    if name not in _TOKENS or (amount and name != "double"):
        raise InputError(
            Refusal.BAD_ACTION, f"{field}: {text!r} is not one of hit, stand, double, double:AMOUNT, split, surrender"
        )
    if name == "hit":
        return Token(text, None, None)
    return Token(text, Action(name), parse_amount(amount, field) if amount else None)


_PLAIN_TOKENS = {text: Token(text, None if text == "hit" else Action(text), None) for text in _TOKENS}


def parse_round(data: object) -> RoundSpec:
    """Validate a decoded round file; every problem names the field it is in."""
    doc = _object(data, "round")
    unknown = sorted(set(doc) - _FIELDS)
    if unknown:
        raise InputError(
            Refusal.UNKNOWN_FIELD, f"unknown field {unknown[0]!r}; a round-v1 file has {', '.join(sorted(_FIELDS))}"
        )
    if doc.get("format") != FORMAT:
        raise InputError(Refusal.BAD_FORMAT, f"format: expected {FORMAT!r}, got {doc.get('format')!r}")
    if not isinstance(doc.get("profile"), str):
        raise InputError(Refusal.BAD_FIELD, "profile: a profile name is required")
    profile = load_profile(doc["profile"], _object(doc.get("settings", {}), "settings"))
    seats = doc.get("seats", profile.seats)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise InputError(Refusal.BAD_FIELD, f"seats: {seats!r} is not a whole number")
    pd = None
    if doc.get("player_dealer") is not None:
        raw = _object(doc["player_dealer"], "player_dealer")
        if set(raw) != {"seat", "bank"} or isinstance(raw["seat"], bool) or not isinstance(raw["seat"], int):
            raise InputError(Refusal.BAD_FIELD, 'player_dealer: expected {"seat": N, "bank": AMOUNT}')
        pd = PlayerDealer(raw["seat"], parse_amount(raw["bank"], "player_dealer.bank"))
    wagers: dict[int, dict[WagerKind, Cents]] = {}
    for key, raw in _object(doc.get("wagers", {}), "wagers").items():
        seat = _seat(key, "wagers")
        entry = _object(raw, f"wagers.{key}")
        wagers[seat] = {}
        for name, amount in entry.items():
            kind = _WAGER_BY_NAME.get(name)
            if kind is None:
                raise InputError(Refusal.BAD_FIELD, f"wagers.{key}.{name}: not a wager (base, lucky_lucky, buster)")
            wagers[seat][kind] = parse_amount(amount, f"wagers.{key}.{name}")
    raw_cards = doc.get("cards")
    if not isinstance(raw_cards, list):
        raise InputError(Refusal.BAD_FIELD, 'cards: expected a list of cards like "TS"')
    cards = tuple(parse_card(card) for card in raw_cards)
    check_copies(cards, profile.decks)
    actions = {}
    for key, raw in _object(doc.get("actions", {}), "actions").items():
        if not isinstance(raw, list):
            raise InputError(Refusal.BAD_FIELD, f"actions.{key}: expected a list of actions")
        actions[_seat(key, "actions")] = tuple(_token(t, key, i) for i, t in enumerate(raw))
    insurance = {  # an insurance of 0 is no insurance (RULES.md §8.20)
        seat: amount
        for seat, amount in (
            (_seat(key, "insurance"), parse_amount(amount, f"insurance.{key}"))
            for key, amount in _object(doc.get("insurance", {}), "insurance").items()
        )
        if amount
    }
    return RoundSpec(profile, seats, pd, wagers, cards, actions, insurance)


class _FilePolicy(RoundPolicy):
    """The round file's own facts, in table order; what the file lacks or leaves over is refused."""

    def __init__(self, spec: RoundSpec) -> None:
        self.wagers = deque(
            PlaceWager(seat, kind, amount)
            for seat in sorted(spec.wagers)
            for kind in _WAGER_KINDS
            if (amount := spec.wagers[seat].get(kind, 0))
        )
        self.cards = deque(spec.cards)
        self.tokens = {seat: deque(seat_tokens) for seat, seat_tokens in spec.actions.items()}
        self.insurance = deque(Insure(seat, spec.insurance[seat]) for seat in sorted(spec.insurance))
        self.insurance_offered = False

    def wager(self, tracker: RoundTracker) -> PlaceWager | None:
        return self.wagers.popleft() if self.wagers else None

    def card(self, tracker: RoundTracker) -> Card:
        if not self.cards:
            raise RuleError(
                Refusal.TOO_FEW_CARDS,
                f"the cards ran out where the round needs another card ({tracker.prompt()})",
                "6.1",
            )
        return self.cards.popleft()

    def decide(self, tracker: RoundTracker, seat: int, hand: int) -> Decide | None:
        queue = self.tokens.get(seat)
        if not queue:
            raise RuleError(
                Refusal.MISSING_DECISION,
                f"seat {seat} hand {hand + 1}: a decision is due ({tracker.prompt()}) but the actions ran out",
                "8.4",
            )
        token = queue.popleft()
        return None if token.action is None else Decide(seat, hand, token.action, token.amount)

    def insure(self, tracker: RoundTracker) -> Insure | None:
        self.insurance_offered = True
        return self.insurance.popleft() if self.insurance else None

    def check_by_hand(self, tracker: RoundTracker) -> bool:
        raise RuleError(Refusal.HELD, f"the round cannot go on by itself: {tracker.prompt()}", "6.2")

    def confirms_stand(self, seat: int, hand: int) -> bool:
        queue = self.tokens.get(seat)
        if queue and queue[0].action is Action.STAND:
            queue.popleft()
            return True
        return False


def play_round(spec: RoundSpec) -> tuple[RoundTracker, int]:
    """Drive a tracker through the round; returns it settled and the count of unused cards."""
    policy = _FilePolicy(spec)
    tracker = RoundTracker(spec.profile, spec.seats, spec.player_dealer)
    try:
        play(tracker, policy)
    except RuleError as refusal:
        if refusal.code != Refusal.CARD_NOT_ALLOWED:
            raise
        # The driver asks for a card only where the round takes one, or for a hit: this is the file's hit.
        reason = refusal.message.removeprefix("misdeal: ")
        raise RuleError(
            Refusal.ILLEGAL_ACTION, f"actions.{tracker.awaiting().seat}: hit is refused: {reason}", refusal.rule
        ) from None
    if spec.insurance and not policy.insurance_offered:
        seat = min(spec.insurance)
        raise RuleError(
            Refusal.INSURANCE_NOT_OFFERED,
            f"insurance.{seat}: insurance is offered only with an Ace up in a "
            "hole-card game (no insurance was offered in this round)",
            "8.8",
        )
    for seat, queue in sorted(policy.tokens.items()):
        if queue:
            raise RuleError(
                Refusal.LEFTOVER_DECISION,
                f"actions.{seat}: {queue[0].text!r} is left over after seat {seat}'s hands ended",
                "8.4",
            )
    return tracker, len(policy.cards)


def settle_round(data: object) -> dict[str, Any]:
    """A decoded round file -> its ledger (`ledger-v1`); raises RuleError on any bad input."""
    tracker, unused = play_round(parse_round(data))
    return ledger(tracker, unused)

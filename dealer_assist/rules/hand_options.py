"""What a player hand may do now (RULES.md §8.3-§8.15): pure checks on the profile and the hand.

Each check answers with the refusal, naming the rule, or None when the move is allowed; the round
tracker asks them for `verify`, for the prompt and for the hands the rules end by themselves.
`seat_hands` is how many hands the hand's seat plays (more than one after a split).
"""

from __future__ import annotations

from dealer_assist.rules.inputs import Action
from dealer_assist.rules.money import Cents, format_money
from dealer_assist.rules.operations import EndReason
from dealer_assist.rules.player_hand import PlayerHand
from dealer_assist.rules.profile import Profile, Surrender
from dealer_assist.rules.refusals import InputError, Refusal, RuleError
from dealer_assist.rules.totals import TARGET


def why_not_stand(profile: Profile, hand: PlayerHand) -> RuleError | None:
    limit = profile.player_must_hit_to
    total = hand.total.value
    if total <= limit:
        return RuleError(
            Refusal.MUST_HIT,
            f"a player must hit {total}: stand is refused at {limit} or less",
            profile.rules["must_hit"],
        )
    return None


def must_stand(profile: Profile, hand: PlayerHand) -> RuleError | None:
    limit = profile.player_must_stand_from
    total = hand.total
    if limit and total.hard and total.value >= limit:
        return RuleError(
            Refusal.MUST_STAND,
            f"a player must stand on hard {total.value}: hit and double are refused at hard {limit} or more",
            profile.rules["must_stand"],
        )
    return None


def why_not_hit(profile: Profile, seat: int, index: int, hand: PlayerHand) -> RuleError | None:
    """A hit is a card out of the shoe: one the hand may not take is a misdeal."""
    error = must_stand(profile, hand)
    if error is not None:
        return RuleError(
            Refusal.CARD_NOT_ALLOWED, f"misdeal: seat {seat} hand {index + 1}: {error.message}", error.rule
        )
    return None


def double_range(profile: Profile, hand: PlayerHand) -> tuple[Cents, Cents]:
    """The least and the most a double may add (RULES.md §8.15): the table minimum up to the
    hand's wager; a double for less is anything below the wager."""
    return profile.table_min, hand.stake


def why_not_double(profile: Profile, hand: PlayerHand, amount: Cents | None) -> RuleError | None:
    """`amount` None is a double for the full wager."""
    rule = profile.rules["double"]
    if len(hand.cards) != 2:
        return RuleError(Refusal.ILLEGAL_ACTION, "double is allowed on two cards only", rule)
    if hand.split_aces:
        return RuleError(Refusal.ILLEGAL_ACTION, "split Aces get one card each and cannot double", "8.15")
    if (error := must_stand(profile, hand)) is not None:
        return RuleError(Refusal.ILLEGAL_ACTION, error.message, error.rule)
    low, high = double_range(profile, hand)
    amount = high if amount is None else amount
    if not low <= amount <= high:
        return RuleError(
            Refusal.WAGER_LIMIT,
            f"a double of {format_money(amount)} must be from the table minimum {format_money(low)} to the"
            f" wager {format_money(high)}",
            "8.15",
        )
    return None


def why_not_split(profile: Profile, hand: PlayerHand, seat_hands: int) -> RuleError | None:
    rule = profile.rules["split"]
    if len(hand.cards) != 2:
        return RuleError(Refusal.ILLEGAL_ACTION, "split is allowed on two cards only", rule)
    first, second = hand.cards
    pair = first.value == second.value if profile.split_same_value else first.rank == second.rank
    if not pair:
        return RuleError(Refusal.ILLEGAL_ACTION, f"{first} and {second} are not a pair", rule)
    if hand.split_aces:
        return RuleError(Refusal.ILLEGAL_ACTION, "Aces are split once", "8.15")
    if seat_hands >= profile.max_hands:
        return RuleError(Refusal.ILLEGAL_ACTION, f"a seat plays at most {profile.max_hands} hands", rule)
    return None


def why_not_surrender(profile: Profile, hand: PlayerHand, seat_hands: int) -> RuleError | None:
    rule = profile.rules["surrender"]
    if profile.surrender is Surrender.NONE:
        return RuleError(Refusal.ILLEGAL_ACTION, f"{profile.id} has no surrender", rule)
    if seat_hands > 1 or hand.from_split:
        return RuleError(Refusal.ILLEGAL_ACTION, "surrender is never allowed after a split", "8.8")
    if len(hand.cards) != 2 or hand.double:
        return RuleError(Refusal.ILLEGAL_ACTION, "surrender is allowed on the first two cards only", rule)
    if profile.surrender is Surrender.NO_ACE_12_PLUS:
        if any(card.is_ace for card in hand.cards) or hand.total.value < 12:
            return RuleError(Refusal.ILLEGAL_ACTION, "surrender needs a total of 12 or more without an Ace", rule)
    return None


def why_not(
    profile: Profile, hand: PlayerHand, seat_hands: int, action: Action, amount: Cents | None
) -> RuleError | None:
    """Why the hand whose turn it is may not take `action` (a card due is checked before)."""
    match action:
        case Action.STAND:
            return why_not_stand(profile, hand)
        case Action.DOUBLE:
            return why_not_double(profile, hand, amount)
        case Action.SPLIT:
            return why_not_split(profile, hand, seat_hands)
        case Action.SURRENDER:
            return why_not_surrender(profile, hand, seat_hands)
    return InputError(Refusal.ILLEGAL_ACTION, f"decision {action!r} is not one of {', '.join(Action)}", None)


def forced_end(profile: Profile, hand: PlayerHand, seat_hands: int) -> EndReason | None:
    """A hand the rules end without a decision (RULES.md §8.3-§8.5)."""
    if hand.natural:
        return EndReason.NATURAL
    total = hand.total.value
    if total > TARGET:
        return EndReason.OVER
    if total == TARGET:
        return EndReason.TWENTY_ONE
    if hand.split_aces:
        return EndReason.SPLIT_ACES
    if hand.double:
        return EndReason.DOUBLED
    if (
        must_stand(profile, hand) is not None
        and why_not_split(profile, hand, seat_hands) is not None
        and why_not_surrender(profile, hand, seat_hands) is not None
    ):
        return EndReason.MUST_STAND
    return None

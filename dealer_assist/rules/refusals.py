"""What the rules refuse: a round's inputs, a round file, the table between rounds, the supervisor's
PIN, profiles, cards and amounts. A refusal names the rule it breaks (RULES.md), so a dispute can
be settled by reading it."""

from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import CommandCode, Failure

__all__ = ["InputError", "Refusal", "RuleError"]


class Refusal(StrEnum):
    """One member per distinct reason; the values are the journaled and printed codes."""

    # the round (RoundTracker)
    BAD_SEAT = "bad_seat"
    BAD_SEATS = "bad_seats"
    BAD_BANK = "bad_bank"
    MISSING_PLAYER_DEALER = "missing_player_dealer"
    UNEXPECTED_PLAYER_DEALER = "unexpected_player_dealer"
    PLAYER_DEALER_SEAT = "player_dealer_seat"
    UNKNOWN_INPUT = "unknown_input"
    BETTING_CLOSED = "betting_closed"
    BAD_AMOUNT = "bad_amount"
    WAGER_LIMIT = "wager_limit"
    SIDE_BET_WITHOUT_BASE = "side_bet_without_base"
    NOT_OFFERED = "not_offered"  # a bet the profile does not offer
    NO_WAGERS = "no_wagers"
    BETTING_OPEN = "betting_open"  # a card before the dealer's "No more bets": a misdeal
    CARD_NOT_ALLOWED = "card_not_allowed"  # a card out of the shoe that nobody may take: a misdeal
    CARD_DUE = "card_due"
    INSURANCE_NOT_OFFERED = "insurance_not_offered"
    NO_PEEK_PENDING = "no_peek_pending"
    NO_CHECK_PENDING = "no_check_pending"
    CHECK_DISAGREES = "check_disagrees"
    NO_SUCH_HAND = "no_such_hand"
    NO_DECISION_DUE = "no_decision_due"
    NOT_YOUR_TURN = "not_your_turn"
    MUST_HIT = "must_hit"
    MUST_STAND = "must_stand"
    ILLEGAL_ACTION = "illegal_action"
    PAYMENTS_DUE = "payments_due"  # the dealer settles what is due now before the round goes on
    NOTHING_DUE = "nothing_due"
    # the wager reader (RULES.md §8.22-8.24)
    SPOT_READ = "spot_read"  # a wager keyed on a spot the reader reads: its chips are the wager
    READING_NOT_ALLOWED = (
        "reading_not_allowed"  # a reading outside the limits, or with alien chips, holds "No more bets"
    )
    CHIPS_NOT_ALLOWED = "chips_not_allowed"  # the chips a decision adds are not what the rules allow
    CHIPS_AWAITED = "chips_awaited"  # a double or a split waits for its chips on the spot
    SCAN_REQUIRED = "scan_required"  # at a table with a reader, wagers close and payouts are checked at its scan
    NOT_READING = "not_reading"  # a reading of a spot whose readings the table does not use now
    NO_PAYOUT_DIFFERENCE = "no_payout_difference"
    CONFIRM_WAGERS = "confirm_wagers"  # the reader is down: the dealer confirms the wagers shown to close them
    READER_UP = "reader_up"  # nothing to confirm by hand: the wagers close at the reader's scan
    # who deals (RULES.md §8.25)
    DEALER_REQUIRED = "dealer_required"
    NO_DEALER = "no_dealer"
    # a round file (ROUND-FILE.md)
    BAD_FORMAT = "bad_format"
    BAD_FIELD = "bad_field"
    UNKNOWN_FIELD = "unknown_field"
    BAD_ACTION = "bad_action"
    TOO_FEW_CARDS = "too_few_cards"
    MISSING_DECISION = "missing_decision"
    LEFTOVER_DECISION = "leftover_decision"
    HELD = "held"  # the round waits for a check by hand that a file cannot give
    # the table between rounds (TableSession)
    NO_SHOE = "no_shoe"
    BAD_SHOE = "bad_shoe"
    ROUND_OPEN = "round_open"
    NO_ROUND = "no_round"
    NOT_SETTLED = "not_settled"
    BAD_INPUT = "bad_input"
    UNREAD_HELD = "unread_held"
    NOTHING_UNREAD = "nothing_unread"
    MISDEAL_HELD = "misdeal_held"
    NO_MISDEAL = "no_misdeal"
    NO_SUCH_CARD = "no_such_card"
    REKEY_CONFLICT = "rekey_conflict"
    HOUSE_BANKED = "house_banked"
    BANK_TAKEN = "bank_taken"
    OFFERED_ELSEWHERE = "offered_elsewhere"  # the bank is offered to another seat
    ROTATION = "rotation"
    SUPERVISOR_ONLY = "supervisor_only"
    SUPERVISOR_REQUIRED = "supervisor_required"
    REASON_REQUIRED = "reason_required"
    # the supervisor PIN
    NO_PIN = "no_pin"
    BAD_PIN = "bad_pin"
    WRONG_PIN = "wrong_pin"
    PIN_LOCKED = "pin_locked"
    PIN_MISMATCH = "pin_mismatch"
    BENCH_PIN = "bench_pin"  # a PIN a tool set and printed: the table does not deal live with it
    # profiles, cards and amounts
    UNKNOWN_PROFILE = "unknown_profile"
    UNKNOWN_SETTING = "unknown_setting"
    BAD_SETTING = "bad_setting"
    BAD_CARD = "bad_card"
    IMPOSSIBLE_CARD = "impossible_card"


class RuleError(Failure):
    """A refusal: its code, a message a person can act on, and the rule it breaks (printed as
    `{"error": {"code", "message", "rule"}}`, ROUND-FILE.md)."""

    def __init__(self, code: Refusal | CommandCode, message: str, rule: str | None = None) -> None:
        super().__init__(code, message)
        self.rule = rule

    def to_json(self) -> dict[str, dict[str, object]]:
        return {"error": {"code": self.code.value, "message": self.message, "rule": self.rule}}


class InputError(RuleError):
    """A file, field, argument or setting that is malformed before any rule can apply to it."""

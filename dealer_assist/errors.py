"""What a table refuses, as codes a program can check and messages a person can act on.

`RuleError` is a refusal of the rules; its subclasses say when the trouble is not the rules but a
malformed input (`InputError`), a device (`DeviceError`), a journal (`JournalError`) or a command
that cannot start (`CommandError`), so a caller can tell "the dealer may not do this now" from
"this file is broken". Every error names one `Refusal`; its value is the stable `code` of the JSON
error objects (ROUND-FILE.md, DEVICES.md, PIT.md).
"""
from __future__ import annotations

from enum import StrEnum


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
    # profiles, cards and amounts
    UNKNOWN_PROFILE = "unknown_profile"
    UNKNOWN_SETTING = "unknown_setting"
    BAD_SETTING = "bad_setting"
    BAD_CARD = "bad_card"
    IMPOSSIBLE_CARD = "impossible_card"
    # command lines
    BAD_ARGUMENTS = "bad_arguments"
    FILE_EXISTS = "file_exists"
    MALFORMED_JSON = "malformed_json"
    UNREADABLE_FILE = "unreadable_file"
    CANNOT_WRITE = "cannot_write"
    BAD_WAGER = "bad_wager"
    BAD_PLAYERS = "bad_players"
    BAD_ROUNDS = "bad_rounds"
    BAD_DECKS = "bad_decks"
    BAD_UP_CARD = "bad_up_card"
    BAD_FAULT = "bad_fault"
    BAD_VALUE = "bad_value"  # a value the pit's store refuses (a payout threshold of 0)
    BAD_TABLE_ID = "bad_table_id"  # not a table id the card room's wire takes (PIT.md §2)
    BAD_PIT = "bad_pit"  # a pit URL or credentials file that cannot be used
    # the card room
    ALREADY_EXISTS = "exists"  # a table, user or token the pit already has
    STORE_UNREACHABLE = "store_unreachable"
    PASSWORD_MISMATCH = "password_mismatch"
    PIT_FAILED = "pit_failed"  # a part of the running pit service failed
    # journals
    NO_JOURNAL = "no_journal"
    JOURNAL_EXISTS = "journal_exists"
    BAD_JOURNAL = "bad_journal"
    JOURNAL_DAMAGED = "journal_damaged"
    NOT_A_JOURNAL = "not_a_journal"
    JOURNAL_IN_USE = "journal_in_use"  # another live process holds it
    OTHER_TABLE = "other_table"  # the start names another table than the journal's
    TABLE_STOPPED = "table_stopped"  # the journal could not write: the table takes nothing more
    BAD_RECORD = "bad_record"
    NO_SUCH_ROUND = "no_such_round"
    ROUND_VOIDED = "round_voided"
    # devices, cameras and their calibration
    PORT_UNAVAILABLE = "port_unavailable"
    SHOE_BUSY = "shoe_busy"
    SHOE_LOCKED = "shoe_locked"  # the bench's Deal while the card-stop is on: refused, never queued
    FOREIGN_SHOE = "foreign_shoe"
    SHOE_NOT_DUE = "shoe_not_due"
    SOURCE_UNREADABLE = "source_unreadable"
    BAD_SOURCE = "bad_source"
    BAD_DECODER = "bad_decoder"
    MARKER_MISSING = "marker_missing"
    BAD_MARKERS = "bad_markers"
    BAD_LAYOUT = "bad_layout"
    LAYOUT_UNREADABLE = "layout_unreadable"
    UNKNOWN_ZONE = "unknown_zone"
    BAD_CALIBRATION = "bad_calibration"
    CALIBRATION_UNREADABLE = "calibration_unreadable"
    CALIBRATION_UNWRITABLE = "calibration_unwritable"
    ERROR_TOO_HIGH = "error_too_high"


class RuleError(Exception):
    """A refusal: its `Refusal` code, a message a person can act on, and the rule it breaks."""

    def __init__(self, code: Refusal, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = Refusal(code)  # a bare string of a known code is taken too, and checked
        self.message = message
        self.rule = rule

    def to_json(self) -> dict[str, object]:
        return {"error": {"code": self.code.value, "message": self.message, "rule": self.rule}}


class InputError(RuleError):
    """A file, field, argument or setting that is malformed before any rule can apply to it."""


class DeviceError(RuleError):
    """A device, an emulated device or a camera source that cannot do what was asked."""


class JournalError(RuleError):
    """A journal that is missing, damaged, already there, or lacks what was asked of it."""


class CommandError(RuleError):
    """A command line refused before the command could act: its arguments, or what it needs (a
    port, the pit's store) is not there. Printed as `{"error": {"code", "message"}}` without a rule
    (DEVICES.md, PIT.md); `exit_code` is the status the command exits with."""

    def __init__(self, code: Refusal, message: str, exit_code: int = 2) -> None:
        super().__init__(code, message)
        self.exit_code = exit_code

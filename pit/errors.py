"""The card room's failures: a pit that cannot be reached or used, and a value its store refuses."""

from __future__ import annotations

from enum import StrEnum

from dealer_assist.errors import Failure

__all__ = ["BadValue", "PitCode", "PitError"]


class PitCode(StrEnum):
    BAD_VALUE = "bad_value"  # a value the pit's store refuses (a payout threshold of 0)
    BAD_TABLE_ID = "bad_table_id"  # not a table id the card room's wire takes (PIT.md §2)
    BAD_PIT = "bad_pit"  # a pit URL or credentials file that cannot be used
    ALREADY_EXISTS = "exists"  # a table, user or token the pit already has
    STORE_UNREACHABLE = "store_unreachable"
    STORE_NOT_SET_UP = "store_not_set_up"  # a store that lacks a migration of this release: `pit init` first
    PASSWORD_MISMATCH = "password_mismatch"
    PIT_FAILED = "pit_failed"  # a part of the running pit service failed
    NOT_FOUND = "not_found"  # no such table, round, journal or alert
    NOT_ALLOWED = "not_allowed"  # the user's role may not do it
    LOGIN_REFUSED = "login_refused"
    PIT_UNAVAILABLE = "pit_unavailable"  # the pit's web address could not be asked, or answered nonsense
    DIVERGED = "diverged"  # a journal behind, or other than, what the pit's stream holds of it
    LINK_LOST = "link_lost"  # the broker connection dropped, or a publish went unanswered
    SERVICE_FAILED = "service_failed"  # a broker or store of the trial room that would not start or stop
    ROOM_FAILED = "room_failed"  # a part of the trial room that would not start


class PitError(Failure):
    """A pit, its store or a value it was given that cannot be used."""

    def __init__(self, code: PitCode, message: str, exit_code: int = 2) -> None:
        super().__init__(code, message, exit_code)


class BadValue(PitError):
    """A value the pit refuses (400 on the API, exit 1 for a command): an empty note, a payout
    threshold of 0, a short password, a cluster node that is not among its routes."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.BAD_VALUE, message, 1)

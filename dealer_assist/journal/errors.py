"""The journal's failures, one family: a journal that is missing, damaged, not a journal, held by
another process, closed, or that could not make a record durable."""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from dealer_assist.errors import Failure

__all__ = ["JournalClosed", "JournalCode", "JournalDamaged", "JournalError", "JournalWriteFailed"]

if TYPE_CHECKING:
    from dealer_assist.journal.verdict import Verdict


class JournalCode(StrEnum):
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
    JOURNAL_CLOSED = "journal_closed"  # a record came after the journal was closed
    WRITE_FAILED = "write_failed"  # a record could not be made durable


class JournalError(Failure):
    """A journal that is missing, damaged, already there, or lacks what was asked of it."""

    def __init__(self, code: JournalCode, message: str, exit_code: int = 2) -> None:
        super().__init__(code, message, exit_code)


class NotAJournal(JournalError):
    """The file is missing or is not a dealer-assist journal at all."""


class JournalDamaged(JournalError):
    """The journal fails its verification; `verdict.first_bad` is the first bad record."""

    def __init__(self, verdict: Verdict, message: str | None = None) -> None:
        super().__init__(
            JournalCode.JOURNAL_DAMAGED, message or f"DAMAGED: {verdict.message}; nothing of it is shown as evidence"
        )
        self.verdict = verdict


class JournalInUse(JournalError):
    """Another live process holds the journal."""


class JournalClosed(JournalError):
    """A record came after the journal was closed: it was not written, and says what it was."""

    def __init__(self, message: str) -> None:
        super().__init__(JournalCode.JOURNAL_CLOSED, message)


class JournalWriteFailed(JournalError):
    """A record could not be made durable (disk full, file gone, I/O error): it was not written,
    and the journal ends at the record before it."""

    def __init__(self, message: str) -> None:
        super().__init__(JournalCode.WRITE_FAILED, message)

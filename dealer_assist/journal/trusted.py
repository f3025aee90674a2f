"""Evidence first verified: recall and export read a journal only after its whole chain and seal
check out, so a record changed in SQLite is never printed as if it were genuine."""

from __future__ import annotations

from pathlib import Path

from dealer_assist.journal.errors import JournalCode, JournalDamaged, NotAJournal
from dealer_assist.journal.journal_file import Verdict, seal_path, verify

__all__ = ["intact_journal"]

SQLITE_MAGIC = b"SQLite format 3\x00"


def require_intact(verdict: Verdict, path: Path) -> Verdict:
    """The verdict of a record source's verification, or the error that refuses it. Any source
    (the SQLite file, the card room's store) verifies itself and hands its verdict here."""
    if verdict.ok and verdict.records == 0:
        raise NotAJournal(JournalCode.NOT_A_JOURNAL, f"{path}: an empty file, not a dealer-assist journal")
    if not verdict.ok:
        raise JournalDamaged(verdict)
    return verdict


def intact_journal(path: Path) -> Verdict:
    """A journal file verified end to end; raises NotAJournal or JournalDamaged."""
    path = Path(path)
    if not path.is_file():
        raise NotAJournal(JournalCode.NO_JOURNAL, f"{path}: no such journal file")
    with path.open("rb") as handle:
        magic = handle.read(len(SQLITE_MAGIC))
    verdict = verify(path)
    sealed = seal_path(path).exists()
    if not sealed and (
        magic != SQLITE_MAGIC or (not verdict.ok and verdict.records == 0 and verdict.first_bad is None)
    ):
        raise NotAJournal(
            JournalCode.NOT_A_JOURNAL,
            f"{path}: not a dealer-assist journal (it is no SQLite file with a records table)",
        )
    return require_intact(verdict, path)

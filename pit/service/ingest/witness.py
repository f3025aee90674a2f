"""The witness (PIT.md §4): whether a record that arrives may be stored on the pit's copy of its journal.

Pure: the journal's witnessed head and, for a seq the pit already holds, its stored copy, in; a
judgement out. A record is stored only right after its predecessor and only when its hash chains
onto the pit's copy of it; anything else that claims a place the pit has witnessed is a
divergence, and once a journal has diverged nothing after the refused record is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.journal.journal_file import GENESIS
from pit.stream.wire import RecordMessage


class Verdict(StrEnum):
    STORE = "store"  # the next record, chained onto the witnessed head
    DUPLICATE = "duplicate"  # a record the pit holds, with the same content: nothing to do
    DIVERGED = "diverged"  # other content in a witnessed place, or a broken chain: refused, alert
    HELD = "held"  # after a refused record: not stored, the head stays
    EARLY = "early"  # its predecessor has not arrived yet: try again later


@dataclass(frozen=True, slots=True)
class Head:
    """What the pit has witnessed of one journal; seq 0 before its first record."""

    table_id: str
    seq: int = 0
    hash: str = GENESIS.hex()
    diverged_at: int | None = None


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: Verdict
    text: str = ""  # for a divergence: one line naming table, journal, seq and both hashes


def judge(head: Head, message: RecordMessage, held: RecordMessage | None = None) -> Judgement:
    """`held` is the pit's stored copy of `message.seq` when `message.seq <= head.seq`."""
    if message.seq <= head.seq:
        if held is None:
            raise ValueError(f"{_where(message)}: the stored copy is needed to judge a witnessed seq")
        if held == message:
            return Judgement(Verdict.DUPLICATE)
        return Judgement(
            Verdict.DIVERGED,
            f"{_where(message)} differs from the witnessed copy: pit holds {held.hash}, table sent {message.hash}",
        )
    if head.diverged_at is not None:
        return Judgement(Verdict.HELD)
    if message.seq > head.seq + 1:
        return Judgement(Verdict.EARLY)
    if message.table_id != head.table_id:
        return Judgement(
            Verdict.DIVERGED,
            f"{_where(message)} comes from table {message.table_id}, but the journal is"
            f" table {head.table_id}'s: pit holds {head.hash}, table sent {message.hash}",
        )
    if message.seq == 1 and message.hash != message.journal:
        return Judgement(
            Verdict.DIVERGED,
            f"{_where(message)}: the header's hash {message.hash} is not the journal's identity {message.journal}",
        )
    if not message.chains_onto(bytes.fromhex(head.hash)):
        return Judgement(
            Verdict.DIVERGED,
            f"{_where(message)} does not chain onto the witnessed record {head.seq}:"
            f" pit holds {head.hash}, table sent {message.hash}",
        )
    return _STORE


_STORE = Judgement(Verdict.STORE)


def _where(message: RecordMessage) -> str:
    """A refused record's place, for its alert's text (written only when one is refused)."""
    return f"table {message.table_id} journal {message.journal} record {message.seq}"


def moved(head: Head, message: RecordMessage, judgement: Judgement) -> Head:
    """The head after a judgement: it moves only on a stored record; a divergence holds the journal."""
    if judgement.verdict is Verdict.STORE:
        return Head(head.table_id, message.seq, message.hash, head.diverged_at)
    if judgement.verdict is Verdict.DIVERGED and head.diverged_at is None:
        return Head(head.table_id, head.seq, head.hash, message.seq)
    return head

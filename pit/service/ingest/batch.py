"""One batch of record messages judged, and what its stored records tell, before anything is written.

Pure: what ingest knows of the batch's journals (`Known`: witnessed heads and dealing watches) and
the messages in; a `Plan` out: each message's verdict, the records to store with their facts, the
alerts the judging and the dealing raise, the heads and watches after. `Known` moves with each plan,
so the next batch can be judged while this one is written; a write that did not go as planned
makes ingest read `Known` again from the store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from pit.service.floor import alerts as rules
from pit.service.floor.alerts import AlertCause
from pit.service.floor.dealing import Dealing, Watch
from pit.service.floor.round_facts import Fact, facts
from pit.service.ingest.witness import Head, Verdict, judge, moved
from pit.stream.wire import RecordMessage


@dataclass(slots=True)
class Known:
    """What the store holds of some journals, as of the last batch planned: each one's witnessed head
    and dealing watch (a journal the store does not hold has neither)."""

    heads: dict[str, Head] = field(default_factory=dict)
    watches: dict[str, Watch] = field(default_factory=dict)
    looked_up: set[str] = field(default_factory=set)  # journals asked of the store, held or not

    def lacks(self, messages: Sequence[RecordMessage | None]) -> list[str]:
        """The journals of `messages` not yet asked of the store."""
        return sorted({m.journal for m in messages if m is not None and m.journal not in self.looked_up})

    def witnessed(self, messages: Sequence[RecordMessage | None]) -> list[RecordMessage]:
        """The messages at a seq the pit has witnessed: judged against the store's copy."""
        return [m for m in messages if m is not None and m.journal in self.heads and m.seq <= self.heads[m.journal].seq]


@dataclass(slots=True)
class Plan:
    verdicts: list[Verdict | None]  # one per message; None: refused as it is
    stored: list[RecordMessage]
    told: list[tuple[RecordMessage, list[Fact]]]  # each stored record with its facts
    moving: list[str]  # journals the store holds whose heads are written again
    heads: dict[str, Head]  # after the batch, of the journals it touched
    places: dict[str, int]  # journal -> the stream seq of its last record stored now, or before its first still early
    dealing: Dealing
    causes: list[AlertCause]  # divergences and what the dealing raises; the records' own come with the threshold


SLICE = 50  # messages judged, or records derived, between two of `planning`'s pauses


def plan(
    known: Known,
    messages: Sequence[RecordMessage | None],
    held: Mapping[tuple[str, int], RecordMessage],
    stream_seq: Callable[[int], int] | None = None,
) -> Plan:
    """Judge each message in turn on `known` (which moves with it) and `held`, the store's copies of the
    witnessed seqs among them; `stream_seq(i)` is message i's place in the stream."""
    for step in planning(known, messages, held, stream_seq):
        if step is not None:
            return step
    raise AssertionError("planning ends with its plan")


def planning(
    known: Known,
    messages: Sequence[RecordMessage | None],
    held: Mapping[tuple[str, int], RecordMessage],
    stream_seq: Callable[[int], int] | None = None,
) -> Iterator[Plan | None]:
    """`plan`, pausing (None) after every SLICE messages, then the plan: a caller on an event loop lets
    the writes before this batch go on there meanwhile, which would otherwise wait for all of its judging."""
    copies = dict(held)
    before = set(known.heads)
    touched: set[str] = set()
    verdicts: list[Verdict | None] = []
    stored: list[RecordMessage] = []
    last_stored: dict[str, int] = {}
    first_early: dict[str, int] = {}
    causes: list[AlertCause] = []
    for position, message in enumerate(messages):
        if position % SLICE == SLICE - 1:
            yield None
        if message is None:
            verdicts.append(None)
            continue
        head = known.heads.get(message.journal) or Head(message.table_id)
        judgement = judge(head, message, copies.get((message.journal, message.seq)))
        verdicts.append(judgement.verdict)
        after = moved(head, message, judgement)
        if after is not head:
            known.heads[message.journal] = after
            touched.add(message.journal)
        if judgement.verdict is Verdict.STORE:
            stored.append(message)
            copies[(message.journal, message.seq)] = message
            last_stored[message.journal] = position
        elif judgement.verdict is Verdict.EARLY:
            first_early.setdefault(message.journal, position)
        elif judgement.verdict is Verdict.DIVERGED:
            causes.append(
                rules.divergence(
                    message.table_id, message.journal, message.seq, message.round_id, judgement.text, datetime.now(UTC)
                )
            )
    told: list[tuple[RecordMessage, list[Fact]]] = []
    dealing = Dealing(known.watches)
    for position, message in enumerate(stored):
        if position % SLICE == SLICE - 1:
            yield None
        told.append((message, facts(message)))
        dealing.take(message)
    causes += dealing.alerts
    held_now = before | {m.journal for m in stored}  # a journal is held from its header on
    for journal in touched - held_now:  # judged, but the store holds none of it: nothing to keep
        del known.heads[journal]
    yield Plan(
        verdicts,
        stored,
        told,
        sorted(touched & held_now),
        {j: known.heads[j] for j in touched & held_now},
        _places(last_stored, first_early, stream_seq) if stream_seq else {},
        dealing,
        causes,
    )


def _places(
    last_stored: dict[str, int], first_early: dict[str, int], stream_seq: Callable[[int], int]
) -> dict[str, int]:
    """Each journal's stream position after this batch: its last record stored, but never past a record of
    it still early (not stored), so a read from there finds that record again."""
    return {
        journal: stream_seq(position)
        if first_early.get(journal, position) >= position
        else stream_seq(first_early[journal]) - 1
        for journal, position in last_stored.items()
    }

"""The chaos soak's eyes: what the stream and the store hold of each journal while parts are killed
(the gaps: a journal whose pit head stands still behind later records in the stream), and at the
end each journal file's records against the store's, record by record."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats
import psycopg
from nats.aio.client import Client
from nats.js import JetStreamContext

from dealer_assist.journal.journal_file import read_records
from pit.stream.wire import STREAM, STREAM_SUBJECTS, journal_identity

STALL_S = 5.0  # a pit head behind the stream that has not moved for this long is a gap
ASK_S = 2.0  # how long a question to the broker or the store may take before the sample goes without it


class Clock:
    """Seconds since the soak began, as every printed line shows them."""

    def __init__(self) -> None:
        self.start = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.start

    def stamp(self, text: str) -> str:
        return f"[+{self.now():7.1f} s] {text}"


@dataclass
class Cause:
    """A part killed: when, what, and when the room had it back (None while it is still down)."""

    what: str
    began: float
    ended: float | None = None


@dataclass
class Gap:
    """A journal whose pit head stood at `head` while the stream held later records."""

    table_id: str
    journal: str
    head: int
    opened: float
    stream_hole: bool  # the stream itself lacked record head + 1 when it opened
    closed: float | None = None
    cause: Cause | None = None

    def after_cause(self, end: float) -> float:
        """How long it stayed open after its cause ended (to `end` while still open)."""
        closed = self.closed if self.closed is not None else end
        if self.cause is None or self.cause.ended is None:
            return closed - self.opened
        return max(0.0, closed - max(self.cause.ended, self.opened))

    def line(self, end: float) -> str:
        cause = f"after {self.cause.what}" if self.cause is not None else "with no part down"
        state = f"closed at +{self.closed:.1f} s" if self.closed is not None else "STILL OPEN at the end"
        hole = "; the stream lacked it too" if self.stream_hole else ""
        return (
            f"{self.table_id} {self.journal[:12]} from seq {self.head + 1}: opened at +{self.opened:.1f} s"
            f" {cause}, {state}; open {self.after_cause(end):.1f} s after its cause ended{hole}"
        )


@dataclass
class Watch:
    """Samples, about once a second, each journal's pit head (the store) and its last record in the
    stream, and keeps the gaps it sees."""

    dsn: str
    brokers: list[str]
    seed: str
    clock: Clock
    gaps: list[Gap] = field(default_factory=list)
    causes: list[Cause] = field(default_factory=list)
    heads: dict[str, tuple[int, float]] = field(default_factory=dict)  # journal -> (head, since when unmoved)
    tables: dict[str, str] = field(default_factory=dict)  # journal -> table id
    loop: asyncio.AbstractEventLoop = field(default_factory=asyncio.new_event_loop)
    client: Client | None = None
    conn: psycopg.Connection[Any] | None = None

    def sample(self) -> None:
        stored = self._stored()
        streamed = self.loop.run_until_complete(self._streamed(set(stored)))
        if not stored or streamed is None:
            return  # the store or the stream did not answer: nothing is judged on half a sample
        now = self.clock.now()
        for journal, (table_id, head) in stored.items():
            self.tables[journal] = table_id
            last, count = streamed.get(journal, (0, 0))
            was, since = self.heads.get(journal, (-1, now))
            since = since if head == was and last > head else now  # unmoved while behind, since when
            self.heads[journal] = (head, since)
            gap = self.open_gap(journal)
            if gap is not None and head > gap.head:
                gap.closed = now
            elif gap is None and last > head and now - since >= STALL_S:
                self.gaps.append(Gap(table_id, journal, head, since, count < last, cause=self._cause_of(since)))

    def open_gap(self, journal: str) -> Gap | None:
        return next((gap for gap in self.gaps if gap.journal == journal and gap.closed is None), None)

    def _cause_of(self, at: float) -> Cause | None:
        """The last part killed before the gap opened."""
        return next((cause for cause in reversed(self.causes) if cause.began <= at + 1.0), None)

    def _stored(self) -> dict[str, tuple[str, int]]:
        try:
            if self.conn is None or self.conn.closed:
                self.conn = psycopg.connect(self.dsn, autocommit=True, connect_timeout=int(ASK_S))
            rows = self.conn.execute("SELECT journal, table_id, head_seq FROM journals").fetchall()
        except psycopg.Error:
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            return {}
        return {str(journal): (str(table_id), int(head)) for journal, table_id, head in rows}

    async def _streamed(self, journals: set[str]) -> dict[str, tuple[int, int]] | None:
        """journal -> (its last record's seq in the stream, messages the stream holds of it)."""
        try:
            if self.client is None:
                self.client = await nats.connect(
                    servers=self.brokers,
                    nkeys_seed_str=self.seed,
                    error_cb=_quiet,
                    connect_timeout=ASK_S,
                    max_reconnect_attempts=-1,
                )
            js = self.client.jetstream(timeout=ASK_S)
            info = await js.stream_info(STREAM, subjects_filter=STREAM_SUBJECTS)
            found: dict[str, tuple[int, int]] = {}
            for subject, count in (info.state.subjects or {}).items():
                journal = subject.rsplit(".", 1)[-1]
                if journal in journals:
                    found[journal] = (await _last_seq(js, subject), count)
            return found
        except (TimeoutError, nats.errors.Error, OSError):
            return None

    def close(self) -> None:
        if self.client is not None:
            try:
                self.loop.run_until_complete(asyncio.wait_for(self.client.close(), ASK_S))
            except (TimeoutError, nats.errors.Error, OSError):
                pass
        self.loop.close()
        if self.conn is not None:
            self.conn.close()


async def _quiet(error: Exception) -> None:
    """Nodes killed on purpose: the client's reconnecting is expected, not printed (a sample without
    the stream's answer is skipped instead)."""


async def _last_seq(js: JetStreamContext, subject: str) -> int:
    raw = await js.get_last_msg(STREAM, subject, direct=True)
    return int(json.loads(raw.data or b"{}").get("seq", 0))


@dataclass(frozen=True)
class Tally:
    """One journal file against the store: what it journaled, what the store holds of it."""

    table_id: str
    journal: str
    journaled: int
    stored: int
    missing: list[int]
    doubled: int  # rows beyond one per seq
    extra: list[int]  # seqs the store holds that the journal does not
    wrong_hash: list[int]

    @property
    def ok(self) -> bool:
        return not (self.missing or self.doubled or self.extra or self.wrong_hash)

    def line(self) -> str:
        found = f"{self.journaled:,} journaled, {self.stored:,} stored"
        if self.ok:
            return f"{self.table_id} {self.journal[:12]}: {found}: every record once, hashes equal"
        return (
            f"{self.table_id} {self.journal[:12]}: {found}: missing {len(self.missing)}{_seqs(self.missing)},"
            f" doubled {self.doubled}, not journaled {len(self.extra)}{_seqs(self.extra)},"
            f" hash differs {len(self.wrong_hash)}{_seqs(self.wrong_hash)}"
        )


def _seqs(seqs: list[int]) -> str:
    return "" if not seqs else " (seq " + ", ".join(map(str, seqs[:8])) + (", ..." if len(seqs) > 8 else "") + ")"


def tally(path: Path, table_id: str, dsn: str) -> Tally:
    records = {record.seq: record.hash.hex() for record in read_records(path)}
    journal = journal_identity(next(read_records(path)))
    with psycopg.connect(dsn, connect_timeout=10) as conn:
        rows = conn.execute("SELECT seq, hash FROM records WHERE journal = %s", (journal,)).fetchall()
    stored: dict[int, str] = {}
    for seq, digest in rows:
        stored[int(seq)] = str(digest)
    return Tally(
        table_id,
        journal,
        len(records),
        len(rows),
        sorted(set(records) - set(stored)),
        len(rows) - len(stored),
        sorted(set(stored) - set(records)),
        sorted(seq for seq, digest in stored.items() if seq in records and records[seq] != digest),
    )


def caught_up(dsn: str, heads: dict[str, int]) -> bool:
    """Every journal's witnessed head at its journal's last seq."""
    try:
        with psycopg.connect(dsn, connect_timeout=int(ASK_S)) as conn:
            rows = conn.execute("SELECT journal, head_seq FROM journals").fetchall()
    except psycopg.Error:
        return False
    stored = {str(journal): int(head) for journal, head in rows}
    return all(stored.get(journal, 0) >= head for journal, head in heads.items())


def journal_heads(paths: dict[str, Path]) -> dict[str, int]:
    """journal identity -> its last seq, for each table's journal file."""
    heads: dict[str, int] = {}
    for path in paths.values():
        records = list(read_records(path))
        if records:
            heads[journal_identity(records[0])] = records[-1].seq
    return heads

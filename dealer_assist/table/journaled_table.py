"""A table on its journal: every input is worked out, written durably, and only then taken.

Opening a table takes its journal's lock first (one writer per journal, whoever opens it: the
screen, the bench, a test), checks that the start names the journal's own table, and verifies the
journal; a damaged journal is left untouched and the table refuses to deal. A table killed at any moment reopens
into the same round at the same point by
replaying, from the journal alone, the inputs since the last closed round.

Journal first: a trial copy of the session works out what an input does (the operations, or the
refusal); that record is written; only once it is durable does the session everyone reads take
the input. A record that cannot be written (a full disk, a closed journal) stops the table where
its journal ends, with nothing in memory moved, and every later input is refused until the table
is opened again.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from dealer_assist.errors import Failure
from dealer_assist.journal.errors import JournalClosed, JournalCode, JournalDamaged, JournalError, JournalWriteFailed
from dealer_assist.journal.journal_file import Journal, Record, RecordKind, Verdict, record_at, security_events, verify
from dealer_assist.journal.lock import JournalLock
from dealer_assist.journal.record_source import RecordSource, as_source
from dealer_assist.rules.ledger import ledger
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.rules.tracker import RoundTracker
from dealer_assist.table.codec import decode, encode
from dealer_assist.table.header import header_body, table_config
from dealer_assist.table.match import refuse_other_table
from dealer_assist.table.pins import PinGuard, PinSetter, lock_refusal, new_pin, pin_from_hash_text
from dealer_assist.table.readings import mispay_entries
from dealer_assist.table.session import ClosedRound, TableConfig, TableInput, TableSession
from dealer_assist.table.session_inputs import (
    AcceptPayout,
    ConfirmPeek,
    DiscardMisdeal,
    KeyCard,
    RekeyCard,
    SettlementConfirmed,
    SpotsScanned,
    VoidRound,
)
from dealer_assist.table.session_operations import RoundClosed, TableOperation

__all__ = ["Table", "TableStopped", "replay", "replayed_ledger"]

SOFTWARE = "dealer-assist 0.1.0"
SUPERVISOR_INPUTS = (VoidRound, RekeyCard, DiscardMisdeal, ConfirmPeek, KeyCard, AcceptPayout)


class TableStopped(JournalError):
    """The journal could not take a record, so the table takes no more inputs until it is opened
    again; the message says which record failed and where the journal ends."""

    def __init__(self, message: str) -> None:
        super().__init__(JournalCode.TABLE_STOPPED, message)


class Table:
    def __init__(
        self,
        path: Path,
        journal: Journal,
        session: TableSession,
        pins: PinGuard,
        verdict: Verdict,
        clock: Callable[[], float],
        rounds_closed: int,
        lock: JournalLock,
    ) -> None:
        self.path = path
        self.journal = journal
        self.lock = lock  # held until `close`; `lock.took_over` names a dead holder whose lock was left
        self.session = session
        self.pins = pins
        self.clock = clock
        self.rounds_closed = rounds_closed
        self.stopped: str | None = None  # why the table stopped taking inputs, once it has
        self.created = False  # this opening made the journal
        self._verified = (verdict.records, verdict.head)
        self._trial = _twin(session)  # works out each input before its record is written

    # --- opening --------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: Path | str,
        config: TableConfig | None = None,
        *,
        devices: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.time,
        named: Mapping[str, str] | None = None,
        resumed: bool = True,
    ) -> Table:
        """Open or create the table's journal. Raises JournalInUse naming the process that holds it,
        InputError when a field the start `named` (field -> where it was named, e.g. "--profile")
        differs from the journal's own table, and JournalDamaged on any damage. An existing journal
        records that the table resumed; `resumed=False` for a tool that opens it without dealing
        (`pin set`), whose own record is all it adds."""
        path = Path(path)
        lock = JournalLock(path).acquire()
        try:
            if config is not None and named:
                refuse_other_table(path, config, named)
            return cls._opened(path, config, devices, clock, lock, resumed)
        except BaseException:
            lock.release()
            raise

    @classmethod
    def _opened(
        cls,
        path: Path,
        config: TableConfig | None,
        devices: dict[str, Any] | None,
        clock: Callable[[], float],
        lock: JournalLock,
        resumed: bool,
    ) -> Table:
        verdict = verify(path) if path.exists() else Verdict(True, 0, "new journal")
        if not verdict.ok:
            raise JournalDamaged(verdict, verdict.message)
        if verdict.records == 0:  # new, or created by a start that stopped before its first record
            if config is None:
                raise JournalError(
                    JournalCode.NO_JOURNAL, f"{path}: no journal here, and no table configuration to start one"
                )
            session = TableSession(config)
            journal = Journal(path, verdict)
            journal.append(RecordKind.TABLE, header_body(config, session.profile, devices or {}, SOFTWARE))
            verdict = Verdict(True, journal.seq, "", None, 1, journal.head)
            table = cls(path, journal, session, PinGuard(), verdict, clock, 0, lock)
            table.created = True
            return table
        session, pins = _recover(path, verdict)
        journal = Journal(path, verdict)
        table = cls(path, journal, session, pins, verdict, clock, verdict.closed, lock)
        if resumed:
            table._write(
                RecordKind.RESUMED,
                {
                    "round_id": session.round_id,
                    "state": session.state.value,
                    "devices": devices or {},
                    "software": SOFTWARE,
                },
            )
        return table

    # --- inputs -----------------------------------------------------------------------------------

    def submit(self, event: TableInput) -> tuple[TableOperation, ...]:
        """Apply one input and record it; a refusal is recorded too, then raised."""
        self._check_running()
        if isinstance(event, SUPERVISOR_INPUTS):
            raise RuleError(Refusal.SUPERVISOR_ONLY, f"{type(event).__name__} needs the floor supervisor's PIN")
        return self._apply(event)

    def supervise(self, event: TableInput, pin: str) -> tuple[TableOperation, ...]:
        """A correction: the supervisor's PIN first, then the input like any other."""
        self.check_pin(pin)
        return self._apply(event)

    def check_pin(self, pin: str) -> None:
        """The supervisor's PIN check, every try recorded; `MAX_TRIES` wrong tries lock it (`pins`)."""
        self._check_running()
        try:
            events = self.pins.check(pin, self.clock())
        except RuleError as error:
            self._write(RecordKind.SECURITY, {"event": "pin_refused", "reason": error.code})
            raise
        for body in events:
            self._write(RecordKind.SECURITY, body)
            self.pins.replay(body)
        if events[-1]["event"] == "pin_locked":
            raise lock_refusal()
        if events[-1]["event"] != "pin_ok":
            raise RuleError(Refusal.WRONG_PIN, "wrong supervisor PIN")

    def set_pin(self, new: str, current: str | None = None, by: PinSetter = PinSetter.SUPERVISOR) -> None:
        """Set the supervisor PIN; changing it needs the current one."""
        self._check_running()
        if self.pins.digest is not None:
            if current is None:
                raise RuleError(Refusal.WRONG_PIN, "changing the PIN needs the current PIN")
            self.check_pin(current)
        body = new_pin(new, by)
        self._write(RecordKind.SECURITY, body)
        self.pins.replay(body)

    def adopt_pin_hash(self, text: str) -> None:
        """The table file's PIN hash becomes the table's first PIN; a table that has one keeps it."""
        self._check_running()
        if self.pins.digest is not None:
            raise RuleError(
                Refusal.BAD_PIN, "the table has a supervisor PIN already: it is changed behind the current one"
            )
        body = pin_from_hash_text(text)
        self._write(RecordKind.SECURITY, body)
        self.pins.replay(body)

    @property
    def header_hash(self) -> bytes:
        """The journal's first record's hash: what a tool works its printed PIN out from."""
        return record_at(self.path, 1).hash

    def note_device(self, body: dict[str, Any]) -> None:
        """Device identities and link changes go into the journal as evidence."""
        self._check_running()
        self._write(RecordKind.DEVICE, body, self.session.round_id if self.session.tracker else None)

    def _check_running(self) -> None:
        if self.stopped is not None:
            raise TableStopped(self.stopped)

    def _write(self, kind: RecordKind, body: dict[str, Any], round_id: int | None = None) -> Record:
        """Append one record; one that cannot be written stops the table where its journal ends."""
        try:
            return self.journal.append(kind, body, round_id)
        except (JournalWriteFailed, JournalClosed) as error:
            fix = "has the disk fixed and then " if isinstance(error, JournalWriteFailed) else ""
            self.stopped = (
                f"the table stopped: {error}. Nothing recorded is lost. Dealer: deal no more and call a floor "
                f"supervisor, who {fix}opens the table again; it resumes where the journal ends"
            )
            raise TableStopped(self.stopped) from error

    def _apply(self, event: TableInput) -> tuple[TableOperation, ...]:
        """The trial session takes `event` first; its record is written; then the session does.
        A refusal is recorded too and never reaches the session; the trial is copied afresh from
        it, so whatever the refused input touched cannot drift into the next one."""
        session, now = self.session, self.clock()
        tracker = session.tracker
        round_id = session.round_id if tracker is not None else None
        settled = _settles(tracker, event)
        try:
            ops = self._trial.apply(event, now)
        except RuleError as error:
            self._trial = _twin(session)
            self._write(
                RecordKind.REFUSED, {"input": encode(event), "now": now, "error": error.to_json()["error"]}, round_id
            )
            raise
        body: dict[str, Any] = {"input": encode(event), "ops": [encode(op) for op in ops], "now": now}
        closes = any(isinstance(op, RoundClosed) for op in ops)
        if closes:
            closed = self._trial.closed
            body["state"] = self._trial.checkpoint
            body["ledger"] = _closing_ledger(ledger(tracker) if tracker is not None and settled else None, closed)
            if closed.dealers:
                body["dealers"] = list(closed.dealers)
        self._write(RecordKind.CLOSE if closes else RecordKind.INPUT, body, round_id)
        taken = session.apply(event, now)  # the same input on the same state: the same operations
        if taken != ops:
            self.stopped = (
                f"the table stopped: {type(event).__name__} worked out to other operations when taken than when "
                f"it was recorded (record {self.journal.seq}); nothing after it is taken. Dealer: deal no more "
                "and call a floor supervisor, who opens the table again; it resumes from the journal"
            )
            raise TableStopped(self.stopped)
        if closes:
            self.rounds_closed += 1
            self._verify_since_last()
        return ops

    def _verify_since_last(self) -> None:
        """At every round's end, read back what was written since the last check."""
        since, head = self._verified
        verdict = verify(self.path, since, head)
        if not verdict.ok:
            raise JournalDamaged(verdict, verdict.message)
        self._verified = (verdict.records, verdict.head)

    def close(self) -> None:
        """Seal the journal and give up its lock."""
        try:
            self.journal.close()
        finally:
            self.lock.release()

    def discard(self) -> None:
        """A start refused after the table was opened: a journal this opening made is deleted, before
        its lock is given up, so the refused start leaves no journal, seal or lock behind; one that
        was there before is closed as usual."""
        if not self.created:
            self.close()
            return
        try:
            self.journal.remove()
        finally:
            self.lock.release()


def replay(
    where: RecordSource | Path | str, config: TableConfig, checkpoint: Record | None, until: int | None = None
) -> TableSession:
    """The session restored at `checkpoint` (a closing record, or None for the table's start),
    with every later input up to record `until` applied again and checked against the journal."""
    source = as_source(where)
    session = TableSession(config, checkpoint.body["state"] if checkpoint is not None else None)
    for record in source.records(since=checkpoint.seq if checkpoint is not None else 0):
        if until is not None and record.seq >= until:
            break
        if record.kind not in (RecordKind.INPUT, RecordKind.CLOSE):
            continue
        ops = session.apply(decode(record.body["input"]), record.body["now"])
        if [encode(op) for op in ops] != record.body["ops"]:
            raise JournalError(
                JournalCode.BAD_JOURNAL,
                f"{source.name}: record {record.seq} replays to other operations than it recorded",
            )
    return session


def replayed_ledger(
    where: RecordSource | Path | str, config: TableConfig, checkpoint: Record | None, closing: Record
) -> dict[str, Any] | None:
    """The ledger a round's closing record journaled, worked out again: the session restored at
    `checkpoint`, every input up to `closing` replayed and checked against its operations, then the
    closing input taken as the table took it."""
    session = replay(where, config, checkpoint, until=closing.seq)
    event = decode(closing.body["input"])
    tracker = session.tracker
    settled = ledger(tracker) if tracker is not None and _settles(tracker, event) else None
    ops = session.apply(event, closing.body["now"])
    if [encode(op) for op in ops] != closing.body["ops"]:
        raise JournalError(
            JournalCode.BAD_JOURNAL, f"record {closing.seq} replays to other operations than it recorded"
        )
    return _closing_ledger(settled, session.closed)


def _settles(tracker: RoundTracker | None, event: TableInput) -> bool:
    """Whether `event` closes a settled round, so that its record keeps the round's ledger."""
    return (
        tracker is not None
        and tracker.phase is Phase.SETTLED
        and isinstance(event, SettlementConfirmed | SpotsScanned | AcceptPayout)
    )


def _closing_ledger(settled: dict[str, Any] | None, closed: ClosedRound) -> dict[str, Any] | None:
    """The ledger a closing record keeps: the settled round's, with the mispays accepted in it."""
    if settled is not None and closed.mispays:
        settled["mispays"] = mispay_entries(closed.mispays)
    return settled


def _twin(session: TableSession) -> TableSession:
    """A session in the same state that shares nothing it changes (its rules and settings it does)."""
    return copy.deepcopy(session, {id(session.config): session.config, id(session.profile): session.profile})


def _recover(path: Path, verdict: Verdict) -> tuple[TableSession, PinGuard]:
    """The session at the last closed round, then every input since, replayed and compared."""
    pins = PinGuard()
    for body in security_events(path):
        pins.replay(body)
    checkpoint = record_at(path, verdict.checkpoint)
    closed = checkpoint if checkpoint.kind is RecordKind.CLOSE else None
    try:
        session = replay(path, table_config(path), closed)
    except Failure as error:  # a record the rules refuse now, or one that replays to other operations
        raise JournalDamaged(Verdict(False, verdict.records, error.message), error.message) from None
    return session, pins

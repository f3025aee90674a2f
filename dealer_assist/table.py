"""A table on its journal: every input is checked by the session, then written durably.

Opening a table verifies its journal first; a damaged journal is left untouched and the table
refuses to deal. A table killed at any moment reopens into the same round at the same point by
replaying, from the journal alone, the inputs since the last closed round.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer_assist.codec import decode, encode
from dealer_assist.errors import RuleError
from dealer_assist.journal import (
    Journal, JournalCorrupt, Record, RecordKind, Verdict, read_records, record_at, security_events, verify,
)
from dealer_assist.ledger import ledger
from dealer_assist.pins import PinGuard, new_pin
from dealer_assist.session_inputs import ConfirmPeek, DiscardMisdeal, KeyCard, RekeyCard, SettlementConfirmed, VoidRound
from dealer_assist.session_operations import RoundClosed
from dealer_assist.table_session import TableConfig, TableInput, TableSession
from dealer_assist.tracker import Phase

SOFTWARE = "dealer-assist 0.1.0"
SUPERVISOR_INPUTS = (VoidRound, RekeyCard, DiscardMisdeal, ConfirmPeek, KeyCard)


class Table:
    def __init__(self, path: Path, journal: Journal, session: TableSession, pins: PinGuard,
                 verdict: Verdict, clock: Callable[[], float], rounds_closed: int) -> None:
        self.path = path
        self.journal = journal
        self.session = session
        self.pins = pins
        self.clock = clock
        self.rounds_closed = rounds_closed
        self._verified = (verdict.records, verdict.head)

    # --- opening --------------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str, config: TableConfig | None = None, *, devices: dict[str, Any] | None = None,
             clock: Callable[[], float] = time.time) -> Table:
        """Open or create the table's journal; raises JournalCorrupt on any damage."""
        path = Path(path)
        verdict = verify(path) if path.exists() else Verdict(True, 0, "new journal")
        if not verdict.ok:
            raise JournalCorrupt(verdict)
        if verdict.records == 0:  # new, or created by a start that stopped before its first record
            if config is None:
                raise RuleError("no_journal", f"{path}: no journal here, and no table configuration to start one")
            session = TableSession(config)
            journal = Journal(path, verdict)
            journal.append(RecordKind.TABLE, {
                "config": config.to_json(), "profile": {"id": session.profile.id, "hash": session.profile.content_hash,
                                                        "settings": session.profile.settings()},
                "devices": devices or {}, "software": SOFTWARE})
            verdict = Verdict(True, journal.seq, "", None, 1, journal.head)
            return cls(path, journal, session, PinGuard(), verdict, clock, 0)
        session, pins = _recover(path, verdict)
        journal = Journal(path, verdict)
        table = cls(path, journal, session, pins, verdict, clock, verdict.closed)
        journal.append(RecordKind.RESUMED, {"round_id": session.round_id, "state": session.state.value,
                                            "devices": devices or {}, "software": SOFTWARE})
        return table

    # --- inputs -----------------------------------------------------------------------------------

    def submit(self, event: TableInput) -> tuple[Any, ...]:
        """Apply one input and record it; a refusal is recorded too, then raised."""
        if isinstance(event, SUPERVISOR_INPUTS):
            raise RuleError("supervisor_only", f"{type(event).__name__} needs the floor supervisor's PIN")
        return self._apply(event)

    def supervise(self, event: TableInput, pin: str) -> tuple[Any, ...]:
        """A correction: the supervisor's PIN first, then the input like any other."""
        self.check_pin(pin)
        return self._apply(event)

    def check_pin(self, pin: str) -> None:
        """The supervisor's PIN check, every try recorded; five wrong tries lock it for 60 s."""
        try:
            events = self.pins.check(pin, self.clock())
        except RuleError as error:
            self.journal.append(RecordKind.SECURITY, {"event": "pin_refused", "reason": error.code})
            raise
        for body in events:
            self.journal.append(RecordKind.SECURITY, body)
            self.pins.replay(body)
        if events[-1]["event"] == "pin_locked":
            raise RuleError("pin_locked", "wrong supervisor PIN: five wrong tries, locked for 60 s")
        if events[-1]["event"] != "pin_ok":
            raise RuleError("wrong_pin", "wrong supervisor PIN")

    def set_pin(self, new: str, current: str | None = None) -> None:
        """Set the supervisor PIN; changing it needs the current one."""
        if self.pins.digest is not None:
            if current is None:
                raise RuleError("wrong_pin", "changing the PIN needs the current PIN")
            self.check_pin(current)
        body = new_pin(new)
        self.journal.append(RecordKind.SECURITY, body)
        self.pins.replay(body)

    def note_device(self, body: dict[str, Any]) -> None:
        """Device identities and link changes go into the journal as evidence."""
        self.journal.append(RecordKind.DEVICE, body, self.session.round_id if self.session.tracker else None)

    def _apply(self, event: TableInput) -> tuple[Any, ...]:
        session = self.session
        now = self.clock()
        tracker = session.tracker
        round_id = session.round_id if tracker is not None else None
        settled = tracker is not None and tracker.phase is Phase.SETTLED
        settled_ledger = ledger(tracker) if settled and isinstance(event, SettlementConfirmed) else None
        try:
            ops = session.apply(event, now)
        except RuleError as error:
            self.journal.append(RecordKind.REFUSED, {"input": encode(event), "now": now,
                                                     "error": error.to_json()["error"]}, round_id)
            raise
        body: dict[str, Any] = {"input": encode(event), "ops": [encode(op) for op in ops], "now": now}
        if any(isinstance(op, RoundClosed) for op in ops):
            body["state"] = session.checkpoint
            body["ledger"] = settled_ledger
            self.journal.append(RecordKind.CLOSE, body, round_id)
            self.rounds_closed += 1
            self._verify_since_last()
        else:
            self.journal.append(RecordKind.INPUT, body, round_id)
        return ops

    def _verify_since_last(self) -> None:
        """At every round's end, read back what was written since the last check."""
        since, head = self._verified
        verdict = verify(self.path, since, head)
        if not verdict.ok:
            raise JournalCorrupt(verdict)
        self._verified = (verdict.records, verdict.head)

    def close(self) -> None:
        self.journal.close()


def table_config(path: Path) -> TableConfig:
    header = next(read_records(path))
    if header.kind is not RecordKind.TABLE:
        raise RuleError("bad_journal", f"{path}: record 1 is not a table header")
    raw = header.body["config"]
    return TableConfig(raw["table_id"], raw["profile"], raw["settings"], raw["seats"], raw["burn_cards"], raw["rotation_rules"])


def replay(path: Path, config: TableConfig, checkpoint: Record | None, until: int | None = None) -> TableSession:
    """The session restored at `checkpoint` (a closing record, or None for the table's start),
    with every later input up to record `until` applied again and checked against the journal."""
    session = TableSession(config, checkpoint.body["state"] if checkpoint is not None else None)
    for record in read_records(path, since=checkpoint.seq if checkpoint is not None else 0):
        if until is not None and record.seq >= until:
            break
        if record.kind not in (RecordKind.INPUT, RecordKind.CLOSE):
            continue
        ops = session.apply(decode(record.body["input"]), record.body["now"])
        if [encode(op) for op in ops] != record.body["ops"]:
            raise RuleError("bad_journal", f"{path}: record {record.seq} replays to other operations than it recorded")
    return session


def _recover(path: Path, verdict: Verdict) -> tuple[TableSession, PinGuard]:
    """The session at the last closed round, then every input since, replayed and compared."""
    pins = PinGuard()
    for body in security_events(path):
        pins.replay(body)
    checkpoint = record_at(path, verdict.checkpoint)
    try:
        session = replay(path, table_config(path), checkpoint if checkpoint.kind is RecordKind.CLOSE else None)
    except RuleError as error:
        raise JournalCorrupt(Verdict(False, verdict.records, error.message)) from None
    return session, pins

"""The log's keeper, run by the ingesting pit beside ingest: closes waiting segments into leaves, signs a
checkpoint each interval while the log grows (and every IDLE_SIGN_S when it does not), sends each one to
every witness of the policy, and publishes it once the quorum cosigned. The table never waits for any of
it: ingest only appends leaves, in its own transactions; a witness down delays publication alone.

A checkpoint is signed only over leaves every standby has received (`standbys`), and only when
it extends the last checkpoint signed; so a standby promoted after losing commits never lacks a signed
leaf, and no two checkpoints this log signs lack a consistency proof between them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import psycopg
from psycopg.rows import TupleRow

from pit.service.log import standbys
from pit.service.log.alerts import (
    STANDBY_GONE_AFTER,
    clear_standby_alerts,
    raise_log_alert,
    standby_cause,
    unpublished_rounds,
)
from pit.service.log.append import append_segments
from pit.service.log.tree import LeafTree
from pit.service.log.witness_client import Refused, add_checkpoint
from pit.service.store import lease
from pit.service.store.lease import Session, pause
from pit.tlog.checkpoint import Checkpoint
from pit.tlog.keys import SignerKey
from pit.tlog.merkle import consistency_proof
from pit.tlog.note import Note, Signature
from pit.tlog.policy import Policy, PolicyWitness
from pit.tlog.witness.request import AddCheckpoint

__all__ = ["DEFAULT_INTERVAL_S", "LogKeeper", "LogSettings"]

DEFAULT_INTERVAL_S = 60.0
IDLE_SIGN_S = 600.0  # a checkpoint every 10 minutes when the log does not grow
TICK_S = 0.25
CHORES_S = 10.0  # segments closed and unpublished rounds looked for this often
RETRY_S = 5.0  # a witness that did not cosign is sent the newest checkpoint again after this
log = logging.getLogger("pit.log")


@dataclass(frozen=True)
class LogSettings:
    key: SignerKey
    policy: Policy
    interval_s: float = DEFAULT_INTERVAL_S


@dataclass
class _Signed:
    checkpoint: Checkpoint
    note: bytes  # the log's signed note
    cosigned: dict[str, Signature]


class LogKeeper:
    def __init__(self, dsn: str, settings: LogSettings) -> None:
        self.dsn = dsn
        self.settings = settings
        self.signed = 0  # checkpoints signed since start

    async def run(self, session: Session, stop: asyncio.Event) -> None:
        """Keep the log while this pit holds the ingest lock (`session`); returns at `stop`."""
        conn = await lease.connect(self.dsn)
        await conn.set_autocommit(True)
        keeping = _Keeping(self, session, conn)
        workers = [asyncio.create_task(keeping.witness(w, stop)) for w in self.settings.policy.witnesses.values()]
        try:
            await keeping.sign_and_tend(stop)
        finally:
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
            await lease.quietly_close(conn)


class _Keeping:
    """One leadership's keeping of the log: its tree, the last checkpoint signed, the witnesses' news."""

    def __init__(self, keeper: LogKeeper, session: Session, conn: psycopg.AsyncConnection[TupleRow]) -> None:
        self.keeper = keeper
        self.settings = keeper.settings
        self.lock = session
        self.conn = conn
        self.tree = LeafTree()
        self.newest: _Signed | None = None
        self.news = {name: asyncio.Event() for name in self.settings.policy.witnesses}
        self.standbys_seen = 0
        self.waiting_since: float | None = None  # since when signing has waited for a standby
        self.standby_alerts_cleared = False  # every standby alert marked cleared since signing last went on

    async def sign_and_tend(self, stop: asyncio.Event) -> None:
        last = await self._last_signed()
        signed_at, chores_at = 0.0, 0.0
        while not stop.is_set():
            now = time.monotonic()
            if now >= chores_at:
                async with self.lock.transaction() as c:
                    await append_segments(c)
                await self._alert_unpublished()
                chores_at = now + CHORES_S
            size = await self._size()
            grew = last is None or size > last.size
            if (grew and now >= signed_at + self.settings.interval_s) or now >= signed_at + IDLE_SIGN_S:
                signed = await self._sign(size, last)
                if signed is not None:
                    last, signed_at = signed.checkpoint, now
            await pause(stop, TICK_S)

    async def _last_signed(self) -> Checkpoint | None:
        row = await (
            await self.conn.execute("SELECT size, root FROM log_checkpoints ORDER BY size DESC LIMIT 1")
        ).fetchone()
        return None if row is None else Checkpoint(self.settings.key.name, int(row[0]), bytes(row[1]))

    async def _size(self) -> int:
        row = await (await self.conn.execute("SELECT coalesce(max(idx) + 1, 0) FROM log_leaves")).fetchone()
        return int(row[0]) if row else 0

    async def _sign(self, size: int, last: Checkpoint | None) -> _Signed | None:
        """Sign the tree of `size` once every standby has applied its leaves and it extends `last`."""
        target = await standbys.insert_lsn(self.conn)
        replication = await standbys.applied(self.conn, target, self.standbys_seen)
        self.standbys_seen = max(self.standbys_seen, replication.streaming)
        if not replication.applied:
            log.info("log: leaves to %d not yet applied by every standby; signing waits", size)
            await self._alert_standbys_gone(replication.gone)
            return None
        self.waiting_since = None
        if not self.standby_alerts_cleared:  # raised by this leadership or one before it
            await clear_standby_alerts(self.lock)
            self.standby_alerts_cleared = True
        await self.tree.grow(self.conn, size)
        if last is not None and (size < last.size or self.tree.root(last.size) != last.root):
            await raise_log_alert(
                self.lock,
                f"log-fork:{last.size}:{size}",
                "log",
                f"the log's leaves no longer rebuild checkpoint {last.size}: not signing",
            )
            return None
        checkpoint = Checkpoint(self.settings.key.name, size, self.tree.root(size))
        note = checkpoint.sign(self.settings.key)
        await self.conn.execute(
            "INSERT INTO log_checkpoints (size, root, note) VALUES (%s, %s, %s) ON CONFLICT (size) DO NOTHING",
            (size, checkpoint.root, note),
        )
        self.keeper.signed += 1
        self.newest = _Signed(checkpoint, note, {})
        for event in self.news.values():
            event.set()
        if self.settings.policy.satisfied(set()):  # a policy with no quorum needed: published as signed
            await self._publish(self.newest)
        return self.newest

    async def witness(self, witness: PolicyWitness, stop: asyncio.Event) -> None:
        """Send each newest checkpoint to one witness until it cosigns it."""
        known = await self._witness_size(witness.name)
        news = self.news[witness.name]
        while not stop.is_set():
            await news.wait()
            news.clear()
            signed = self.newest
            if signed is None or witness.name in signed.cosigned:
                continue
            try:
                known = await self._cosign(witness, signed, known)
            except Refused as refused:
                await raise_log_alert(
                    self.lock,
                    f"log-witness:{witness.name}:{signed.checkpoint.size}:{refused.status}",
                    "log",
                    f"witness {witness.name} refused checkpoint {signed.checkpoint.size}: "
                    f"{refused.status} {refused.body.strip()[:300]}",
                )
            if witness.name not in signed.cosigned:
                await pause(stop, RETRY_S)
                news.set()

    async def _cosign(self, witness: PolicyWitness, signed: _Signed, known: int) -> int:
        """One checkpoint to one witness, again at once with the size a 409 names; returns the size it holds."""
        for _ in range(2):
            if known > signed.checkpoint.size or known > self.tree.size:
                raise Refused(409, f"it holds size {known}, past this checkpoint's {signed.checkpoint.size}")
            proof = consistency_proof(self.tree, known, signed.checkpoint.size)
            answer = await add_checkpoint(
                witness, AddCheckpoint(known, tuple(proof), signed.note), signed.checkpoint.text()
            )
            if answer is None:
                return known
            if isinstance(answer, int):
                known = answer
                continue
            signed.cosigned[witness.name] = answer
            await self.conn.execute(
                "INSERT INTO log_witnesses (name, size) VALUES (%s, %s) ON CONFLICT (name)"
                " DO UPDATE SET size = excluded.size",
                (witness.name, signed.checkpoint.size),
            )
            if self.settings.policy.satisfied(set(signed.cosigned)):
                await self._publish(signed)
            return signed.checkpoint.size
        return known

    async def _publish(self, signed: _Signed) -> None:
        """The checkpoint with every cosignature received so far, published (again, with more of them)."""
        note = Note.parse(signed.note)
        lines = tuple(signed.cosigned[name] for name in sorted(signed.cosigned))
        full = Note(note.text, (*note.signatures, *lines)).render()
        await self.conn.execute(
            "UPDATE log_checkpoints SET note = %s, published = coalesce(published, now()) WHERE size = %s",
            (full, signed.checkpoint.size),
        )

    async def _witness_size(self, name: str) -> int:
        row = await (await self.conn.execute("SELECT size FROM log_witnesses WHERE name = %s", (name,))).fetchone()
        return int(row[0]) if row else 0

    async def _alert_standbys_gone(self, gone: tuple[tuple[str, str], ...]) -> None:
        """Once signing has waited STANDBY_GONE_AFTER, one alert per disconnected standby it waits for
        (per slot and the position it stopped at: the same outage, once, whichever pit keeps the log)."""
        now = time.monotonic()
        self.standby_alerts_cleared = False
        if self.waiting_since is None:
            self.waiting_since = now
        if now - self.waiting_since < STANDBY_GONE_AFTER.total_seconds():
            return
        for slot, stopped_at in gone:
            await raise_log_alert(
                self.lock,
                standby_cause(slot, stopped_at),
                "log",
                f"the log signs no checkpoint while standby {slot} is disconnected (it has the store's WAL to"
                f" {stopped_at}): start it again, or drop its replication slot if it is gone for good",
            )

    async def _alert_unpublished(self) -> None:
        for cause, table_id, journal, round_id, text in await unpublished_rounds(self.conn):
            await raise_log_alert(self.lock, cause, table_id, text, journal, round_id)

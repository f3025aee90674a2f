"""The log signs only over leaves every standby has received (PIT.md §9, order and forks): a standby that
dropped out holds signing back through its replication slot, even for a pit that took over after it
dropped out and never saw it stream, and the pit says so; a standby removed for good, its slot dropped,
no longer does."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest

from pit.service.log import keeper, standbys
from pit.service.log.keeper import LogKeeper, LogSettings
from pit.service.store.pit_store import PitStore
from pit.tlog.keyfile import write_new_key
from pit.tlog.keys import SignatureType
from pit.tlog.policy import Policy
from pit.trial.local_services import NatsServer, PostgresCluster
from tests.pit.journals import bench_journal, messages, ship
from tests.pit.pit_service import fresh_database, running_ingest, wait_for

pytestmark = pytest.mark.slow


def _applied(primary: PostgresCluster, seen: int = 0) -> tuple[bool, int]:
    """What a keeper asks before signing, as a leadership that has seen `seen` standbys stream."""

    async def ask() -> tuple[bool, int]:
        conn = await psycopg.AsyncConnection.connect(primary.dsn, autocommit=True)
        try:
            replication = await standbys.applied(conn, await standbys.insert_lsn(conn), seen)
            return replication.applied, max(seen, replication.streaming)
        finally:
            await conn.close()

    return asyncio.run(ask())


def _commit(primary: PostgresCluster, value: int) -> None:
    with psycopg.connect(primary.dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS leaves_here (n int)")
        conn.execute("INSERT INTO leaves_here VALUES (%s)", (value,))


def _slots(primary: PostgresCluster) -> list[tuple[str, bool]]:
    with psycopg.connect(primary.dsn) as conn:
        return [
            (str(name), bool(active))
            for name, active in conn.execute("SELECT slot_name, active FROM pg_replication_slots ORDER BY slot_name")
        ]


def test_a_standby_that_dropped_out_holds_signing_back(
    primary_and_standby: tuple[PostgresCluster, PostgresCluster],
) -> None:
    primary, standby = primary_and_standby
    _commit(primary, 1)
    wait_for(lambda: _applied(primary) == (True, 1), 30, "the streaming standby has the commit")
    assert _slots(primary) == [(standby.slot, True)], "the standby was made with its slot on the primary"

    standby.stop()
    _commit(primary, 2)  # a commit the standby has not got
    assert _applied(primary, seen=1) == (False, 1)
    assert _applied(primary, seen=0) == (False, 0), "a leadership that never saw the standby stream still waits"

    standby.start()
    wait_for(lambda: _applied(primary)[0], 30, "signing again once the standby has the commit")

    standby.stop()
    standby.forget()
    standby.follow(primary).start()  # the same standby made again: its old slot gives way to a new one
    assert [name for name, _ in _slots(primary)] == [standby.slot]
    wait_for(lambda: _applied(primary) == (True, 1), 30, "the standby made again has every commit")

    standby.stop()
    with psycopg.connect(primary.dsn, autocommit=True) as conn:  # removed for good: its slot dropped
        conn.execute("SELECT pg_drop_replication_slot(%s)", (standby.slot,))
    _commit(primary, 3)
    assert _applied(primary) == (True, 0)


def _signed(store: PitStore) -> int:
    """The size of the largest checkpoint the log has signed."""
    with store.pool.connection() as conn:
        row = conn.execute("SELECT coalesce(max(size), 0) FROM log_checkpoints").fetchone()
    return int(row[0]) if row else 0


def _leaves(store: PitStore) -> int:
    with store.pool.connection() as conn:
        row = conn.execute("SELECT count(*) FROM log_leaves").fetchone()
    return int(row[0]) if row else 0


def test_a_pit_taking_over_signs_nothing_its_disconnected_standby_lacks_and_says_why(
    tmp_path: Path,
    nats_server: NatsServer,
    primary_and_standby: tuple[PostgresCluster, PostgresCluster],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    primary, standby = primary_and_standby
    monkeypatch.setattr(keeper, "STANDBY_GONE_AFTER", timedelta(seconds=1))
    dsn = fresh_database(primary)
    store = PitStore.set_up(dsn)
    key = write_new_key(tmp_path / "log.key", "pit.test-room.example/da-log", SignatureType.ED25519)
    settings = LogSettings(key, Policy.parse(f"log {key.verifier()}\nquorum none\n".encode()), interval_s=0.5)
    found = messages(bench_journal(tmp_path / "t1.db", 6, 1, "T1"), "T1")
    seed = store.pit_identity().seed
    try:
        with running_ingest(nats_server.url, dsn, seed, log=LogKeeper(dsn, settings)):
            ship(nats_server.url, found[: len(found) // 2])
            first = wait_for(lambda: _signed(store), 30, "a checkpoint signed while the standby streams")
        standby.stop()
        with running_ingest(nats_server.url, dsn, seed, log=LogKeeper(dsn, settings)):  # never saw it stream
            ship(nats_server.url, found)
            wait_for(lambda: _leaves(store) == 6, 30, "every round's leaf appended")
            said = wait_for(
                lambda: [a for a in store.alerts() if a["kind"] == "log_refused" and standby.slot in a["text"]],
                30,
                "the alert naming the standby signing waits for",
            )
            assert len(said) == 1 and "start it again, or drop its replication slot" in said[0]["text"]
            assert _signed(store) == first < 6, "nothing signed that the standby lacks"
        standby.start()
        with running_ingest(nats_server.url, dsn, seed, log=LogKeeper(dsn, settings)):
            wait_for(lambda: _signed(store) == 6, 30, "every leaf signed once the standby has them")
        said = [a for a in store.alerts() if standby.slot in a["text"]]
        assert len(said) == 1, "one outage, one alert"
        assert said[0]["cleared"] is not None and said[0]["acked"] is None, "cleared, left for a person to acknowledge"
    finally:
        store.close()

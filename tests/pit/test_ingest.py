"""Ingest with a real nats-server and PostgreSQL: every record stored once, in chain order, and
the witness refusing a rewritten journal."""
from __future__ import annotations

import asyncio
from pathlib import Path

import nats
import pytest

from pit.broker import Identity, ensure_stream
from pit.local_services import NatsServer, PostgresCluster
from pit.store import PitStore
from tests.pit.journals import bench_journal, head, messages, publish, rewrite
from tests.pit.pit_service import fresh_database, running_ingest, stored_counts, wait_for

pytestmark = pytest.mark.slow


def _ship(url: str, found: list) -> None:
    async def go() -> None:
        nc = await nats.connect(url)
        js = nc.jetstream()
        await ensure_stream(js)
        await publish(js, found)
        await nc.close()
    asyncio.run(go())


def test_every_record_of_several_tables_is_stored_once_and_the_head_is_the_journals(
        tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.open(dsn)
    journals = {f"T{n}": bench_journal(tmp_path / f"t{n}.db", 8, n, f"T{n}") for n in (1, 2, 3)}
    shipped = {table: messages(path, table) for table, path in journals.items()}
    _ship(nats_server.url, [m for found in shipped.values() for m in found[:40]])
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        _ship(nats_server.url, [m for found in shipped.values() for m in found])  # the first 40 again: dropped
        expected = {found[0].journal: (len(found), len(found), len(found)) for found in shipped.values()}
        wait_for(lambda: stored_counts(store) == expected, what="every record")
    for table, path in journals.items():
        witnessed = store.witness(shipped[table][0].journal)
        assert witnessed == {"table_id": table, "journal": shipped[table][0].journal,
                             "records": head(path).seq, "head": head(path).hash.hex()}
    assert [r["round_id"] for r in store.rounds("T2", 3)] == [8, 7, 6]
    store.close()

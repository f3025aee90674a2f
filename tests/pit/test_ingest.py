"""Ingest with a real nats-server and PostgreSQL: every record stored once, in chain order, and
the witness refusing a rewritten journal."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from datetime import datetime, timedelta
from pathlib import Path

import msgspec
import nats
import pytest

from dealer_assist.journal.journal_file import RecordKind, record_hash
from hw_sims.bench_command import main as bench
from pit.service.store.pit_store import PitStore
from pit.stream.broker import Identity
from pit.stream.wire import StatusMessage
from pit.trial.local_services import NatsServer, PostgresCluster
from tests.pit.journals import bench_journal, head, messages, rewrite, ship
from tests.pit.pit_service import fresh_database, running_ingest, stored_counts, wait_for

pytestmark = pytest.mark.slow


def test_every_record_of_several_tables_is_stored_once_and_the_head_is_the_journals(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    journals = {f"T{n}": bench_journal(tmp_path / f"t{n}.db", 8, n, f"T{n}") for n in (1, 2, 3)}
    shipped = {table: messages(path, table) for table, path in journals.items()}
    ship(nats_server.url, [m for found in shipped.values() for m in found[:40]])
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        ship(nats_server.url, [m for found in shipped.values() for m in found])  # the first 40 again: dropped
        expected = {found[0].journal: (len(found), len(found), len(found)) for found in shipped.values()}
        wait_for(lambda: stored_counts(store) == expected, what="every record")
    for table, path in journals.items():
        witnessed = store.witness(shipped[table][0].journal)
        assert witnessed == {
            "table_id": table,
            "journal": shipped[table][0].journal,
            "records": head(path).seq,
            "head": head(path).hash.hex(),
            "missing": None,
        }
    assert [r["round_id"] for r in store.rounds("T2", 3)] == [8, 7, 6]
    store.close()


def test_a_rewritten_journal_dealt_on_raises_one_divergence_and_the_head_stays(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    path = bench_journal(tmp_path / "t.db", 5, 11, "RW")
    original = messages(path, "RW")
    ship(nats_server.url, original)
    journal = original[0].journal
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        wait_for(lambda: store.witness(journal)["records"] == len(original), what="the journal witnessed")
        rewrite(path, 40, {"now": 2.5})
        (tmp_path / "rw.creds").write_text(Identity.new().creds_file())
        assert (
            bench(
                [
                    "--rounds",
                    "8",
                    "--seed",
                    "11",
                    "--journal",
                    str(path),
                    "--table-id",
                    "RW",
                    "--resume",
                    "--links",
                    "in-process",
                    "--pit",
                    nats_server.url,
                    "--pit-creds",
                    str(tmp_path / "rw.creds"),
                ]
            )
            == 0
        )
        dealt_on = messages(path, "RW", since=len(original))  # the table dealt on and shipped through its shipper
        ship(nats_server.url, dealt_on[:3])  # and some are shipped again
        alerts = wait_for(lambda: store.alerts(table_id="RW"), what="the divergence alert")
        time.sleep(1.0)  # whatever else was coming has come
        alerts = [a for a in store.alerts(table_id="RW") if a["kind"] == "divergence"]
    assert len(alerts) == 1
    # the table's shipper sees the rewrite from the stream and reports it; the pit's own chain check
    # on the records shipped again is the same cause, not a second alert
    assert alerts[0]["text"].startswith(f"table RW journal {journal}")
    assert (
        f"record {len(original)} differs from the pit's stream (stream hash {original[-1].hash[:16]}"
        in alerts[0]["text"]
    )
    assert store.witness(journal) == {
        "table_id": "RW",
        "journal": journal,
        "records": len(original),
        "head": original[-1].hash,
        "missing": None,
    }
    assert stored_counts(store)[journal] == (len(original),) * 3
    store.close()


def _say(url: str, statuses: list[StatusMessage]) -> None:
    async def go() -> None:
        nc = await nats.connect(url)
        for status in statuses:
            await nc.publish(status.subject, status.encode())
        await nc.flush()
        await nc.close()

    asyncio.run(go())


def test_status_messages_make_the_live_tile_and_silence_and_a_link_down_raise_alerts(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    found = messages(bench_journal(tmp_path / "s.db", 2, 1, "ST"), "ST")
    ship(nats_server.url, found)
    status = StatusMessage(
        "ST",
        found[0].journal,
        "nobust-4.0",
        3,
        "play",
        {"seat": 1, "bank": 500, "turn": 2},
        {"shoe": "down", "peek": "up"},
        len(found),
        0,
        (datetime.fromisoformat(found[-1].wall) + timedelta(seconds=2)).isoformat(),
    )  # sent after them
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        wait_for(lambda: store.witness(found[0].journal)["records"] == len(found), what="the journal")
        _say(nats_server.url, [status, dataclasses.replace(status, last_seq=len(found) - 5)])
        tile = wait_for(lambda: [t for t in store.tables() if t["link"] == "live"], what="a live tile")[0]
        assert {
            k: tile[k] for k in ("table_id", "profile", "round_id", "phase", "player_dealer", "behind", "devices")
        } == {
            "table_id": "ST",
            "profile": "nobust-4.0",
            "round_id": 3,
            "phase": "play",
            "player_dealer": {"seat": 1, "bank": 500, "turn": 2},
            "behind": 0,
            "devices": {"shoe": "down", "peek": "up"},
        }
        kinds = wait_for(
            lambda: (
                {a["kind"] for a in store.alerts(table_id="ST")} >= {"link_down", "table_silent"}
                and [a["kind"] for a in store.alerts(table_id="ST")]
            ),
            timeout=25,
            what="silence",
        )
    assert sorted(kinds) == ["divergence", "link_down", "table_silent"]
    assert f"its last record is {len(found) - 5}, the pit witnessed {len(found)}" in next(
        a["text"] for a in store.alerts(table_id="ST") if a["kind"] == "divergence"
    )
    assert store.tables()[0]["link"] == "silent"
    store.close()


def test_a_record_the_store_will_not_take_is_kept_aside_and_ingest_goes_on(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    good = messages(bench_journal(tmp_path / "g.db", 2, 3, "GD"), "GD")
    header = messages(bench_journal(tmp_path / "p.db", 1, 4, "PZ"), "PZ")[0]
    wall = "2026-12-01T20:00:00\x00"  # text PostgreSQL cannot hold, hashed into a chain like any other
    poison = msgspec.structs.replace(
        header,
        seq=2,
        wall=wall,
        mono_ns=1,
        kind=RecordKind.DEVICE,
        body='{"type":"x"}',
        hash=record_hash(bytes.fromhex(header.hash), 2, wall, 1, None, "device", '{"type":"x"}').hex(),
    )
    ship(nats_server.url, [header, poison, *good])
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        wait_for(lambda: store.witness(good[0].journal)["records"] == len(good), what="the good table")
        refused = wait_for(lambda: store._all("SELECT subject, error FROM refused_messages"), what="the refusal")
    assert store.witness(header.journal)["records"] == 1
    assert refused[0][0] == poison.subject and "the store refused it" in refused[0][1]
    store.close()


def test_records_the_stream_holds_out_of_order_are_witnessed_in_order_once_the_missing_one_comes(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    """A table's shipper sends again a record the stream refused while it had no leader, after later
    ones were stored (pit/shipping/shipper.py): the stream holds 1-10, 12-30, then 11. Ingest holds
    12-30 until 11 comes, then witnesses every record once, in order, and raises no divergence."""
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    found = messages(bench_journal(tmp_path / "t.db", 5, 12, "OO"), "OO")
    journal = found[0].journal
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        ship(nats_server.url, found[:10] + found[11:30])
        wait_for(lambda: store.witness(journal)["records"] == 10, what="records 1-10 witnessed")
        time.sleep(1.5)  # 12-30 handed to ingest, and handed back again, for record 11
        assert store.witness(journal)["records"] == 10
        ship(nats_server.url, found[10:])  # 11, 12-30 again (dropped on their Nats-Msg-Id), and the rest
        wait_for(lambda: stored_counts(store).get(journal) == (len(found),) * 3, what="every record witnessed")
        assert store.witness(journal)["head"] == found[-1].hash
        assert [seq for seq, _ in store.witnessed_hashes(journal)] == list(range(1, len(found) + 1))
        assert [a for a in store.alerts(table_id="OO") if a["kind"] == "divergence"] == []
    store.close()

"""A room that survives any one of its machines (PIT.md §8), shown on real nats-server nodes and
real PostgreSQL servers while bench tables ship: the node leading DA_RECORDS killed and restarted,
the ingesting pit service killed and the other taking over, the PostgreSQL primary stopped and its
standby promoted though it missed the last commits. At the end of each, every journal's records are
stored exactly once, every witnessed head is its journal's head, and each alert was raised once. The
last two keep the public log (§9) throughout: every checkpoint its witnesses cosigned and every one
published, on either side of the failover, are joined two by two by consistency proofs from the log's
final tiles, and `log audit` passes over it."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import nats
import psycopg
import pytest
from nats.js.api import StreamInfo

from pit.service.ingest.consumer import ACK_WAIT_S
from pit.service.store.pit_store import PitStore
from pit.stream.wire import STREAM, STREAM_SUBJECTS
from pit.tlog.checkpoint import Checkpoint
from pit.trial.local_services import PostgresCluster, multi_host_dsn
from tests.pit.dealing import Tables, alerts_raised, exactly_once, record_alerts, under_way
from tests.pit.log_watch import WatchedLog
from tests.pit.pit_service import PitServe, fresh_database, rooms_broker, rooms_cluster, stored, stored_counts, wait_for

pytestmark = pytest.mark.slow
TABLES = ("A1", "B2", "C3")
HEALTH = {"role", "broker", "store", "ingest_lag"}


def stream_info(urls: str, seed: str) -> StreamInfo:
    async def ask() -> StreamInfo:
        client = await nats.connect(servers=urls.split(","), nkeys_seed_str=seed)
        try:
            return await client.jetstream(timeout=5).stream_info(STREAM, subjects_filter=STREAM_SUBJECTS)
        finally:
            await client.close()

    return asyncio.run(ask())


def _replicated(info: StreamInfo) -> bool:
    """Three replicas, and the two beside the leader current with it."""
    peers = info.cluster.replicas if info.cluster is not None else None
    return (
        info.config.num_replicas == 3
        and peers is not None
        and len(peers) == 2
        and all(peer.current and not peer.offline for peer in peers)
    )


def _settled(store: PitStore, tables: Tables) -> None:
    """Stop the tables; the pit then holds every record once, and each alert the records raise once, and
    nothing else (no divergence, no table silent)."""
    tables.stop()
    exactly_once(store, tables)
    assert alerts_raised(store, tables.stopped_at) == record_alerts(tables)


def _leaves_published(watched: WatchedLog, base: str) -> Checkpoint | None:
    """The checkpoint `base` publishes, once it covers a leaf."""
    checkpoint = watched.latest(base)
    return checkpoint if checkpoint is not None and checkpoint.size > 0 else None


def _one_log(store: PitStore, watched: WatchedLog, base: str, before: int, folder: Path) -> None:
    """With the tables stopped: a checkpoint past `before` covering every leaf published by `base`, and the
    log's one history (every checkpoint seen joined to every other), as `WatchedLog.assert_one_history`."""

    def leaves() -> int:
        return int(store._all("SELECT count(*) FROM log_leaves")[0][0])

    wait_for(
        lambda: (c := watched.latest(base)) is not None and c.size == leaves() > before,
        30,
        "a published checkpoint covering every leaf",
    )
    seen = watched.assert_one_history(base, folder / "audit")
    assert seen[0].size <= before < seen[-1].size


def test_the_node_leading_da_records_killed_and_restarted(tmp_path: Path, postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    nodes, creds = rooms_cluster(dsn, tmp_path, TABLES)
    urls = ",".join(node.url for node in nodes)
    store = PitStore.open(dsn)
    seed = store.pit_identity().seed
    serve = PitServe(urls, dsn, tmp_path / "pit.log")
    tables = Tables(tmp_path, TABLES)
    try:
        wait_for(lambda: serve.role() == "ingest", 30, "the pit ingesting")
        tables.start(urls, {table: path.read_text() for table, path in creds.items()})
        under_way(store, tables)
        # A room at work: the leader is killed once both other replicas are current, not in the
        # seconds after the stream was made (nats-server 2.9 can then refuse publishes for good).
        info = wait_for(
            lambda: _replicated(found := stream_info(urls, seed)) and found,
            30,
            what="DA_RECORDS on three replicas, each current",
        )
        leader = next(
            node
            for node in nodes
            if info.cluster is not None and node.config is not None and f'"{info.cluster.leader}"' in node.config
        )
        leader.kill()
        before = stored(store)
        wait_for(lambda: stored(store) > before + 100, 30, "ingest going on without the leader")
        assert tables.dealing()
        leader.start()
        again = stored(store)
        wait_for(lambda: stored(store) > again + 100, 30, "ingest going on with the node back")
        _settled(store, tables)
        assert serve.stop() == 0
    finally:
        tables.kill()
        serve.kill()
        for node in nodes:
            node.stop()
        store.close()


def test_the_ingesting_pit_service_killed_and_the_other_taking_over(tmp_path: Path, postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    broker, creds = rooms_broker(dsn, tmp_path, TABLES)
    store = PitStore.open(dsn)
    watched = WatchedLog(tmp_path)
    pits = [PitServe(broker.url, dsn, tmp_path / f"pit-{n}.log", *watched.serve_options()) for n in (1, 2)]
    for pit in pits:
        watched.watch(pit.base)
    tables = Tables(tmp_path, TABLES)
    try:
        wait_for(lambda: sorted(str(p.role()) for p in pits) == ["ingest", "standby"], 30, "one pit ingesting")
        for pit in pits:
            health = pit.health()
            assert health is not None and set(health) == HEALTH
            assert (health["broker"], health["store"]) == ("up", "up") and isinstance(health["ingest_lag"], int)
        tables.start(broker.url, {table: path.read_text() for table, path in creds.items()})
        under_way(store, tables)
        ingesting, other = sorted(pits, key=lambda p: p.role() != "ingest")
        published = wait_for(
            lambda: _leaves_published(watched, ingesting.base), 30, "a checkpoint published before the kill"
        )
        ingesting.kill()
        killed = time.monotonic()
        wait_for(lambda: other.role() == "ingest", 10, "the other pit ingesting")
        took = time.monotonic() - killed
        assert took < 10, f"the other pit took over after {took:.1f} s"
        before = stored(store)
        wait_for(lambda: stored(store) > before + 100, 30, "ingest going on in the other pit")
        _settled(store, tables)
        # what the killed pit was handed and never acknowledged comes back after the consumer's ack wait
        wait_for(lambda: (other.health() or {}).get("ingest_lag") == 0, ACK_WAIT_S + 20, "no lag left")
        _one_log(store, watched, other.base, published.size, tmp_path)
        assert other.stop() == 0
    finally:
        tables.kill()
        for pit in pits:
            pit.kill()
        watched.close()
        broker.stop()
        store.close()


def test_the_primary_stopped_and_the_standby_promoted_though_it_missed_commits(
    tmp_path: Path, primary_and_standby: tuple[PostgresCluster, PostgresCluster]
) -> None:
    primary, standby = primary_and_standby
    dsn = multi_host_dsn([primary, standby])
    broker, creds = rooms_broker(dsn, tmp_path, TABLES)  # every `pit` command takes the multi-host DSN
    store = PitStore.open(dsn)
    seed = store.pit_identity().seed
    watched = WatchedLog(tmp_path)
    serve = PitServe(broker.url, dsn, tmp_path / "pit.log", *watched.serve_options())
    watched.watch(serve.base)
    tables = Tables(tmp_path, TABLES)
    try:
        wait_for(lambda: serve.role() == "ingest", 30, "the pit ingesting")
        tables.start(broker.url, {table: path.read_text() for table, path in creds.items()})
        under_way(store, tables)
        published = wait_for(
            lambda: _leaves_published(watched, serve.base), 30, "a checkpoint published while the standby streams"
        )
        standby.stop()  # what the primary commits from here on, the standby never gets
        before = stored(store)
        wait_for(lambda: stored(store) > before + 150, 30, "commits the standby misses")
        acknowledged = stored(store)
        primary.stop("immediate")
        standby.start()
        with psycopg.connect(standby.dsn) as conn:  # still a standby: what it has of the primary's commits
            assert conn.execute("SELECT count(*) FROM records").fetchone() < (acknowledged,), "nothing was missed"
        in_stream = {
            subject.rsplit(".", 1)[-1]: count
            for subject, count in (stream_info(broker.url, seed).state.subjects or {}).items()
        }
        standby.promote()
        promoted = time.monotonic()
        wait_for(lambda: serve.role() == "ingest" and stored(store) > acknowledged, 30, "ingest resumed")
        assert time.monotonic() - promoted < 30
        wait_for(
            lambda: (
                all(
                    seq >= in_stream[journal]
                    for journal, (_, _, seq) in stored_counts(store).items()
                    if journal in in_stream
                )
                and set(in_stream) <= set(stored_counts(store))
            ),
            60 - (time.monotonic() - promoted),
            "the store again holding what the stream held",
        )
        _settled(store, tables)
        _one_log(store, watched, serve.base, published.size, tmp_path)
        assert serve.stop() == 0
    finally:
        tables.kill()
        serve.kill()
        watched.close()
        broker.stop()
        store.close()


def test_sigterm_stops_pit_serve_within_5_s_with_its_broker_gone_and_its_store_hung(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="da-pg-hung-", dir="/tmp"))  # reachable by `nobody` when we are root
    folder.chmod(0o755)
    cluster = PostgresCluster(folder / "cluster").init()
    broker, _ = rooms_broker(cluster.dsn, tmp_path, ["H1"])
    serve = PitServe(broker.url, cluster.dsn, tmp_path / "pit.log")
    frozen: list[int] = []
    try:
        wait_for(lambda: serve.role() == "ingest", 30, "the pit ingesting")
        broker.kill()
        postmaster = cluster.pid
        assert postmaster is not None
        children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
        frozen = [postmaster, *map(int, children)]
        for pid in frozen:  # the store answers nothing, as behind a link that drops every packet
            os.kill(pid, signal.SIGSTOP)
        time.sleep(2.0)
        asked = time.monotonic()
        assert serve.stop() == 0, serve.log.read_text()
        assert time.monotonic() - asked < 5.0
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
        serve.kill()
        broker.stop()
        cluster.stop("immediate")
        shutil.rmtree(folder, ignore_errors=True)

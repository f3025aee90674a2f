"""A real nats-server and a real PostgreSQL cluster for the card room's tests, one of each per module.

The cluster lives under /tmp (not pytest's root-only folder) so that, when the tests run as root,
the unprivileged user PostgreSQL runs as can reach it."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from memory_pit import MemoryPitData
from starlette.testclient import TestClient
from web_bench import bench_journals, floor_data

from pit.service.web.app import create_app
from pit.trial.local_services import NatsServer, PostgresCluster


@pytest.fixture(scope="module")
def nats_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[NatsServer]:
    server = NatsServer(tmp_path_factory.mktemp("nats")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresCluster]:
    folder = Path(tempfile.mkdtemp(prefix="da-pg-", dir="/tmp"))
    folder.chmod(0o755)
    cluster = PostgresCluster(folder / "cluster").init()
    yield cluster
    cluster.stop("immediate")
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def primary_and_standby() -> Iterator[tuple[PostgresCluster, PostgresCluster]]:
    """A primary and its streaming standby, made with a replication slot as the README's store servers."""
    folder = Path(tempfile.mkdtemp(prefix="da-pg-ha-", dir="/tmp"))  # reachable by `nobody` when we are root
    folder.chmod(0o755)
    primary = PostgresCluster(folder / "primary").init()
    standby = PostgresCluster(folder / "standby").follow(primary).start()
    yield primary, standby
    for cluster in (primary, standby):
        cluster.stop("immediate")
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def journals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Real bench journals for the dashboard's tests over the in-memory store."""
    return bench_journals(tmp_path_factory.mktemp("floor"))


@pytest.fixture
def floor(journals: Path) -> MemoryPitData:
    return floor_data(journals)


@pytest.fixture
def client(floor: MemoryPitData) -> TestClient:
    return TestClient(create_app(floor))

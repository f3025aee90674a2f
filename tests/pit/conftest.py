"""A real nats-server and a real PostgreSQL cluster for the card room's tests, one of each per module.

The cluster lives under /tmp (not pytest's root-only folder) so that, when the tests run as root,
the unprivileged user PostgreSQL runs as can reach it."""
from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pit.local_services import NatsServer, PostgresCluster


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

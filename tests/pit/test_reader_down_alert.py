"""A wager reader down raises one alert per outage (PIT.md §5), from the table's journal, with a
real nats-server and PostgreSQL: the records shipped twice and the outage lasting past the
device-link limit raise no second one."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from dealer_assist.table.journaled_table import Table
from devices.kinds.events import LinkChanged
from devices.table_owner.feed import evidence
from devices.wire.link import LinkState
from pit.service.floor.alerts import LINK_DOWN_AFTER_S, AlertKind, links_down, timed_alerts
from pit.service.store.pit_store import PitStore
from pit.trial.local_services import NatsServer, PostgresCluster
from tests.pit.journals import bench_journal, messages, ship
from tests.pit.pit_service import fresh_database, running_ingest, wait_for

pytestmark = pytest.mark.slow


def _outages(path: Path, count: int) -> None:
    """The reader's link goes down and comes back `count` times, journaled as the table journals it."""
    table = Table.open(path)
    try:
        for _ in range(count):
            for state in (LinkState.DOWN, LinkState.UP):
                table.note_device(evidence("wagers", LinkChanged(state)).body)
    finally:
        table.close()


def test_each_reader_outage_raises_one_alert(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    path = bench_journal(tmp_path / "r.db", 1, 2, "RD")
    _outages(path, 2)
    found = messages(path, "RD")
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        ship(nats_server.url, found)
        ship(nats_server.url, found)  # shipped again: the same causes
        wait_for(
            lambda: len([a for a in store.alerts(table_id="RD") if a["kind"] == "reader_down"]) >= 2,
            what="the reader's alerts",
        )
        time.sleep(1.0)  # whatever else was coming has come
        alerts = [a for a in store.alerts(table_id="RD") if a["kind"] == "reader_down"]
    assert len(alerts) == 2, alerts
    assert alerts[0]["text"].startswith("wager reader down: its link went down")
    store.close()


def test_a_reader_down_past_the_link_limit_is_not_raised_again_as_a_link_down() -> None:
    down = links_down({}, {"shoe": "down", "wagers": "down"}, 100.0)
    late = timed_alerts("T1", "ab" * 32, 4, 100.0 + LINK_DOWN_AFTER_S, down, 100.0 + LINK_DOWN_AFTER_S + 1)
    assert [(cause.kind, cause.text.split()[0]) for cause in late] == [(AlertKind.LINK_DOWN, "shoe")]

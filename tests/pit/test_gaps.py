"""A gap in a journal's records in the stream, with a real nats-server and PostgreSQL: the pit asks the
table for what it lacks, tells the floor, raises one alert and marks it cleared once the record comes,
and a pit killed and started again reads what it still needs; a refused table's words on the floor."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import nats
import pytest

from pit.service.ingest.gaps import GapTiming
from pit.service.store.pit_store import PitStore
from pit.service.web.templating import templates
from pit.stream.wire import ResendRequest, StatusMessage
from pit.trial.local_services import NatsServer, PostgresCluster
from tests.pit.journals import bench_journal, messages, ship
from tests.pit.pit_service import (
    PitServe,
    fresh_database,
    pit_command,
    pit_serving,
    running_ingest,
    stored_counts,
    wait_for,
)
from ui.cli import main as cli

pytestmark = pytest.mark.slow

TILE = templates(Path(__file__).parents[2] / "pit" / "service" / "web" / "templates").get_template("_tile.html")


class Listener:
    """The resend requests the pit sends on `subject`, each with when it came."""

    def __init__(self, url: str, subject: str) -> None:
        self.heard: list[tuple[float, ResendRequest]] = []
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=asyncio.run, args=(self._listen(url, subject),), daemon=True)
        self._thread.start()
        assert self._ready.wait(10), "the listener did not subscribe"

    async def _listen(self, url: str, subject: str) -> None:
        nc = await nats.connect(url)

        async def heard(msg: Any) -> None:
            self.heard.append((time.monotonic(), ResendRequest.from_json(msg.data)))

        await nc.subscribe(subject, cb=heard)
        await nc.flush()
        self._ready.set()
        while not self._stop.is_set():
            await asyncio.sleep(0.05)
        await nc.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(10)


def _tile_words(store: PitStore, table_id: str) -> str:
    return " ".join(TILE.render(t=next(t for t in store.tables() if t["table_id"] == table_id)).split())


def _verify(path: Path, url: str, token: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = cli(["journal", "verify", str(path), "--pit", url, "--token", str(token)])
    return code, capsys.readouterr().out


def test_a_missing_record_is_asked_for_told_and_alerted_once_then_stored_in_order_with_the_alert_cleared(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    token = tmp_path / "auditor.token"
    token.write_text(pit_command("token", "add", "auditor", "--role", "surveillance", "--db", dsn))
    path = bench_journal(tmp_path / "g.db", 5, 7, "GP")
    found = messages(path, "GP")
    journal, held = found[0].journal, len(found) - 11
    listener = Listener(nats_server.url, "da.resend.GP")
    try:
        with running_ingest(
            nats_server.url, dsn, store.pit_identity().seed, gap_timing=GapTiming(resend_every_s=1.0, alert_after_s=4.0)
        ) as ingest:
            wait_for(lambda: ingest.health().role == "ingest", what="ingest")
            ship(nats_server.url, found[:10] + found[11:])
            opened = time.monotonic()
            assert wait_for(lambda: store.witness(journal)["missing"], what="the gap told")["from"] == 11
            assert store.witness(journal)["records"] == 10
            wait_for(lambda: store.witness(journal)["missing"] == {"from": 11, "held": held}, what="every record held")
            assert "missing from seq 11" in _tile_words(store, "GP")
            wait_for(lambda: len(listener.heard) >= 3, what="three resend requests")
            assert {request for _, request in listener.heard} == {ResendRequest(journal, 11)}
            gaps = [b[0] - a[0] for a, b in zip(listener.heard, listener.heard[1:], strict=False)]
            assert all(0.8 <= gap <= 4.0 for gap in gaps), gaps  # every 1 s as set, not every batch
            alerts = wait_for(
                lambda: [a for a in store.alerts(table_id="GP") if a["kind"] == "records_missing"],
                what="the records missing alert",
            )
            assert time.monotonic() - opened >= 4.0
            time.sleep(1.5)  # the gap still open: no second alert
            alerts = [a for a in store.alerts(table_id="GP") if a["kind"] == "records_missing"]
            assert len(alerts) == 1 and alerts[0]["seq"] == 11 and alerts[0]["cleared"] is None
            assert f"journal {journal} lacks record 11, with {held} later records waiting" in alerts[0]["text"]

            ship(nats_server.url, found[10:11])
            wait_for(lambda: stored_counts(store).get(journal) == (len(found),) * 3, what="every record witnessed")
            assert [seq for seq, _ in store.witnessed_hashes(journal)] == list(range(1, len(found) + 1))
            assert store.witness(journal)["missing"] is None
            assert "missing from seq" not in _tile_words(store, "GP")
            cleared = wait_for(
                lambda: [
                    a
                    for a in store.alerts(table_id="GP")
                    if a["kind"] == "records_missing" and a["cleared"] is not None
                ],
                what="the alert cleared",
            )
            assert len(cleared) == 1 and cleared[0]["acked"] is None  # still open until someone acknowledges it
            asked = len(listener.heard)
            time.sleep(2.0)
            assert len(listener.heard) == asked  # no more requests once the record is here
            with pit_serving(nats_server.url, dsn, tmp_path / "pit.log") as url:  # a standby: serves the API
                code, text = _verify(path, url, token, capsys)
            assert code == 0, text
            assert f"PIT OK: all {len(found)} records the pit witnessed" in text
    finally:
        listener.close()
    assert len([a for a in store.alerts(table_id="GP") if a["kind"] == "records_missing"]) == 1
    store.close()


def test_a_pit_killed_while_the_stream_holds_a_journal_out_of_order_reads_every_record_once_in_order(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pit takes in records 32 on while 31 is missing, is killed, 31 comes meanwhile, and once started
    again it stores 31 and every held record after it (once the head's stream position would have jumped
    past them); killed and started again after, it stores nothing twice."""
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    token = tmp_path / "auditor.token"
    token.write_text(pit_command("token", "add", "auditor", "--role", "surveillance", "--db", dsn))
    path = bench_journal(tmp_path / "k.db", 6, 9, "KO")
    found = messages(path, "KO")
    journal = found[0].journal
    log = tmp_path / "pit.log"
    serve = PitServe(nats_server.url, dsn, log)
    try:
        wait_for(serve.answers, 30, "pit serve")
        ship(nats_server.url, found[:30] + found[31:])
        wait_for(
            lambda: store.witness(journal)["missing"] == {"from": 31, "held": len(found) - 31},
            30,
            what="the records after 31 held",
        )
        serve.kill()
        ship(nats_server.url, found[30:31])
        serve = PitServe(nats_server.url, dsn, log)
        wait_for(lambda: stored_counts(store).get(journal) == (len(found),) * 3, 40, what="every record witnessed")
        assert store.witness(journal)["missing"] is None
        serve.kill()
        serve = PitServe(nats_server.url, dsn, log)
        wait_for(serve.answers, 30, "pit serve again")
        wait_for(lambda: serve.role() == "ingest", 30, what="ingest again")
        time.sleep(2.0)
        assert stored_counts(store)[journal] == (len(found),) * 3
        assert [seq for seq, _ in store.witnessed_hashes(journal)] == list(range(1, len(found) + 1))
        code, text = _verify(path, serve.base, token, capsys)
        assert code == 0, text
        assert serve.stop() == 0
    finally:
        serve.kill()
    store.close()


def test_a_table_whose_publishes_are_refused_reads_cannot_store_not_silent(
    tmp_path: Path, nats_server: NatsServer, postgres: PostgresCluster
) -> None:
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    status = StatusMessage(
        "RF", "ab" * 32, "nobust-4.0", 4, "play", None, {"shoe": "up"}, 40, 12, cannot_store="no space"
    )

    async def say(message: StatusMessage) -> None:
        nc = await nats.connect(nats_server.url)
        await nc.publish(message.subject, message.encode())
        await nc.close()

    with running_ingest(nats_server.url, dsn, store.pit_identity().seed) as ingest:
        wait_for(lambda: ingest.health().role == "ingest", what="ingest")
        time.sleep(0.5)
        asyncio.run(say(status))
        tile = wait_for(lambda: [t for t in store.tables() if t["table_id"] == "RF"], what="the table's tile")[0]
        assert (tile["link"], tile["behind"], tile["refused"]) == ("behind", 12, True)
        words = _tile_words(store, "RF")
        assert "cannot store · 12 to send" in words and "silent" not in words
        asyncio.run(say(StatusMessage("RF", "ab" * 32, "nobust-4.0", 4, "play", None, {"shoe": "up"}, 40, 12)))
        wait_for(
            lambda: not next(t for t in store.tables() if t["table_id"] == "RF")["refused"],
            what="the table storing again",
        )  # RF's own tile: the shared stream may hold other tables
        assert "cannot store" not in _tile_words(store, "RF") and "behind · 12" in _tile_words(store, "RF")
    store.close()

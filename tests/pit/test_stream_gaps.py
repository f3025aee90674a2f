"""No gap outlives its cause, at the table's end: a stream holding a journal with a record missing (put
there by the test, as a stream without a leader leaves it) is filled by `journal ship`, by a table
that starts again, and by a running table the pit asks, each until a real pit has stored every record
once, in order, and `journal verify --pit` passes; a table the broker refuses still tells the floor
how much it has to send; a bench and the dealer's screen stop within 5 s whatever the broker does."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import nats
import pytest
from nats.js.api import DiscardPolicy
from nats.js.errors import NotFoundError

from dealer_assist.journal.journal_file import last_seq, seal_path, verify
from dealer_assist.journal.lock import lock_path
from pit.service.ingest.gaps import GapTiming
from pit.service.store.pit_store import PitStore
from pit.shipping.shipper import Shipper
from pit.stream.broker import ensure_stream, stream_config
from pit.stream.wire import (
    STREAM,
    ResendRequest,
    parse_record_message,
    parse_status_message,
    resend_subject,
    status_subject,
)
from pit.trial.local_services import PostgresCluster
from tests.pit.journals import bench_journal, messages, publish
from tests.pit.pit_service import (
    fresh_database,
    pit_command,
    pit_serving,
    rooms_broker,
    running_ingest,
    stored_counts,
    wait_for,
)
from tests.pit.room_rig import Room, once_each, start_room
from tests.ui.test_run_stop import start_run
from ui.cli import main as cli

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[2]
MISSING = 7


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    room = start_room(tmp_path)
    yield room
    room.server.stop()


@dataclass
class PitRoom:
    """A room as its operator sets it up (`pit init`, `pit table add`, `pit nats-config`), with its
    pit's store: the pit's ingest and `pit serve` run on it as the test needs them."""

    room: Room
    dsn: str
    store: PitStore
    folder: Path

    def ingesting(self, timing: GapTiming | None = None):  # type: ignore[no-untyped-def]
        return running_ingest(self.room.server.url, self.dsn, self.room.pit.seed, gap_timing=timing or GapTiming())

    def gaps_alerts(self) -> list[dict[str, object]]:
        return [dict(a) for a in self.store.alerts(table_id="T1") if a["kind"] == "records_missing"]

    def witnessed_once_in_order(self, path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """The pit stores every record of the journal at `path` once, in order, tells of no gap, and
        `journal verify --pit` passes on it (a `pit serve` answering the auditor)."""
        head, identity = last_seq(path), messages(path, "T1")[0].journal
        wait_for(lambda: stored_counts(self.store).get(identity) == (head,) * 3, 30, what="every record witnessed")
        assert [seq for seq, _ in self.store.witnessed_hashes(identity)] == list(range(1, head + 1))
        assert self.store.witness(identity)["missing"] is None
        token = self.folder / "auditor.token"
        if not token.exists():
            token.write_text(pit_command("token", "add", "auditor", "--role", "surveillance", "--db", self.dsn))
        with pit_serving(self.room.server.url, self.dsn, self.folder / "pit.log") as url:
            capsys.readouterr()
            code = cli(["journal", "verify", str(path), "--pit", url, "--token", str(token)])
            text = capsys.readouterr().out
        assert code == 0 and f"PIT OK: all {head} records the pit witnessed" in text, text


@pytest.fixture
def pit_room(tmp_path: Path, postgres: PostgresCluster) -> Iterator[PitRoom]:
    dsn = fresh_database(postgres)
    server, creds = rooms_broker(dsn, tmp_path, ["T1", "T2"])
    store = PitStore.set_up(dsn)
    room = Room(server, store.pit_identity(), creds)
    room.admin(ensure_stream)
    yield PitRoom(room, dsn, store, tmp_path)
    store.close()
    server.stop()


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bench_journal(tmp_path_factory.mktemp("gaps") / "t1.db", 4, 5, "T1")


def _publish_all_but(room: Room, path: Path, missing: int) -> str:
    """The journal's records in the stream, published by the test, all but `missing`: the stream as a
    leader lost mid-window leaves it. Returns the journal's identity."""
    found = messages(path, "T1")
    room.admin(lambda js: publish(js, [m for m in found if m.seq != missing]))
    return found[0].journal


def _held(room: Room, journal: str) -> dict[int, int]:
    """How many times the stream holds each record of `journal`, read message by message (a message the
    stream lost is skipped)."""

    async def read(js):  # type: ignore[no-untyped-def]
        info = await js.stream_info(STREAM)
        found = []
        for seq in range(info.state.first_seq, info.state.last_seq + 1):
            try:
                found.append(parse_record_message((await js.get_msg(STREAM, seq)).data or b""))
            except NotFoundError:
                continue
        return found

    return dict(once_each(room.admin(read), journal))


def _refusing(room: Room, stored: int) -> None:
    """The stream stores no more than `stored` messages and refuses every other publish."""
    room.admin(lambda js: js.update_stream(replace(stream_config(), max_msgs=stored, discard=DiscardPolicy.NEW)))


def _until(check: Callable[[], object], timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _journaled(path: Path) -> int:
    """The journal's last seq, 0 while the table has not yet made it."""
    try:
        return last_seq(path)
    except (FileNotFoundError, sqlite3.OperationalError):  # not there, or its tables not yet made
        return 0


def _ship(path: Path, room: Room, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli(["journal", "ship", str(path), "--pit", room.server.url, "--pit-creds", str(room.creds["T1"])])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_journal_ship_fills_a_gap_behind_the_streams_last_record(
    pit_room: PitRoom, journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room, head = pit_room.room, last_seq(journal)
    with pit_room.ingesting(GapTiming(resend_every_s=1.0, alert_after_s=0.5)) as ingest:
        wait_for(lambda: ingest.health().role == "ingest", what="ingest")
        identity = _publish_all_but(room, journal, MISSING)
        _refusing(room, head - 1)
        wait_for(
            lambda: pit_room.store.witness(identity)["missing"] == {"from": MISSING, "held": head - MISSING},
            what="the gap told",
        )
        code, text = _ship(journal, room, capsys)
        assert code == 1 and "refused" in text, text
        assert MISSING not in _held(room, identity)
        wait_for(pit_room.gaps_alerts, what="the records missing alert")
        room.admin(ensure_stream)  # the broker takes records again
        code, text = _ship(journal, room, capsys)
        assert code == 0 and f"holds all {head} records" in text, text
        assert f"(1 sent now, 1 of them in gaps from seq {MISSING})" in text, text
        held = _held(room, identity)
        assert sorted(held) == list(range(1, head + 1)) and set(held.values()) == {1}
        code, text = _ship(journal, room, capsys)
        assert code == 0 and "(0 sent now)" in text
        pit_room.witnessed_once_in_order(journal, capsys)
        alerts = wait_for(
            lambda: [a for a in pit_room.gaps_alerts() if a["cleared"] is not None], what="the alert cleared"
        )
        assert len(alerts) == 1 == len(pit_room.gaps_alerts()) and alerts[0]["seq"] == MISSING


def test_a_table_that_starts_again_fills_the_gap(
    pit_room: PitRoom, journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room, head = pit_room.room, last_seq(journal)
    with pit_room.ingesting() as ingest:
        wait_for(lambda: ingest.health().role == "ingest", what="ingest")
        identity = _publish_all_but(room, journal, MISSING)
        wait_for(
            lambda: pit_room.store.witness(identity)["missing"] == {"from": MISSING, "held": head - MISSING},
            what="the gap told",
        )
        shipper = Shipper(journal, "T1", room.link("T1")).start()
        try:
            assert shipper.wait_shipped(head, 15.0), shipper.state
        finally:
            shipper.stop()
        held = _held(room, identity)
        assert sorted(held) == list(range(1, head + 1)) and set(held.values()) == {1}
        assert shipper.link_text() == "pit: up"
        pit_room.witnessed_once_in_order(journal, capsys)


def _shipped_then_lost(room: Room, journal: Path) -> tuple[Shipper, str]:
    """A running table that has shipped its whole journal, and the stream then losing one record (taken
    out by the test, past the broker's duplicate window, which the test shortens): the table does not
    know. The shipper, and the journal's identity."""
    room.admin(lambda js: js.update_stream(replace(stream_config(), duplicate_window=1.0)))
    shipper = Shipper(journal, "T1", room.link("T1")).start()
    assert shipper.wait_shipped(last_seq(journal), 15.0), shipper.state
    identity = messages(journal, "T1")[0].journal

    async def lose(js):  # type: ignore[no-untyped-def]
        await js.delete_msg(STREAM, MISSING)  # stream seq = record seq: the table shipped them in order

    room.admin(lose)
    time.sleep(1.5)
    assert MISSING not in _held(room, identity)  # nobody has asked yet: the table sends nothing
    return shipper, identity


def test_a_running_table_asked_to_resend_sends_what_the_stream_lost(
    pit_room: PitRoom, journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The request published by hand; the pit, started after, reads the record out of its stream order."""
    room, head = pit_room.room, last_seq(journal)
    shipper, identity = _shipped_then_lost(room, journal)
    try:

        async def ask(js):  # type: ignore[no-untyped-def]
            await js._nc.publish(resend_subject("T1"), ResendRequest(identity, MISSING).to_json())

        room.admin(ask)
        assert _until(lambda: MISSING in _held(room, identity)), "the table did not answer the resend request"
    finally:
        shipper.stop()
    held = _held(room, identity)
    assert sorted(held) == list(range(1, head + 1)) and set(held.values()) == {1}
    with pit_room.ingesting():
        pit_room.witnessed_once_in_order(journal, capsys)


def test_a_running_table_answers_the_pits_own_resend_request_and_the_pit_stores_all_once_in_order(
    pit_room: PitRoom, journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Pit and running table together: the pit finds the record missing, raises its alert, asks the
    table on da.resend.T1, the table answers, and the pit stores every record once, in order, the alert
    marked cleared."""
    room, head = pit_room.room, last_seq(journal)
    shipper, identity = _shipped_then_lost(room, journal)
    try:
        with pit_room.ingesting(GapTiming(resend_every_s=1.0, alert_after_s=0.0)):
            pit_room.witnessed_once_in_order(journal, capsys)
            alerts = wait_for(
                lambda: [a for a in pit_room.gaps_alerts() if a["cleared"] is not None], what="the alert cleared"
            )
            assert len(alerts) == 1 == len(pit_room.gaps_alerts()) and alerts[0]["seq"] == MISSING, alerts
            assert shipper.link_text() == "pit: up"
    finally:
        shipper.stop()
    held = _held(room, identity)
    assert sorted(held) == list(range(1, head + 1)) and set(held.values()) == {1}


def test_a_table_refused_at_every_publish_sends_its_status_and_says_so_steadily(room: Room, journal: Path) -> None:
    head = last_seq(journal)
    _refusing(room, 1)  # the journal's first record is stored, and then nothing
    heard: list[bytes] = []
    said: list[str] = []

    async def listen() -> None:
        client = await nats.connect(room.server.url, nkeys_seed_str=room.pit.seed)

        async def status(message):  # type: ignore[no-untyped-def]
            heard.append(message.data)

        await client.subscribe(status_subject("T1"), cb=status)
        shipper = Shipper(journal, "T1", room.link("T1"), on_link=lambda text, up: said.append(text)).start()
        try:
            await asyncio.sleep(12.0)  # sessions come and go with the back-off meanwhile
        finally:
            await asyncio.to_thread(shipper.stop)
            await client.close()

    asyncio.run(listen())
    statuses = [parse_status_message(data) for data in heard]
    assert statuses, "a refused table sent no status"
    refused = [s for s in statuses if s.cannot_store]
    assert len(refused) >= 2 and all(s.to_ship == head - 1 for s in refused), statuses  # every session, not once
    assert statuses[-1].cannot_store
    first = next(i for i, text in enumerate(said) if text.startswith("pit: cannot store"))
    assert said[first:] == [f"pit: cannot store · {head - 1} to send"], said  # steady: no "up" / "down" by turns


@pytest.mark.parametrize("broker", ["refusing", "frozen"])
def test_a_bench_stops_within_5_s_of_sigterm_whatever_the_broker_does(room: Room, tmp_path: Path, broker: str) -> None:
    path = tmp_path / "b.db"
    command = [
        sys.executable,
        "-m",
        "ui.cli",
        "bench",
        "--rounds",
        "100000",
        "--journal",
        str(path),
        "--table-id",
        "T1",
        "--links",
        "in-process",
        "--pace",
        "0.01",
        "--pit",
        room.server.url,
        "--pit-creds",
        str(room.creds["T1"]),
    ]
    _refusing(room, 30)
    bench = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=os.environ.copy())
    assert room.server.process is not None
    try:
        assert _until(lambda: _journaled(path) > 60, 30.0)
        if broker == "frozen":
            room.server.process.send_signal(signal.SIGSTOP)
            time.sleep(0.5)
        asked = time.monotonic()
        bench.send_signal(signal.SIGTERM)
        out, err = bench.communicate(timeout=30)
        took = time.monotonic() - asked
    finally:
        room.server.process.send_signal(signal.SIGCONT)
        if bench.poll() is None:
            bench.kill()
    assert bench.returncode == 0, err.decode()
    assert took < 5.0, f"the bench took {took:.1f} s to stop"
    assert seal_path(path).exists() and verify(path).ok
    summary = json.loads(out.decode().strip().splitlines()[-1])
    assert summary["records"] == last_seq(path)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("broker", ["refusing", "frozen"])
def test_run_stops_within_5_s_of_a_signal_whatever_the_broker_does_its_journal_sealed(
    room: Room, tmp_path: Path, broker: str, number: signal.Signals
) -> None:
    """The dealer's screen, dealing on emulated devices through its screens, with a broker that refuses
    every publish past the table's first records or has stopped answering at all."""
    path = tmp_path / "r.db"
    _refusing(room, 5)
    run = start_run(
        "--journal",
        str(path),
        "--table-id",
        "T1",
        "--seed",
        "3",
        "--autoplay",
        "100000",
        "--pit",
        room.server.url,
        "--pit-creds",
        str(room.creds["T1"]),
        env={"QT_QPA_PLATFORM": "offscreen"},
    )
    assert room.server.process is not None
    try:
        assert _until(lambda: last_seq(path) > 40, 60.0), "the table did not deal"
        if broker == "frozen":
            room.server.process.send_signal(signal.SIGSTOP)
            time.sleep(0.5)
        asked = time.monotonic()
        run.send_signal(number)
        _, err = run.communicate(timeout=30)
        took = time.monotonic() - asked
    finally:
        room.server.process.send_signal(signal.SIGCONT)
        if run.poll() is None:
            run.kill()
    assert run.returncode == 0, err
    assert took < 5.0, f"run took {took:.1f} s to stop"
    assert "sealed" in err and "Traceback" not in err, err
    assert seal_path(path).exists() and verify(path).ok and not lock_path(path).exists()
    assert len(room.stream()) == 5 < last_seq(path)  # the broker took none of the table's later records

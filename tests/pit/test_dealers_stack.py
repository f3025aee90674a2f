"""Who deals and what the wager reader finds (RULES.md §8.22-8.25, PIT.md §5-6) on the real stack: a
table with a shoe and a wager reader on pseudo-terminals, dealt by two house dealers in turn and then
by nobody, and two bench tables, ship their records through a real nats-server into a real
PostgreSQL; the pit raises the alerts of a late change, a mispay and a spot faulted longer than a
round once each, also through `pit rebuild`, and its per-dealer report (JSON, CSV, the page in a
browser) counts each dealer's rounds. The journals' clocks run at a person's pace (`paced_walls`),
so the rates are a room's."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import nats
import psycopg
import pytest
from memory_pit import MemoryPitData
from selenium.webdriver.common.by import By
from starlette.testclient import TestClient
from web_bench import PASSWORDS, play
from web_browser import chromium, log_in, screenshot, served

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.inputs import Action, Decide, NoMoreBets
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import AcceptPayout, DealerSignIn, DealerSignOut, SettlementConfirmed
from pit.service.floor.data import Role
from pit.service.store.pit_store import PitStore
from pit.service.web.app import create_app
from pit.stream.broker import ensure_stream
from pit.trial.local_services import NatsServer, PostgresCluster
from tests.devices.reader_rig import PIN, ReaderTable, spot
from tests.pit.journals import messages, paced_walls, publish
from tests.pit.pit_service import fresh_database, pit_command, running_ingest, stored_counts, wait_for

pytestmark = pytest.mark.slow
# sd-buster-a deals seat 2, seat 3, the dealer's up card, seat 2, seat 3, the hole card: seat 2 TH QH = 20,
# seat 3 9H 8C = 17, dealer 6D 9C = 15, draws 8S: over, both win.
BOTH_WIN = ["TH", "9H", "6D", "QH", "8C", "9C", "8S"]
READER_KINDS = ("late_change", "mispay", "spot_fault")


@dataclass
class Room:
    store: PitStore
    journals: dict[str, Path]
    token: str  # a manager's
    start: datetime  # a range that holds every round
    end: datetime


def _reader_round(rig: ReaderTable, late: bool = False, mispay: bool = False) -> None:
    """A round of two winning seats read from their chips; with `late` seat 2 slips chips on after
    "No more bets", twice, and takes them back; with `mispay` seat 3 is underpaid by $25 and a floor
    supervisor accepts it."""
    rig.chips("2.base", 50)
    rig.chips("3.base", 25)
    rig.tap(NoMoreBets())
    if late:
        rig.chips("2.base", 50, 5)
        rig.chips("2.base", 50, 5, 5)
        rig.chips("2.base", 50)
    rig.deal(6)
    rig.tap(Decide(2, 0, Action.STAND))
    rig.tap(Decide(3, 0, Action.STAND))
    rig.deal(1)
    rig.chips("2.base", 100)
    rig.chips("3.base", 25 if mispay else 50)
    rig.tap(SettlementConfirmed())
    if mispay:
        rig.controller.supervise(AcceptPayout("Floor 1", "player left"), PIN)
    rig.until(
        lambda: rig.session.tracker is not None and rig.session.tracker.phase.value == "betting", "the next round"
    )


def _fault(rig: ReaderTable, on: bool) -> None:
    if on:
        rig.reader.sim_antenna(spot("4.base"))
    else:
        rig.reader.sim_clear(spot("4.base"))
    rig.until(lambda: rig.session.reader.reads(spot("4.base")) is not on, f"4.base {'faulted' if on else 'read again'}")


def _reader_table(path: Path) -> Path:
    """T-1: Ana R. deals round 1 (a late change, a mispay) and round 2, in which Ben K. relieves her and
    deals on into round 3, signing out in it; round 4 is nobody's. Spot 4.base faults in round 1 and
    is cleared in round 3 (faulted longer than a round), faults again and is cleared in round 4 (not)."""
    rig = ReaderTable(path, BOTH_WIN * 6)  # the cut card three quarters in, after the fourth round
    rig.start()
    try:
        rig.tap(DealerSignIn("Ana R."))
        _fault(rig, True)
        _reader_round(rig, late=True, mispay=True)
        rig.tap(DealerSignIn("Ben K."))
        _reader_round(rig)
        _fault(rig, False)
        _fault(rig, True)
        rig.tap(DealerSignOut())
        _reader_round(rig)
        _fault(rig, False)
        _reader_round(rig)
    finally:
        rig.stop()
    return path


def _bench_table(
    path: Path, table_id: str, profile: str, seed: int, dealers: tuple[str, ...], rounds: int, unattended: int = 0
) -> Path:
    """A bench table dealt by `dealers` in turn, then `unattended` rounds with nobody signed in."""
    table = Table.open(path, TableConfig(table_id, profile))
    try:
        play(table, rounds, seed, dealers)
        if unattended:
            table.submit(DealerSignOut())
            play(table, unattended, seed + 1)
    finally:
        table.close()
    return path


def _ship(url: str, journals: dict[str, Path]) -> None:
    async def go() -> None:
        nc = await nats.connect(url)
        js = nc.jetstream()
        await ensure_stream(js)
        for table_id, path in journals.items():
            await publish(js, messages(path, table_id))
        await nc.close()

    asyncio.run(go())


@pytest.fixture(scope="module")
def room(
    tmp_path_factory: pytest.TempPathFactory, nats_server: NatsServer, postgres: PostgresCluster
) -> Iterator[Room]:
    folder = tmp_path_factory.mktemp("dealers")
    began = datetime.now(UTC) - timedelta(hours=3)
    journals = {}
    with paced_walls(began, timedelta(seconds=3.5)):
        journals["T-1"] = _reader_table(folder / "T-1.db")
    with paced_walls(began + timedelta(minutes=2), timedelta(seconds=2.4)):
        journals["T-2"] = _bench_table(folder / "T-2.db", "T-2", "c21-8.0", 31, ("Cleo M.", "Ana R."), 8)
    with paced_walls(began + timedelta(minutes=5), timedelta(seconds=2.6)):
        journals["T-3"] = _bench_table(folder / "T-3.db", "T-3", "nobust-4.0", 32, ("Dana P.",), 5, unattended=2)
    dsn = fresh_database(postgres)
    store = PitStore.set_up(dsn)
    store.add_user("meg", Role.MANAGER, PASSWORDS["meg"])
    token = store.add_token("meg", Role.MANAGER)
    _ship(nats_server.url, journals)
    expected = {
        messages(path, table_id)[0].journal: (len(messages(path, table_id)),) * 3 for table_id, path in journals.items()
    }
    with running_ingest(nats_server.url, dsn, store.pit_identity().seed):
        wait_for(lambda: stored_counts(store) == expected, timeout=60, what="every record stored")
    yield Room(store, journals, token, began - timedelta(hours=1), datetime.now(UTC) + timedelta(hours=1))
    store.close()


def test_a_late_change_a_mispay_and_a_spot_faulted_longer_than_a_round_are_raised_once_each(room: Room) -> None:
    alerts = [alert for alert in room.store.alerts() if alert["kind"] in READER_KINDS]
    assert sorted((a["table_id"], a["kind"], a["round_id"]) for a in alerts) == [
        ("T-1", "late_change", 1),
        ("T-1", "mispay", 1),
        ("T-1", "spot_fault", 2),
    ]
    told = {alert["kind"]: alert for alert in alerts}
    assert told["late_change"]["text"] == (
        "late change: Seat 2 · Base: $55 on the spot, $50 closed · late change; the closed wager stands"
    )
    assert told["mispay"]["text"] == (
        "mispay: Seat 3 · Base: $25 on the spot, $50 due · $25 underpaid · accepted by Floor 1: player left"
    )
    assert told["spot_fault"]["text"].startswith(
        "wager reader spot 4.base (Seat 4 · Base) faulted longer than a round:"
    )
    assert "(round 1), still at the close of round 2 (ANTENNA antenna cannot be read)" in told["spot_fault"]["text"]
    records = {record.seq: record for record in read_records(room.journals["T-1"])}
    late = [
        (seq, op)
        for seq, record in records.items()
        if record.kind in (RecordKind.INPUT, RecordKind.CLOSE)
        for op in record.body["ops"]
        if op["type"] == "LateChange"
    ]
    assert [op["held"] for _, op in late] == [5_500, 6_000], "the chips moved twice: one late change"
    assert told["late_change"]["seq"] == late[0][0]
    assert any(op["type"] == "MispayAccepted" for op in records[told["mispay"]["seq"]].body["ops"])
    assert any(
        op["type"] == "RoundClosed" and op["round_id"] == 2 for op in records[told["spot_fault"]["seq"]].body["ops"]
    )
    faults = [
        record
        for record in records.values()
        if record.kind is RecordKind.DEVICE and record.body.get("type") == "WagersFault"
    ]
    assert len(faults) == 2, "4.base faulted twice; the second fault was cleared within a round"


def _stints(path: Path) -> dict[str, float]:
    """Seconds at the table per dealer, read here from the journal: each sign-in to the next sign-in or
    sign-out, or to the journal's last record."""
    seconds: dict[str, float] = {}
    dealer, since = None, None
    records = list(read_records(path))
    for record in records:
        for op in record.body.get("ops", []) if record.kind in (RecordKind.INPUT, RecordKind.CLOSE) else []:
            if op["type"] in ("DealerSignedIn", "DealerSignedOut"):
                at = datetime.fromisoformat(record.wall)
                if dealer is not None and since is not None:
                    seconds[dealer] = seconds.get(dealer, 0.0) + (at - since).total_seconds()
                dealer, since = (op["dealer"], at) if op["type"] == "DealerSignedIn" else (None, None)
    if dealer is not None and since is not None:
        seconds[dealer] = seconds.get(dealer, 0.0) + (datetime.fromisoformat(records[-1].wall) - since).total_seconds()
    return seconds


def _counted_for(path: Path) -> dict[int, str | None]:
    """Each closed round's dealer, worked out here from the records: who was signed in at its first card
    (a round closed before any card: at its close)."""
    signed: str | None = None
    first: dict[int, str | None] = {}
    counted: dict[int, str | None] = {}
    for record in read_records(path):
        for op in record.body.get("ops", ()) if record.kind.value in ("input", "close") else ():
            if op["type"] == "DealerSignedIn":
                signed = op["dealer"]
            elif op["type"] == "DealerSignedOut":
                signed = None
            elif op["type"] == "CardAssigned" and record.round_id not in first:
                first[record.round_id] = signed
            elif op["type"] == "RoundClosed":
                counted[op["round_id"]] = first.get(op["round_id"], signed)
    return counted


def test_each_rounds_dealer_in_the_per_dealer_report_and_its_csv(room: Room) -> None:
    client = TestClient(create_app(room.store))
    query = {"from": room.start.isoformat(), "to": room.end.isoformat()}
    report = client.get("/api/reports/dealers", params=query, headers={"Authorization": f"Bearer {room.token}"}).json()
    rows = {row["dealer"]: row for row in report["dealers"]}
    assert list(rows) == ["Ana R.", "Ben K.", "Cleo M.", "Dana P.", None]
    dealt: dict[str | None, tuple[set[str], int]] = {}
    for table_id, path in room.journals.items():
        for dealer in _counted_for(path).values():
            tables, rounds = dealt.get(dealer, (set(), 0))
            dealt[dealer] = (tables | {table_id}, rounds + 1)
    assert {name: row["rounds"] for name, row in rows.items()} == {name: rounds for name, (_, rounds) in dealt.items()}
    assert all(set(tables) <= set(rows[name]["tables"]) for name, (tables, _) in dealt.items())
    assert rows["Ana R."]["tables"] == ["T-1", "T-2"] and rows["Ben K."]["rounds"] == 1, "round 2 is Ben's alone"
    assert "its first card" in report["rounds_counted"]
    assert [(row["late_changes"], row["mispays"]) for row in rows.values()] == [(1, 1), (0, 0), (0, 0), (0, 0), (0, 0)]
    seconds: dict[str, float] = {}
    for path in room.journals.values():
        for name, at_table in _stints(path).items():
            seconds[name] = seconds.get(name, 0.0) + at_table
    for name, at_table in seconds.items():
        row = rows[name]
        assert row["hours"] == round(at_table / 3600, 2)
        assert row["rounds_per_hour"] == round(row["rounds"] / (at_table / 3600), 1)
        assert row["taps"] > 0 and row["taps_per_round"] == round(row["taps"] / row["rounds"], 1)
    assert 20 < rows["Cleo M."]["rounds_per_hour"] < 200, "a person's pace"
    assert rows[None]["tables"] == ["T-1", "T-3"] and rows[None]["hours"] is None

    double = MemoryPitData()
    for table_id, path in room.journals.items():
        double.add_table(table_id, path)
    assert report == double.dealer_report(room.start, room.end), "the test double keeps in step with the store"

    answer = client.get(
        "/api/reports/dealers", params={**query, "format": "csv"}, headers={"Authorization": f"Bearer {room.token}"}
    )
    lines = list(csv.DictReader(io.StringIO(answer.text)))
    assert [line["dealer"] for line in lines] == ["Ana R.", "Ben K.", "Cleo M.", "Dana P.", "no dealer signed in"]
    assert [
        (line["tables"], int(line["rounds"]), int(line["late_changes"]), int(line["mispays"])) for line in lines
    ] == [(" ".join(row["tables"]), row["rounds"], row["late_changes"], row["mispays"]) for row in rows.values()]


def _derived(store: PitStore) -> list[list[tuple[Any, ...]]]:
    return [
        store._all(sql)
        for sql in (
            "SELECT * FROM dealer_stints ORDER BY journal, seq",
            "SELECT * FROM dealer_rounds ORDER BY journal, round_id, dealer",
            "SELECT journal, state FROM journal_watch ORDER BY journal",
            "SELECT journal, round_id, dealers FROM rounds ORDER BY 1, 2",
        )
    ]


def test_pit_rebuild_raises_the_missing_alerts_and_none_twice(room: Room) -> None:
    store = room.store
    derived = _derived(store)
    alerts = store._all("SELECT id, cause, kind, round_id, seq, text FROM alerts ORDER BY id")
    assert sum(kind in READER_KINDS for _, _, kind, _, _, _ in alerts) == 3
    with psycopg.connect(store.dsn, autocommit=True) as conn:  # a store whose pit did not derive them (an older pit)
        conn.execute("SET session_replication_role = replica")  # past the trigger that keeps alerts as written
        conn.execute("DELETE FROM alerts WHERE kind = ANY(%s)", (list(READER_KINDS),))
        for table in ("dealer_stints", "dealer_rounds", "journal_watch"):
            conn.execute(f"DELETE FROM {table}")
        conn.execute("UPDATE rounds SET dealers = '{}'")
    pit_command("rebuild", "--db", store.dsn)
    again = store._all("SELECT id, cause, kind, round_id, seq, text FROM alerts ORDER BY id")
    kept = [alert for alert in alerts if alert[2] not in READER_KINDS]
    assert again[: len(kept)] == kept
    assert sorted(alert[1:] for alert in again[len(kept) :]) == sorted(
        alert[1:] for alert in alerts if alert[2] in READER_KINDS
    )
    assert _derived(store) == derived
    pit_command("rebuild", "--db", store.dsn)
    assert store._all("SELECT id, cause, kind, round_id, seq, text FROM alerts ORDER BY id") == again


def test_the_per_dealer_report_in_a_browser_at_1400_pixels(room: Room, tmp_path: Path) -> None:
    with served(create_app(room.store)) as base, chromium(tmp_path, width=1400) as driver:
        log_in(driver, base, "meg")
        driver.get(base + "/reports/dealers")
        names = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#dealers tbody th")]
        assert names == ["Ana R.", "Ben K.", "Cleo M.", "Dana P.", "no dealer signed in"]
        assert len(driver.find_elements(By.CSS_SELECTOR, "svg.rates rect.rate")) == 4
        sideways = driver.execute_script(
            "return Array.from(document.querySelectorAll('.scroll')).filter(e => e.scrollWidth > e.clientWidth"
            " + 1).length"
        )
        assert sideways == 0, "the dealers' table fits 1400 px without scrolling sideways"
        screenshot(driver, tmp_path, "dealers-report")

"""The store on a real PostgreSQL: migrations, the data the dashboard reads, alerts and their
acknowledgements, logins and tokens."""

from __future__ import annotations

import asyncio
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from dealer_assist.history.recall import export_round, recall
from dealer_assist.journal.journal_file import RecordKind
from dealer_assist.play.round_file import settle_round
from pit.errors import BadValue, PitCode, PitError
from pit.service.floor.data import Change, Conflict, LoginRefused, NotAllowed, NotFound, Role, User
from pit.service.ingest.writes import rebuild, write_records
from pit.service.store.migrate import migrate, migrations
from pit.service.store.pit_store import PitStore
from pit.stream.wire import RecordMessage
from pit.trial.local_services import PostgresCluster
from tests.pit.journals import bench_journal, messages
from tests.pit.pit_service import fresh_database

pytestmark = pytest.mark.slow
SUPERVISOR, SURVEILLANCE = User("ana", Role.SUPERVISOR), User("sam", Role.SURVEILLANCE)


def _write(dsn: str, found: list[RecordMessage]) -> Any:
    async def go() -> Any:
        async with await psycopg.AsyncConnection.connect(dsn) as conn:
            async with conn.transaction():
                return await write_records(conn, found)

    return asyncio.run(go())


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bench_journal(tmp_path_factory.mktemp("s") / "t.db", 6, 4, "T1")


@pytest.fixture
def store(postgres: PostgresCluster) -> Any:
    opened = PitStore.set_up(fresh_database(postgres))
    yield opened
    opened.close()


def test_migrations_are_applied_once_each(postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    with psycopg.connect(dsn) as conn:
        assert [m.version for m in migrate(conn)] == [m.version for m in migrations()] != []
        assert migrate(conn) == []
        rows = conn.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
    assert rows == [(m.version, m.name) for m in migrations()]


def test_only_set_up_migrates_and_open_refuses_a_store_not_set_up(postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    with pytest.raises(PitError, match="lacks migration 001_store and .* more: run dealer-assist pit init") as refused:
        PitStore.open(dsn)
    assert refused.value.code is PitCode.STORE_NOT_SET_UP
    with psycopg.connect(dsn) as conn:
        assert conn.execute("SELECT to_regclass('schema_migrations')").fetchone() == (None,)  # nothing migrated
    store = PitStore.set_up(dsn)
    assert [m.version for m in store.applied] == [m.version for m in migrations()]
    store.close()
    PitStore.open(dsn).close()


def test_two_services_starting_at_once_apply_each_migration_once(postgres: PostgresCluster) -> None:
    from concurrent.futures import ThreadPoolExecutor

    dsn = fresh_database(postgres)

    def start() -> list[int]:
        with psycopg.connect(dsn) as conn:
            return [m.version for m in migrate(conn)]

    with ThreadPoolExecutor(2) as pool:
        applied = sorted(pool.map(lambda _: start(), range(2)))
    assert applied == [[], [m.version for m in migrations()]]


def test_the_pits_round_and_round_file_are_the_tables(store: PitStore, journal: Path) -> None:
    found = messages(journal, "T1")
    assert _write(store.dsn, found).stored == len(found)
    assert _write(store.dsn, found).stored == 0  # a redelivery stores nothing
    table = recall(journal, round_id=4)[0]
    pit = store.round("T1", 4)
    assert {k: v for k, v in pit.items() if k not in ("table_id", "journal", "steps")} == table
    assert pit["ledger"]["format"] == "ledger-v1" and [s["seq"] for s in pit["steps"]] == sorted(
        s["seq"] for s in pit["steps"]
    )
    round_file = store.round_file("T1", 4)
    assert settle_round(round_file) == table["ledger"]
    assert {k: v for k, v in round_file.items() if k != "meta"} == {
        k: v for k, v in export_round(journal, 4).items() if k != "meta"
    }
    assert [r["round_id"] for r in store.rounds("T1", 2)] == [6, 5]
    assert store.rounds("T1", 1)[0]["fees"] == {
        "players": table_fees(journal, 6)["players"],
        "player_dealer": table_fees(journal, 6)["player_dealer"],
    }
    with pytest.raises(NotFound, match="no round 99"):
        store.round("T1", 99)
    with pytest.raises(NotFound, match="no table"):
        store.rounds("T9", 3)
    assert store.witnessed_hashes(found[0].journal, since=len(found) - 2) == [(m.seq, m.hash) for m in found[-2:]]
    tile = store.tables()[0]
    assert (tile["table_id"], tile["profile"], tile["link"], tile["round_id"]) == ("T1", "nobust-4.0", "silent", 6)


def table_fees(journal: Path, round_id: int) -> dict[str, Any]:
    ledger = recall(journal, round_id=round_id)[0]["ledger"]
    return dict(ledger["fees"])


def test_an_open_rounds_hole_card_stays_hidden_on_the_table_view(store: PitStore, tmp_path: Path) -> None:
    found = messages(bench_journal(tmp_path / "h.db", 3, 3, "T1", profile="sd-buster-a"), "T1")
    hole = next(m.seq for m in found if m.round_id == 2 and '"hidden":true' in m.body)
    _write(store.dsn, [m for m in found if m.seq <= hole])  # round 2 with its hole card dealt, not revealed
    live = store.table_live("T1")
    assert live["round"]["round_id"] == 2 and not live["round"]["closed"]
    hidden = [op for op in live["round"]["operations"] if op["type"] == "CardAssigned" and op.get("hidden")]
    assert hidden and all(op["card"] == "??" for op in hidden)


def _alerting_journal(tmp_path: Path) -> list[RecordMessage]:
    """A real chain whose records raise a correction, a PIN lockout and a large payout."""
    from dealer_assist.journal.journal_file import Journal, Verdict, read_records
    from pit.stream.wire import journal_identity

    path = tmp_path / "a.db"
    j = Journal(path, Verdict(True, 0, "new journal"))
    j.append(
        RecordKind.TABLE, {"config": {"table_id": "T1"}, "profile": {"id": "nobust-4.0", "hash": "x"}, "software": "t"}
    )
    j.append(
        RecordKind.INPUT,
        {
            "input": {"type": "VoidRound", "supervisor": "Ben", "reason": "dropped shoe"},
            "now": 1.0,
            "ops": [{"type": "RoundVoided", "round_id": 1, "supervisor": "Ben", "reason": "dropped shoe"}],
        },
        1,
    )
    j.append(RecordKind.SECURITY, {"event": "pin_locked", "until": 70.0})
    j.append(
        RecordKind.CLOSE,
        {
            "input": {"type": "SettlementConfirmed"},
            "now": 2.0,
            "state": {},
            "ops": [{"type": "RoundClosed", "round_id": 2, "player_dealer_net": -150000, "voided": False}],
            "ledger": {
                "format": "ledger-v1",
                "fees": {"players": 1.5, "player_dealer": 2},
                "settlements": [
                    {"seat": 3, "wager": "base", "result": "win", "amount": 1500},
                    {"seat": 4, "wager": "base", "result": "lose", "amount": -5},
                ],
            },
        },
        2,
    )
    j.close()
    records = list(read_records(path))
    return [RecordMessage.of("T1", journal_identity(records[0]), r) for r in records]


def test_alerts_are_raised_once_and_an_acknowledgement_is_kept_as_written(store: PitStore, tmp_path: Path) -> None:
    found = _alerting_journal(tmp_path)
    _write(store.dsn, found[:2])
    _write(store.dsn, found)
    _write(store.dsn, found)
    alerts = store.alerts()
    assert sorted(a["kind"] for a in alerts) == ["correction", "large_payout", "pin_lockout"]
    assert all(a["acked"] is None and a["table_id"] == "T1" for a in alerts)
    payout = next(a for a in alerts if a["kind"] == "large_payout")
    assert (payout["round_id"], payout["seq"]) == (2, 4) and "payout of $1,500 to seat" in payout["text"]
    with pytest.raises(NotAllowed):
        store.acknowledge(payout["id"], SURVEILLANCE, "seen")
    with pytest.raises(BadValue, match="note"):
        store.acknowledge(payout["id"], SUPERVISOR, "  ")
    acked = store.acknowledge(payout["id"], SUPERVISOR, "paid from the cage, checked")
    assert acked["acked"]["by"] == "ana" and acked["acked"]["note"] == "paid from the cage, checked"
    with pytest.raises(Conflict):
        store.acknowledge(payout["id"], SUPERVISOR, "again")
    with pytest.raises(NotFound):
        store.acknowledge(9999, SUPERVISOR, "x")
    with psycopg.connect(store.dsn) as conn, pytest.raises(psycopg.errors.RaiseException, match="kept as written"):
        conn.execute("UPDATE acknowledgements SET note = 'other'")
    assert [a["id"] for a in store.alerts(state="acked")] == [payout["id"]]
    assert len(store.alerts(state="open", table_id="T1")) == 2 and store.alerts(table_id="T2") == []
    report = store.shift_report("T1", datetime(2000, 1, 1, tzinfo=UTC), datetime.now(UTC) + timedelta(days=1))
    assert report["rounds"] == 1 and report["fees"] == {"players": 1.5, "player_dealer": 2}
    assert report["player_dealer_net"] == -1500
    assert [p["amount"] for p in report["largest_payouts"]] == [1500]
    assert [(c["type"], c["supervisor"], c["reason"]) for c in report["corrections"]] == [
        ("RoundVoided", "Ben", "dropped shoe")
    ]


def test_a_change_reaches_a_listener_when_it_is_stored(store: PitStore, journal: Path) -> None:
    async def go() -> tuple[Change, float]:
        changes = store.changes()
        first = asyncio.ensure_future(changes.__anext__())
        await asyncio.sleep(0.3)  # listening
        started = time.monotonic()
        await asyncio.to_thread(_write, store.dsn, messages(journal, "T1")[:5])
        change = await asyncio.wait_for(first, 5)
        await changes.aclose()  # type: ignore[attr-defined]
        return change, time.monotonic() - started

    change, seconds = asyncio.run(go())
    assert change == Change("table", "T1") and seconds < 1.0


def test_five_wrong_passwords_lock_the_name_and_every_try_is_kept(store: PitStore) -> None:
    store.add_user("ana", Role.SUPERVISOR, "a long password")
    with pytest.raises(Conflict):
        store.add_user("ana", Role.MANAGER, "another password")
    with pytest.raises(BadValue, match="at least 8"):
        store.add_user("bo", Role.MANAGER, "short")
    assert store.login("ana", "a long password", "10.0.0.5") == SUPERVISOR
    for _ in range(4):
        with pytest.raises(LoginRefused) as refused:
            store.login("ana", "wrong", "10.0.0.5")
        assert refused.value.locked_for == 0
    with pytest.raises(LoginRefused) as refused:
        store.login("ana", "wrong", "10.0.0.5")
    assert 59 < refused.value.locked_for <= 60
    with pytest.raises(LoginRefused, match="locked"):
        store.login("ana", "a long password", "10.0.0.5")  # the right password, while locked
    with pytest.raises(LoginRefused):
        store.login("nobody", "whatever", "10.0.0.6")
    with psycopg.connect(store.dsn) as conn:
        kept = conn.execute("SELECT name, source, outcome FROM logins ORDER BY id").fetchall()
        salt, digest = conn.execute("SELECT salt, hash FROM users WHERE name = 'ana'").fetchone()  # type: ignore[misc]
    assert [o for _, _, o in kept] == ["ok", "wrong", "wrong", "wrong", "wrong", "wrong", "locked", "wrong"]
    assert kept[-1][:2] == ("nobody", "10.0.0.6")
    assert len(bytes(salt)) == 16 and b"a long password" not in bytes(digest)


def test_a_token_stands_for_its_user_and_only_its_hash_is_kept(store: PitStore) -> None:
    token = store.add_token("wall-screen", Role.SURVEILLANCE)
    assert store.token_user(token) == User("wall-screen", Role.SURVEILLANCE)
    assert store.token_user(token + "x") is None
    with psycopg.connect(store.dsn) as conn:
        kept = json.dumps(conn.execute("SELECT * FROM tokens").fetchall(), default=str)
    assert token not in kept


def test_the_derived_tables_are_rebuilt_from_the_records_alone(store: PitStore, journal: Path, tmp_path: Path) -> None:
    _write(store.dsn, messages(journal, "T1"))
    _write(store.dsn, _alerting_journal(tmp_path))
    derived = (
        "SELECT * FROM rounds ORDER BY journal, round_id",
        "SELECT * FROM corrections ORDER BY journal, seq",
        "SELECT journal, rounds_closed FROM journals ORDER BY journal",
        "SELECT * FROM alerts ORDER BY id",
    )
    before = [store._all(sql) for sql in derived]
    assert before[0] and before[1] and before[3]
    with psycopg.connect(store.dsn) as conn:
        conn.execute("DELETE FROM rounds WHERE round_id > 2")
        conn.execute("UPDATE journals SET rounds_closed = 0")

    async def go() -> int:
        async with await psycopg.AsyncConnection.connect(store.dsn) as conn:
            async with conn.transaction():
                return await rebuild(conn)

    assert asyncio.run(go()) == len(messages(journal, "T1")) + 4
    assert [store._all(sql) for sql in derived] == before

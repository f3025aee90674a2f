"""One late change, one alert (RULES.md §8.23, PIT.md §5), on a real PostgreSQL: a table with a wager
reader whose late chips lie on their spot through three later scans (a settle-now "Paid", the reader's
own scan after an outage, the settlement's "Done") journals the change once, and the pit, storing
its records in any batches and again, raises one alert for it; the chips put back and slipped on
again are a second change, a second alert."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psycopg
import pytest

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import ScanFor, ShoeLoaded, SpotReading, SpotsScanned
from dealer_assist.table.spots import Spot, SpotKind
from pit.service.ingest.writes import write_records
from pit.service.store.pit_store import PitStore
from pit.stream.wire import RecordMessage
from pit.trial.local_services import PostgresCluster
from tests.pit.journals import messages
from tests.pit.pit_service import fresh_database

pytestmark = pytest.mark.slow
SEATS = (3, 7)
# sd-buster-a deals seat 3, seat 7, the dealer's up card, again, the hole card: seat 3 AS KD, a Natural settled
# at once (the dealer's 6 up cannot make one); seat 7 TH QH = 20 stands; the dealer 6D 9C = 15 draws 3S: 18.
CARDS = ["AS", "TH", "6D", "KD", "QH", "9C", "3S"]


def _reading(seat: int, *dollars: int) -> SpotReading:
    return SpotReading(Spot(seat, SpotKind.BASE), len(dollars), sum(dollars) * 100)


def _scan(purpose: ScanFor, chips: dict[int, tuple[int, ...]]) -> SpotsScanned:
    return SpotsScanned(purpose, tuple(_reading(seat, *chips.get(seat, ())) for seat in SEATS))


def _late_journal(path: Path) -> Path:
    """Seat 7's $100 closed, $25 slipped on late and left through every scan, then paid right."""
    table = Table.open(path, TableConfig("T-L", "sd-buster-a", seats=7))
    try:
        table.submit(ShoeLoaded("S1", 6))
        table.submit(_scan(ScanFor.READING, {}))
        table.submit(_reading(3, 10))
        table.submit(_reading(7, 100))
        table.submit(_scan(ScanFor.NO_MORE_BETS, {3: (10,), 7: (100,)}))
        table.submit(_reading(7, 100, 25))  # late
        for card in CARDS[:6]:
            table.submit(CardDrawn(parse_card(card)))
        table.submit(_scan(ScanFor.PAID, {3: (10, 10, 5), 7: (100, 25)}))  # the Natural paid 3:2
        table.submit(_scan(ScanFor.READING, {3: (10, 10, 5), 7: (100, 25)}))  # the reader back after an outage
        table.submit(_reading(7, 100))  # put back: the change is over
        table.submit(_reading(7, 100, 5))  # slipped on again: a second change
        table.submit(Decide(7, 0, Action.STAND))
        table.submit(CardDrawn(parse_card(CARDS[6])))
        table.submit(_scan(ScanFor.SETTLED, {3: (10, 10, 5), 7: (100, 5, 100)}))
    finally:
        table.close()
    return path


def _write(dsn: str, found: list[RecordMessage]) -> Any:
    async def go() -> Any:
        async with await psycopg.AsyncConnection.connect(dsn) as conn:
            async with conn.transaction():
                return await write_records(conn, found)

    return asyncio.run(go())


@pytest.fixture
def store(postgres: PostgresCluster) -> Any:
    opened = PitStore.set_up(fresh_database(postgres))
    yield opened
    opened.close()


def test_one_late_change_is_journaled_once_and_raises_one_alert(store: PitStore, tmp_path: Path) -> None:
    path = _late_journal(tmp_path / "t.db")
    records = list(read_records(path))
    late = [
        (record.seq, op)
        for record in records
        if record.kind in (RecordKind.INPUT, RecordKind.CLOSE)
        for op in record.body["ops"]
        if op["type"] == "LateChange"
    ]
    assert [(op["spot"], op["due"], op["held"]) for _, op in late] == [
        ("7.base", 10_000, 12_500),
        ("7.base", 10_000, 10_500),
    ]
    assert records[-1].kind is RecordKind.CLOSE, "the late chips counted: seat 7 paid right, the round closed"

    found = messages(path, "T-L")
    middle = next(index for index, message in enumerate(found) if message.seq > late[0][0])
    _write(store.dsn, found[:middle])  # the first change, then every record again with the rest
    _write(store.dsn, found)
    _write(store.dsn, found)
    alerts = [alert for alert in store.alerts() if alert["kind"] == "late_change"]
    assert sorted((alert["round_id"], alert["seq"]) for alert in alerts) == [(1, late[0][0]), (1, late[1][0])]
    first = min(alerts, key=lambda alert: alert["seq"])
    assert first["text"] == (
        "late change: Seat 7 · Base: $125 on the spot, $100 closed · late change; the closed wager stands"
    )

"""Real bench journals for the pit's tests, and the forger's rewrite of one."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

import nats

from dealer_assist.journal import journal_file
from dealer_assist.journal.journal_file import Record, read_records, record_hash
from hw_sims.bench_command import main as bench
from pit.stream.broker import ensure_stream
from pit.stream.wire import RecordMessage, journal_identity


def bench_journal(
    path: Path,
    rounds: int,
    seed: int,
    table_id: str,
    resume: bool = False,
    profile: str = "nobust-4.0",
    pit: tuple[str, Path] | None = None,
) -> Path:
    """`bench` in process; with `pit` (the broker's URL, the table's credentials) shipping as it deals."""
    args = [
        "--rounds",
        str(rounds),
        "--seed",
        str(seed),
        "--journal",
        str(path),
        "--table-id",
        table_id,
        "--links",
        "in-process",
        "--profile",
        profile,
    ]
    shipping = [] if pit is None else ["--pit", pit[0], "--pit-creds", str(pit[1])]
    assert bench(args + (["--resume"] if resume else []) + shipping) == 0
    return path


def messages(path: Path, table_id: str, since: int = 0) -> list[RecordMessage]:
    records = list(read_records(path))
    journal = journal_identity(records[0])
    return [RecordMessage.of(table_id, journal, record) for record in records if record.seq > since]


async def publish(js: object, found: list[RecordMessage]) -> None:
    for message in found:
        await js.publish(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})  # type: ignore[attr-defined]


def ship(url: str, found: list[RecordMessage]) -> None:
    """Publish `found` to the records stream at `url` (made if missing), as the tables' shippers would."""

    async def go() -> None:
        nc = await nats.connect(url)
        js = nc.jetstream()
        await ensure_stream(js)
        await publish(js, found)
        await nc.close()

    asyncio.run(go())


def rewrite(path: Path, seq: int, change: dict[str, object]) -> None:
    """Change one record's body and recompute the chain from it, as a forger with sqlite3 would."""
    records = list(read_records(path))
    db = sqlite3.connect(path)
    prev = records[seq - 2].hash
    for record in records[seq - 1 :]:
        body = dict(record.body, **change) if record.seq == seq else record.body
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        digest = record_hash(prev, record.seq, record.wall, record.mono_ns, record.round_id, record.kind.value, text)
        db.execute("UPDATE records SET body = ?, hash = ? WHERE seq = ?", (text, digest, record.seq))
        prev = digest
    db.commit()
    db.close()
    Path(str(path) + ".seal").unlink(missing_ok=True)


def head(path: Path) -> Record:
    return list(read_records(path))[-1]


@contextmanager
def paced_walls(start: datetime, step: timedelta) -> Iterator[None]:
    """Records journaled meanwhile take their wall clocks from `start` on, `step` apart: a table dealt
    at a person's pace, for figures per hour that a bench dealing in milliseconds cannot give."""
    ticks = itertools.count()

    class Paced(datetime):
        @classmethod
        def now(cls, tz: object = None) -> datetime:  # type: ignore[override]
            return start + step * next(ticks)

    journal_file.datetime = Paced  # type: ignore[misc]
    try:
        yield
    finally:
        journal_file.datetime = datetime  # type: ignore[misc]

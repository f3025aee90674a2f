"""Real bench journals for the pit's tests, and a few lines that ship them as a table would."""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from dealer_assist.journal import Record, read_records, record_hash
from hw_sims.bench_command import main as bench
from pit.wire import RecordMessage, journal_identity


def bench_journal(path: Path, rounds: int, seed: int, table_id: str, resume: bool = False,
                  profile: str = "nobust-4.0") -> Path:
    args = ["--rounds", str(rounds), "--seed", str(seed), "--journal", str(path), "--table-id", table_id,
            "--links", "in-process", "--profile", profile]
    assert bench(args + (["--resume"] if resume else [])) == 0
    return path


def messages(path: Path, table_id: str, since: int = 0) -> list[RecordMessage]:
    records = list(read_records(path))
    journal = journal_identity(records[0])
    return [RecordMessage.of(table_id, journal, record) for record in records if record.seq > since]


async def publish(js: object, found: list[RecordMessage]) -> None:
    for message in found:
        await js.publish(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})  # type: ignore[attr-defined]


def rewrite(path: Path, seq: int, change: dict[str, object]) -> None:
    """Change one record's body and recompute the chain from it, as a forger with sqlite3 would."""
    records = list(read_records(path))
    db = sqlite3.connect(path)
    prev = records[seq - 2].hash
    for record in records[seq - 1:]:
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


async def ship_steadily(url: str, found: list[RecordMessage], pause: float = 0.0, seed: str | None = None) -> None:
    """Ship as a table does: each record until the stream has it, through any outage of the broker."""
    import asyncio

    import nats
    from nats.errors import Error as NatsError

    from pit.broker import inbox_prefix

    nc = None
    while nc is None:
        try:
            nc = await nats.connect(url, nkeys_seed_str=seed, inbox_prefix=inbox_prefix(found[0].table_id),
                                    max_reconnect_attempts=-1, reconnect_time_wait=0.2, connect_timeout=1)
        except (NatsError, OSError):
            await asyncio.sleep(0.2)
    js = nc.jetstream(timeout=2)
    for message in found:
        while True:
            try:
                await js.publish(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
                break
            except (NatsError, asyncio.TimeoutError, OSError):
                await asyncio.sleep(0.2)
        if pause:
            await asyncio.sleep(pause)
    await nc.close()

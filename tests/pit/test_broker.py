"""The broker's identities: a table ships and asks for its own records, and is refused another's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import nats
import pytest
from nats.errors import TimeoutError as NatsTimeout

from dealer_assist.journal.journal_file import Journal, RecordKind, Verdict, read_records
from pit.stream.broker import Identity, ensure_stream, inbox_prefix, last_shipped, nats_config, read_creds
from pit.stream.wire import RecordMessage, journal_identity
from pit.trial.local_services import NatsServer, free_port

pytestmark = pytest.mark.slow


def _records(path: Path) -> list:
    journal = Journal(path, Verdict(True, 0, "new journal"))
    journal.append(RecordKind.TABLE, {"config": {"table_id": "T1"}})
    journal.append(RecordKind.INPUT, {"input": {"type": "PlaceWager"}, "now": 1.0}, 1)
    journal.close()
    return list(read_records(path))


def test_a_table_ships_its_own_records_and_no_other_tables(tmp_path: Path) -> None:
    pit, t1, t2 = Identity.new(), Identity.new(), Identity.new()
    port = free_port()
    config = nats_config(port, str(tmp_path / "js"), pit.public_key, {"T1": t1.public_key, "T2": t2.public_key})
    server = NatsServer(tmp_path, port, config).start()
    creds = tmp_path / "t1.creds"
    creds.write_text(t1.creds_file())
    assert read_creds(creds.read_text()) == t1.seed
    records = _records(tmp_path / "t1.db")
    journal = journal_identity(records[0])
    errors: list[str] = []

    async def error_cb(error: Exception) -> None:
        errors.append(str(error))

    async def scenario() -> tuple[int | None, bool, bool]:
        admin = await nats.connect(server.url, nkeys_seed_str=pit.seed)
        await ensure_stream(admin.jetstream())
        table = await nats.connect(
            server.url, nkeys_seed=str(creds), inbox_prefix=inbox_prefix("T1"), error_cb=error_cb
        )
        js = table.jetstream(timeout=1)
        for record in records:
            message = RecordMessage.of("T1", journal, record)
            await js.publish(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
        await js.publish(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})  # a resend
        last = await last_shipped(js, "T1", journal)
        refused_publish = False
        try:
            await js.publish(f"da.records.T2.{journal}", b"{}")
        except NatsTimeout:
            refused_publish = True
        refused_read = False
        try:
            await last_shipped(js, "T2", journal)
        except NatsTimeout:
            refused_read = True
        info = await admin.jetstream().stream_info("DA_RECORDS")
        await table.close()
        await admin.close()
        return (last.seq if last else None), refused_publish and refused_read, info.state.messages == 2

    try:
        last_seq, refused, exactly_once = asyncio.run(scenario())
    finally:
        server.stop()
    assert last_seq == 2
    assert refused and any("permissions violation" in e.lower() for e in errors)
    assert exactly_once


def test_a_file_without_a_seed_is_not_credentials() -> None:
    with pytest.raises(ValueError, match="NKEY user seed"):
        read_creds("# nothing here\n")

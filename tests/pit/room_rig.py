"""A broker with the pit's and two tables' identities, and what the tests read back from its stream."""

from __future__ import annotations

import asyncio
import sqlite3
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import nats
from nats.js.errors import NotFoundError

from dealer_assist.journal.journal_file import canonical_json, read_records, record_hash, seal_path
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.money import to_units
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.table_facts import table_facts
from pit.shipping.link import PitLink
from pit.shipping.table_view import StatusSource, TableView
from pit.stream.broker import Identity, ensure_stream, nats_config
from pit.stream.wire import STREAM, RecordMessage, parse_record_message
from pit.trial.local_services import NatsServer, free_port


@dataclass
class Room:
    server: NatsServer
    pit: Identity
    creds: dict[str, Path]  # table id -> its creds file

    def link(self, table_id: str, creds_of: str | None = None) -> PitLink:
        return PitLink.of(self.server.url, self.creds[creds_of or table_id])

    def admin(self, coroutine_fn):  # type: ignore[no-untyped-def]
        """Run `coroutine_fn(js)` on a connection of the pit's own identity."""

        async def run():  # type: ignore[no-untyped-def]
            client = await nats.connect(self.server.url, nkeys_seed_str=self.pit.seed)
            try:
                return await coroutine_fn(client.jetstream(timeout=5))
            finally:
                await client.close()

        return asyncio.run(run())

    def stream(self) -> list[RecordMessage]:
        """Every record message in the stream, in stream order."""

        async def read(js):  # type: ignore[no-untyped-def]
            try:
                info = await js.stream_info(STREAM)
            except NotFoundError:
                return []
            found: list[RecordMessage] = []
            if info.state.messages == 0:
                return found
            for seq in range(info.state.first_seq, info.state.last_seq + 1):
                found.append(parse_record_message((await js.get_msg(STREAM, seq)).data or b""))
            return found

        return self.admin(read)


def start_room(folder: Path) -> Room:
    pit, tables = Identity.new(), {"T1": Identity.new(), "T2": Identity.new()}
    port = free_port()
    config = nats_config(port, str(folder / "js"), pit.public_key, {t: i.public_key for t, i in tables.items()})
    server = NatsServer(folder / "nats", port, config).start()
    creds = {}
    for table_id, identity in tables.items():
        creds[table_id] = folder / f"{table_id}.creds"
        creds[table_id].write_text(identity.creds_file())
    room = Room(server, pit, creds)
    room.admin(ensure_stream)
    return room


def once_each(messages: list[RecordMessage], journal: str) -> Counter[int]:
    return Counter(m.seq for m in messages if m.journal == journal)


def open_bench_table(path: Path, table_id: str = "T1") -> Table:
    return Table.open(path, TableConfig(table_id, "nobust-4.0"), devices={"shoe": {"model": "emulated", "seed": 1}})


def session_view(table: Table) -> StatusSource:
    """A status source over a table played in process, without a controller or devices: its session's
    attributes, read on the shipper's thread (a status torn mid-input is corrected by the next)."""

    def view() -> TableView:
        session = table.session
        s, tracker = session.s, session.tracker
        player_dealer = (
            None if s.pd_seat is None else {"seat": s.pd_seat, "bank": to_units(s.pd_bank), "turn": s.pd_turn}
        )
        return TableView(
            session.profile.id,
            session.round_id,
            tracker.phase.value if tracker is not None else session.state.value,
            player_dealer,
        )

    return view


def play(table: Table, player: BenchPlayer, rounds: int) -> None:
    """Play on until `rounds` more rounds have closed, in process (no device links)."""
    target = table.rounds_closed + rounds
    while table.rounds_closed < target:
        table.submit(player.next_input(table_facts(table.session)))


def rewrite_chain(path: Path, first_input_after: int) -> int:
    """Change one input's record (its time) and recompute every hash from it on, as a careful forger would;
    returns the seq changed."""
    seal_path(path).unlink(missing_ok=True)
    records = list(read_records(path))
    target = next(r for r in records if r.seq > first_input_after and r.kind.value == "input")
    with sqlite3.connect(path) as db:
        prev = records[target.seq - 2].hash
        for record in records[target.seq - 1 :]:
            body = dict(record.body, now=record.body.get("now", 0) + 1) if record.seq == target.seq else record.body
            text = canonical_json(body)
            digest = record_hash(
                prev, record.seq, record.wall, record.mono_ns, record.round_id, record.kind.value, text
            )
            db.execute("UPDATE records SET body = ?, hash = ? WHERE seq = ?", (text, digest, record.seq))
            prev = digest
    return target.seq

"""Bench tables dealing while they ship, through the product's own `bench --pit`, and what a pit must
hold of them at the end: every record exactly once, each witnessed head its journal's head, and
each alert raised once."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pit.service.floor import alerts as rules
from pit.service.store.pit_store import PitStore
from pit.stream.broker import Identity
from tests.pit.journals import head, messages
from tests.pit.pit_service import ROOT, stored, stored_counts, wait_for

PACE_S = 0.01


@dataclass
class Tables:
    """Tables dealing in processes of their own, each with its journal and log in `folder`."""

    folder: Path
    names: tuple[str, ...]
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    stopped_at: float = 0.0  # time.time() when the last of them ended

    def start(
        self, urls: str, seeds: dict[str, str] | None = None, rounds: int = 1_000_000, pace: float = PACE_S
    ) -> Tables:
        """Every table dealing `rounds` rounds (until stopped, by default); on an open broker each
        with a fresh identity of its own."""
        seeds = seeds or {table: Identity.new().seed for table in self.names}
        for number, table in enumerate(self.names):
            creds = self.folder / f"{table}.creds"
            creds.write_text(seeds[table].strip() + "\n")
            command = [
                sys.executable,
                "-m",
                "ui.cli",
                "bench",
                "--rounds",
                str(rounds),
                "--seed",
                str(number + 20),
                "--journal",
                str(self.journal(table)),
                "--table-id",
                table,
                "--links",
                "in-process",
                "--pace",
                str(pace),
                "--pit",
                urls,
                "--pit-creds",
                str(creds),
            ]
            with open(self.folder / f"{table}.log", "ab") as log:
                self.processes.append(subprocess.Popen(command, stdout=log, stderr=log, cwd=ROOT))
        return self

    def journal(self, table: str) -> Path:
        return self.folder / f"{table}.db"

    def dealing(self) -> bool:
        return all(process.poll() is None for process in self.processes)

    def stop(self) -> None:
        """Ctrl-C to each (it closes its journal and hands the stream what it can), and wait."""
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
        self.finished()

    def finished(self, timeout: float = 90.0) -> None:
        for process, name in zip(self.processes, self.names, strict=False):
            assert process.wait(timeout=timeout) == 0, (self.folder / f"{name}.log").read_text()
        self.stopped_at = time.time()

    def kill(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
                process.wait()

    def records(self) -> int:
        return sum(len(messages(self.journal(table), table)) for table in self.names)


def under_way(store: PitStore, tables: Tables, records: int = 100) -> None:
    """Wait until the pit has stored some records while every table is still dealing."""
    wait_for(lambda: stored(store) > records, what="ingest under way")
    assert tables.dealing(), "a table stopped before the outage"


def exactly_once(store: PitStore, tables: Tables, timeout: float = 60.0) -> None:
    """Every record of every table's journal in the store once, each witnessed head the journal's head."""
    shipped = {table: messages(tables.journal(table), table) for table in tables.names}
    expected = {found[0].journal: (len(found),) * 3 for found in shipped.values()}
    wait_for(
        lambda: {j: c for j, c in stored_counts(store).items() if j in expected} == expected,
        timeout=timeout,
        what="every record exactly once",
    )
    for table, found in shipped.items():
        last = head(tables.journal(table))
        assert store.witness(found[0].journal)["head"] == last.hash.hex() == found[-1].hash


def record_alerts(tables: Tables) -> Counter[tuple[str, str]]:
    """(kind, cause) of each alert the tables' records raise, at the default payout threshold."""
    return Counter(
        (cause.kind.value, cause.cause)
        for table in tables.names
        for message in messages(tables.journal(table), table)
        for cause in rules.record_alerts(message)
    )


def alerts_raised(store: PitStore, before: float) -> Counter[tuple[str, str]]:
    """(kind, cause) of each alert the pit raised before `before` (time.time())."""
    rows = store._all("SELECT kind, cause FROM alerts WHERE raised < to_timestamp(%s)", (before,))
    return Counter((kind, cause) for kind, cause in rows)

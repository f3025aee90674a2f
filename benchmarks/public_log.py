"""The room's public log's figures (PIT.md §9), on this one machine with broker, store, pit and two witnesses.

1. The backlog of many journals of benchmarks/pit.py's part 2b (30,000 records of 1, 10, 50 and 200
   journals), ingested by a pit with the log off and one with it on, taken in turn: records/s both ways
   (target >= 20,000 with the log on) and the leaves appended.
2. Rounds shipped one by one into a pit keeping the log: from a round's closing record sent to a
   published (cosigned) checkpoint covering its leaf, p50/p99 (target: p99 <= the interval + 2 s).
3. `proof verify --settle` as a banker runs it, the whole command; a proof file's and its tlog-proof's
   size, measured and at 10^8 leaves (27 hashes, two witnesses' cosignatures: target <= 2 KB).

    python benchmarks/public_log.py            # 13,000 records, 40 rounds at a 5 s interval
    python benchmarks/public_log.py --short    # a quick run that checks every part works
"""

from __future__ import annotations

import sys
from pathlib import Path

if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse  # noqa: E402 (after the path is put right)
import asyncio
import json
import shutil
import statistics
import subprocess
import tempfile
import threading
import time
from contextlib import ExitStack
from typing import Any

import nats
import psycopg
from psycopg_pool import ConnectionPool

from benchmarks.pit_parts import Pit, bench_journal, many_journals, percentile
from dealer_assist.journal.journal_file import read_records
from pit.service.log.reading import LogReader
from pit.stream.wire import RecordMessage, journal_identity
from pit.tlog.checkpoint import Checkpoint
from pit.tlog.cosignature import cosign
from pit.tlog.keyfile import read_key, write_new_key
from pit.tlog.keys import SignatureType, SignerKey
from pit.tlog.note import Note
from pit.tlog.proof_text import TlogProof
from pit.trial.local_services import free_port

ORIGIN = "bench.dealer-assist.test/da-log"
BACKLOG_TARGET = 20_000.0  # records/s with the log on
PROOF_TARGET = 2048  # bytes: a tlog-proof with two witnesses at 10^8 leaves
HASHES_AT_1E8 = 27  # an inclusion proof's length at 10^8 leaves
SLACK_S = 2.0  # a published checkpoint within the interval and this


def _witnesses(folder: Path, stack: ExitStack) -> tuple[str, ...]:
    """The log's key, two `witness serve` processes and the policy; what `pit serve` is given."""
    key = write_new_key(folder / "log.key", ORIGIN, SignatureType.ED25519)
    lines = [f"log {key.verifier()}"]
    for name in ("witness-1", "witness-2"):
        vkey = write_new_key(folder / f"{name}.key", f"{name}.bench.test", SignatureType.COSIGNATURE_V1).verifier()
        port = free_port()
        witness = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "witness",
                "serve",
                "--key",
                str(folder / f"{name}.key"),
                "--state",
                str(folder / f"{name}.db"),
                "--log",
                str(key.verifier()),
                "--http",
                f"127.0.0.1:{port}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        stack.callback(_stop, witness)
        assert witness.stdout is not None and b"serving" in witness.stdout.readline()
        lines.append(f"witness {name} {vkey} http://127.0.0.1:{port}")
    (folder / "policy.txt").write_text(
        "\n".join([*lines, "group any-one any witness-1 witness-2", "quorum any-one"]) + "\n"
    )
    return ("--log-key", str(folder / "log.key"), "--log-policy", str(folder / "policy.txt"))


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.kill()
    process.wait()


def _count(conn: psycopg.Connection[Any], sql: str) -> int:
    row = conn.execute(sql).fetchone()
    return int(row[0]) if row else 0


def _backlogs(folder: Path, records: int, interval: float, short: bool) -> None:
    """The backlog of many journals of benchmarks/pit.py's part 2b, into a pit with the log off and one
    with it on, taken in turn for each number of journals so that each pair runs under the same load."""
    pits = {}
    with ExitStack() as stack:
        for way in ("off", "on"):
            place = folder / f"backlog-{way}"
            place.mkdir()
            args = _witnesses(place, stack) + ("--log-interval", str(interval)) if way == "on" else ()
            pits[way] = pit = Pit(place, args)
            stack.callback(pit.stop)
            pit.start_serving()
        worst, leaves = None, 0
        for journals in (1, 10) if short else (1, 10, 50, 200):
            rates = {
                way: many_journals(pits[way], folder / f"backlog-{way}", journals, records, f"{way}{journals}")
                for way in ("off", "on")
            }
            (total, off), (_, on) = rates["off"], rates["on"]
            worst = on if worst is None else min(worst, on)
            with psycopg.connect(pits["on"].postgres.dsn) as conn:
                before, leaves = leaves, _count(conn, "SELECT count(*) FROM log_leaves")
            print(
                f"1. backlog of {journals} journals, {total:,} records: ingest {off:,.0f} records/s with the log"
                f" off, {on:,.0f} with it on ({on / off:.0%}); {leaves - before:,} leaves appended,"
                f" {(leaves - before) * on / total:,.0f} leaves/s"
            )
    verdict = "" if short or worst is None else " met" if worst >= BACKLOG_TARGET else " MISSED"
    print(f"   the slowest with the log on: {worst:,.0f} records/s (target >= {BACKLOG_TARGET:,.0f}){verdict}")


async def _ship_rounds(
    url: str, found: list[RecordMessage], pause: float, closed: dict[int, float]
) -> dict[int, float]:
    """Each round's records sent, then a pause; when each round's closing record was sent, in `closed`."""
    nc = await nats.connect(url)
    js = nc.jetstream()
    for message in found:
        await js.publish(message.subject, message.encode(), headers={"Nats-Msg-Id": message.msg_id})
        if message.kind.value == "close" and message.round_id is not None:
            closed[message.round_id] = time.monotonic()
            await asyncio.sleep(pause)
    await nc.close()
    return closed


def _to_published(folder: Path, rounds: int, interval: float) -> Path:
    """Rounds closed one by one; each one's delay to a published checkpoint covering it. A proof file."""
    place = folder / "published"
    place.mkdir()
    with ExitStack() as stack:
        pit = Pit(place, _witnesses(place, stack) + ("--log-interval", str(interval)))
        stack.callback(pit.stop)
        pit.start_serving()
        path = bench_journal(place / "T1.db", "PUB-1", rounds, 5)
        journal = journal_identity(next(read_records(path)))
        found = [RecordMessage.of("PUB-1", journal, record) for record in read_records(path)]
        closed: dict[int, float] = {}  # filled as the rounds are sent, while the checkpoints are watched
        shipping = threading.Thread(
            target=lambda: closed.update(asyncio.run(_ship_rounds(pit.nats.url, found, interval / 3, closed)))
        )
        shipping.start()
        published: dict[int, float] = {}
        deadline = time.monotonic() + rounds * interval / 3 + 3 * interval + 60
        with psycopg.connect(pit.postgres.dsn, autocommit=True) as conn:
            while (shipping.is_alive() or len(published) < len(closed)) and time.monotonic() < deadline:
                size = _count(conn, "SELECT coalesce(max(size), 0) FROM log_checkpoints WHERE published IS NOT NULL")
                for round_id, index in conn.execute(
                    "SELECT round_id, idx FROM log_leaves WHERE journal = %s", (journal,)
                ).fetchall():
                    if index < size and round_id not in published:
                        published[round_id] = time.monotonic()
                time.sleep(0.05)
        shipping.join()
        if len(published) < len(closed):
            raise SystemExit(f"{len(closed) - len(published)} rounds were not published within {deadline:.0f} s")
        delays = [published[r] - closed[r] for r in closed]
        p99 = percentile(delays, 0.99)
        verdict = "met" if p99 <= interval + SLACK_S else "MISSED"
        print(
            f"2. closed round -> published checkpoint covering it, {len(delays)} rounds at a {interval:g} s interval:"
            f" p50 {statistics.median(delays):.2f} s, p99 {p99:.2f} s (target <= {interval + SLACK_S:g} s) {verdict}"
        )
        with ConnectionPool(pit.postgres.dsn, min_size=1, max_size=1) as pool:
            proof = LogReader(pool).round_proof(journal, rounds // 2)
        file = folder / "round.proof.json"
        file.write_text(json.dumps(proof))
        shutil.copy(place / "policy.txt", folder / "policy.txt")
        return file


def _verify_and_size(file: Path, runs: int) -> None:
    times, policy = [], file.parent / "policy.txt"
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "ui.cli", "proof", "verify", str(file), "--policy", str(policy), "--settle"],
            capture_output=True,
            text=True,
        )
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"proof verify failed: {done.stderr}")
    print(f"3. proof verify --settle, the whole command: median {statistics.median(times):.2f} s over {runs} runs")
    proof = json.loads(file.read_text())
    tlog = TlogProof.parse(proof["tlog_proof"].encode())
    note = Note.parse(tlog.checkpoint)
    at_1e8 = Checkpoint(ORIGIN, 10**8, Checkpoint.parse(note.text).root)
    signatures = [note.signatures[0]] + [
        cosign(at_1e8.text(), _key(file.parent, n), 1767225600) for n in ("witness-1", "witness-2")
    ]
    big = TlogProof(
        10**8 - 1, tuple(bytes(32) for _ in range(HASHES_AT_1E8)), Note(at_1e8.text(), tuple(signatures)).render()
    )
    size = len(big.render())
    print(
        f"   proof file {file.stat().st_size:,} bytes with {len(proof['records'])} records; its tlog-proof"
        f" {len(proof['tlog_proof'].encode()):,} bytes ({len(tlog.hashes)} hashes, {len(note.signatures) - 1}"
        " cosignatures);"
        f" at 10^8 leaves with two witnesses {size:,} bytes (target <= {PROOF_TARGET:,})"
        f" {'met' if size <= PROOF_TARGET else 'MISSED'}"
    )


def _key(folder: Path, name: str) -> SignerKey:
    return read_key(folder / "published" / f"{name}.key", SignatureType.COSIGNATURE_V1)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="a quick run for CI: checks that every part works")
    parser.add_argument("--backlog", type=int, default=30_000, help="records of each backlog of many journals")
    parser.add_argument("--rounds", type=int, default=40, help="rounds closed one by one")
    parser.add_argument("--interval", type=float, default=5.0, help="the log's checkpoint interval, seconds")
    args = parser.parse_args(argv)
    if args.short:
        args.backlog, args.rounds, args.interval = 600, 6, 1.0
    folder = Path(tempfile.mkdtemp(prefix="da-log-bench-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        _backlogs(folder, args.backlog, args.interval, args.short)
        _verify_and_size(_to_published(folder, args.rounds, args.interval), 3 if args.short else 10)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

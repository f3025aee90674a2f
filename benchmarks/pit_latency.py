"""Part 1 of benchmarks/pit.py: the table's card latency with the shipper attached (broker up, broker
down) and without, in passes that take the three in turn under the same load."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.pit_parts import creds, figure_line, make_stream, percentile
from dealer_assist.errors import Failure
from dealer_assist.journal.journal_file import Record, RecordKind
from dealer_assist.rules.inputs import CardDrawn
from dealer_assist.table.session import TableConfig, TableInput
from devices.table_owner.controller import TableController
from devices.wire.messages import CardOut, Message
from hw_sims.linked_bench import LinkedBench
from pit.shipping.link import PitLink
from pit.shipping.shipper import attach_shipper
from pit.shipping.table_view import snapshot_view
from pit.trial.local_services import NatsServer, free_port

LATENCY_RUNS = (("without --pit", "without"), ("--pit up     ", "up"), ("--pit down   ", "down"))


@dataclass
class Latencies:
    """Milliseconds from each card frame written to its card taken by the table's owner (the rules
    apply it next), and to its record durable."""

    taken: list[float]
    durable: list[float]


class TimedController(TableController):
    """This benchmark's probe: `taken` hears of each card as the table's owner takes it, before the
    rules apply it and the journal records it."""

    taken: Callable[[], None] | None = None

    def submit(self, event: TableInput) -> Failure | None:
        if isinstance(event, CardDrawn) and self.taken is not None:
            self.taken()
        return super().submit(event)


def card_latency(folder: Path, name: str, rounds: int, pit: str | None) -> Latencies:
    """One run of `rounds` rounds on the bench's emulated devices, shipping to `pit` if given (as
    `bench --pit` does, with the controller's status). The first moment is taken where the table's
    owner takes the card, before the rules apply it and the journal records it (`TimedController`)."""
    controller = TimedController.open(
        folder / f"latency-{name}.db",
        TableConfig("LAT-1", "nobust-4.0"),
        devices={"shoe": {"model": "emulated", "seed": 5}},
    )
    bench = LinkedBench(controller, 5)
    sent: list[float] = []
    found = Latencies([], [])

    def on_sent(message: Message) -> None:
        if isinstance(message, CardOut):
            sent.append(time.perf_counter())

    def taken() -> None:
        if sent:
            found.taken.append((time.perf_counter() - sent[-1]) * 1000)

    def on_record(record: Record) -> None:
        if (
            record.kind in (RecordKind.INPUT, RecordKind.CLOSE)
            and record.body["input"].get("type") == "CardDrawn"
            and sent
        ):
            found.durable.append((time.perf_counter() - sent[-1]) * 1000)

    controller.taken = taken
    shipper = (
        attach_shipper(
            controller.journal_path,
            controller.add_sink,
            "LAT-1",
            PitLink.of(pit, creds(folder)),
            snapshot_view(lambda: controller.snapshot, controller.device_lights),
        )
        if pit
        else None
    )
    controller.add_sink(on_record)  # after the shipper's: the durable moment includes its offer
    bench.devices.shoe.sim_on_first_send = on_sent
    bench.start()
    try:
        while controller.rounds_closed < rounds:
            bench.step()
    finally:
        bench.stop()
        controller.close()
        if shipper is not None:
            shipper.stop(5.0)
    return found


def latency_passes(folder: Path, rounds: int, passes: int) -> dict[str, list[Latencies]]:
    """Each pass runs without the pit, with it up and with it down, one after the other."""
    broker = NatsServer(folder / "latency-nats").start()
    urls = {"without": None, "up": broker.url, "down": f"nats://127.0.0.1:{free_port()}"}
    found: dict[str, list[Latencies]] = {key: [] for _, key in LATENCY_RUNS}
    try:
        asyncio.run(make_stream(broker.url))
        for number in range(passes):
            for _, key in LATENCY_RUNS:
                found[key].append(card_latency(folder, f"{key}-{number}", rounds, urls[key]))
    finally:
        broker.stop()
    return found


def latency_report(found: dict[str, list[Latencies]]) -> None:
    for what in ("taken", "durable"):
        moment = "taken by the table" if what == "taken" else "record durable, sinks offered"
        print(f"  card frame written -> {moment}:")
        pooled = {key: [v for run in runs for v in getattr(run, what)] for key, runs in found.items()}
        for label, key in LATENCY_RUNS:
            by_pass = " / ".join(f"{percentile(getattr(run, what), 0.99):.2f}" for run in found[key])
            print(f"    {figure_line(label, pooled[key])}; p99 by pass {by_pass} ms")
        base = percentile(pooled["without"], 0.99)
        print(
            f"    p99 with --pit up {percentile(pooled['up'], 0.99) / base:.2f}x, down "
            f"{percentile(pooled['down'], 0.99) / base:.2f}x the p99 without"
        )

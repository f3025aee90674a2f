"""DEVICES.md §6 bench commands: `devices monitor --wagers` and `sim wagers`, their lines and their refusals."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager

import pytest
from test_commands import Running, emulator, started

from dealer_assist.table.spots import BANK, Spot, SpotKind
from devices import commands as device_commands
from devices.kinds.events import (
    Distrust,
    FrameRejected,
    LinkChanged,
    ReadingsUntrusted,
    ScanCompleted,
    SpotCleared,
    SpotRead,
    SpotsListed,
    WagersFault,
    WagersHello,
)
from devices.wire.framing import RejectReason
from devices.wire.link import LinkState
from hw_sims import commands as sim_commands
from hw_sims.endpoints import InProcessEndpoint
from hw_sims.wagers import WagerEmulator

THREE = Spot(3, SpotKind.BASE)


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (
            WagersHello("V", "M", "S", "F", "1.3", "0BADF00D", "CASINO-1"),
            {
                "type": "hello",
                "vendor": "V",
                "model": "M",
                "serial": "S",
                "firmware": "F",
                "proto": "1.3",
                "boot": "0BADF00D",
                "casino": "CASINO-1",
            },
        ),
        (SpotsListed((THREE, BANK)), {"type": "spots", "spots": ["3.base", "pd.bank"]}),
        (SpotRead(THREE, 4, 10000, 0), {"type": "spot", "spot": "3.base", "chips": 4, "total": 10000, "alien": 0}),
        (
            ScanCompleted(0xA1, (SpotRead(THREE, 4, 10000, 0),), (BANK,)),
            {"type": "scanned", "request_seq": "00A1", "n": 1},
        ),
        (
            WagersFault("ANTENNA", THREE, "coil"),
            {"type": "fault", "source": "device", "code": "ANTENNA", "spot": "3.base", "text": "coil"},
        ),
        (
            WagersFault("POWER", None, ""),
            {"type": "fault", "source": "device", "code": "POWER", "spot": None, "text": ""},
        ),
        (SpotCleared(THREE), {"type": "clear", "spot": "3.base"}),
        (LinkChanged(LinkState.DOWN), {"type": "link", "state": "down"}),
        (FrameRejected(RejectReason.MALFORMED, "spot"), {"type": "rejected", "reason": "malformed"}),
        (ReadingsUntrusted(Distrust.OUTAGE), None),
    ],
)
def test_icd_6_each_event_has_its_monitor_line(event: object, line: dict[str, object] | None) -> None:
    assert device_commands.wagers_line(event) == line  # type: ignore[arg-type]


def error_of(capsys: pytest.CaptureFixture[str], code: int) -> dict[str, str]:
    assert code == 2
    return dict(json.loads(capsys.readouterr().out)["error"])


@pytest.mark.parametrize(
    ("args", "code", "named"),
    [
        (["--seats", "0"], "bad_seats", "--seats 0"),
        (["--spot", "9.base=500"], "bad_arguments", "9.base"),
        (["--spot", "pd.bank=500", "--no-bank"], "bad_arguments", "pd.bank"),
        (["--spot", "3.base=500,abc"], "bad_arguments", "'abc'"),
        (["--spot", "3.base=0"], "bad_arguments", "'0'"),
        (["--spot", "3.BASE=500"], "bad_arguments", "'BASE'"),
        (["--casino", "TWO WORDS"], "bad_arguments", "'TWO WORDS'"),
        (["--fault", "gremlins=0.1"], "bad_fault", "'gremlins=0.1'"),
    ],
)
def test_icd_6_sim_wagers_refuses_wrong_arguments_before_serving(
    capsys: pytest.CaptureFixture[str], args: list[str], code: str, named: str
) -> None:
    error = error_of(capsys, sim_commands.main(["wagers", "--pty", *args]))
    assert error["code"] == code and named in error["message"]


@pytest.mark.parametrize("args", [["monitor"], ["monitor", "--shoe", "x", "--wagers", "y"]])
def test_icd_6_monitor_takes_one_device(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    error = error_of(capsys, device_commands.main(args))
    assert error["code"] == "bad_arguments" and "--wagers" in error["message"]


@pytest.fixture
def idle_reader() -> Iterator[WagerEmulator]:
    """An emulator that is never started: its controls are checked where they are called."""
    reader = WagerEmulator(InProcessEndpoint("controls"), seats=3)
    yield reader
    reader.endpoint.close()


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("teleport 1.base", "'teleport 1.base'"),
        ("", "place SPOT CENTS"),
        ("place 1.base", "'place 1.base'"),
        ("place 1.base 5x0", "'5x0'"),
        ("place 1.base 0", "chip value 0"),
        ("add 4.base 500", "4.base"),
        ("add 1.bet 500", "'bet'"),
        ("remove 1.base 500", "no chip of 500"),
        ("alien 1.base", "'alien 1.base'"),
        ("clear 1.base", "no fault"),
        ("fault B\x07D 1.base", "'B\\x07D'"),
        ("fault ANTENNA", "'fault ANTENNA'"),
        ("cut now", "'cut now'"),
    ],
)
def test_icd_6_a_wrong_control_line_is_refused_by_name(idle_reader: WagerEmulator, line: str, named: str) -> None:
    with pytest.raises(ValueError) as caught:
        idle_reader.sim_command(line)
    assert named in str(caught.value)


def lines_of(command: Running, kind: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in command.lines if f'"type": "{kind}"' in line]


def watching(url: str) -> AbstractContextManager[Running]:
    return started("devices", "monitor", "--wagers", url)


@pytest.mark.slow
@pytest.mark.parametrize("where", [("--pty",), ("--tcp", "0")], ids=["pseudo-terminal", "tcp"])
def test_icd_6_monitor_prints_every_line_type_and_scans_at_start_after_a_cut_and_after_a_power_up(
    where: tuple[str, ...],
) -> None:
    options = ["--seats", "2", "--spot", "1.base=2500,500", "--casino", "RIVERSIDE", "--seed", "5"]
    options += ["--fault", "lrc=0.2"]
    controls = ["add 1.base 500", "alien 2.ll 2", "antenna 2.base", "fault POWER - low voltage", "clear 2.base"]
    with emulator("wagers", "--stdin", *options, where=where) as (sim, url), watching(url) as monitor:
        monitor.wait_for(lambda: len(lines_of(monitor, "scanned")) == 1, 20)
        for control in controls:
            sim.send(control)
        monitor.wait_for(lambda: len(lines_of(monitor, "spot")) == 12, 20)
        sim.send("cut")
        monitor.wait_for(lambda: len(lines_of(monitor, "scanned")) == 2, 20)
        sim.send("power")
        monitor.wait_for(lambda: len(lines_of(monitor, "scanned")) == 3, 20)
        monitor.wait_quiet(still=1.5, limit=10)
        injected = sim.stop()[-1]
        monitor.wait_for(lambda: len(lines_of(monitor, "link")) == 4, 20)  # the emulator has gone
        lines = monitor.stop()

    assert all(line["device"] == "wagers" and "type" in line for line in lines)
    assert {line["type"] for line in lines} == {
        "hello",
        "link",
        "spots",
        "spot",
        "scanned",
        "fault",
        "clear",
        "rejected",
        "stats",
    }
    hellos = [line for line in lines if line["type"] == "hello"]
    assert len(hellos) == 3 and {line["casino"] for line in hellos} == {"RIVERSIDE"}
    assert hellos[0]["boot"] == hellos[1]["boot"] != hellos[2]["boot"]  # a cut keeps the boot; a power-up does not
    assert [line["state"] for line in lines if line["type"] == "link"] == ["up", "down", "up", "down"]
    faults = [(line["code"], line["spot"]) for line in lines if line["type"] == "fault"]
    assert faults == [("ANTENNA", "2.base"), ("POWER", None)]
    changes = [line for line in lines if line["type"] in ("spot", "clear")][9:13]  # after the first scan
    assert changes == [  # the faults and the clear at once; the chips once they held still for 300 ms
        {"device": "wagers", "type": "clear", "spot": "2.base"},
        {"device": "wagers", "type": "spot", "spot": "2.base", "chips": 0, "total": 0, "alien": 0},
        {"device": "wagers", "type": "spot", "spot": "1.base", "chips": 3, "total": 3500, "alien": 0},
        {"device": "wagers", "type": "spot", "spot": "2.ll", "chips": 0, "total": 0, "alien": 2},
    ]

    kinds = [line["type"] for line in lines if line["type"] not in ("rejected", "fault", "clear")]
    scan = ["spots", *["spot"] * 9, "scanned"]
    after_start = ["hello", "link", *scan]
    assert kinds[: len(after_start)] == after_start
    down = kinds.index("link", 2)
    assert kinds[down : down + 3 + len(scan)] == ["link", "hello", "link", *scan]
    assert kinds[-len(scan) - 3 :] == ["hello", *scan, "link", "stats"]
    for scanned in [line for line in lines if line["type"] == "scanned"]:
        assert re.fullmatch("[0-9A-F]{4}", str(scanned["request_seq"])) and scanned["n"] == 9
    final = [line for line in lines if line["type"] == "spot"][-9:]
    assert {"device": "wagers", "type": "spot", "spot": "1.base", "chips": 3, "total": 3500, "alien": 0} in final
    assert {"device": "wagers", "type": "spot", "spot": "2.ll", "chips": 0, "total": 0, "alien": 2} in final
    assert lines[-1] == {
        "device": "wagers",
        "type": "stats",
        "accepted": injected["frames"],
        "rejected": injected["rejected"],
        "duplicates": injected["duplicates"],
    }
    assert injected["type"] == "sim_stats" and injected["disconnects"] == 1 and injected["rejected"] > 0
    assert sum(line["type"] == "rejected" for line in lines) == injected["rejected"]


@pytest.mark.slow
def test_icd_6_sim_wagers_answers_a_wrong_control_line_and_keeps_serving() -> None:
    with emulator("wagers", "--stdin", "--seats", "1") as (sim, url), watching(url) as monitor:
        monitor.wait_for(lambda: len(lines_of(monitor, "scanned")) == 1, 20)
        sim.send("place 5.base 500")
        sim.send("place 1.ins 500")
        monitor.wait_for(lambda: any('"1.ins", "chips": 1' in line for line in monitor.lines), 20)
        out = sim.stop()
        monitor.stop()
    assert out[0] == {"error": {"code": "bad_arguments", "message": "spot 5.base is not on this layout (5 spots)"}}
    assert out[-1]["type"] == "sim_stats"

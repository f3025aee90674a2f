"""`dealer-assist devices`: talk to one shoe scanner, peek device or wager reader from the bench (DEVICES.md §5, §6).

dealer-assist devices monitor --shoe URL      one JSON line per event until SIGINT/SIGTERM
dealer-assist devices monitor --wagers URL    the same for a wager reader, which is scanned as it comes up
dealer-assist devices peek --url URL --up A   one JSON line with the outcome, then exit
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import CommandCode, CommandError
from devices.cli_support import emit, emit_last, stop_on_signals
from devices.errors import DeviceCode
from devices.kinds.adapter import DeviceAdapter, EventSink
from devices.kinds.events import (
    CardSeen,
    CardsMissed,
    CardUnread,
    CutReached,
    DeviceEvent,
    DeviceFault,
    DeviceHello,
    FrameRejected,
    LidChanged,
    LinkChanged,
    LockChanged,
    ReadingsUntrusted,
    ScanCompleted,
    ShoeLoaded,
    SpotCleared,
    SpotRead,
    SpotsListed,
    WagersFault,
    WagersHello,
)
from devices.kinds.peek import PEEK_UP_RANKS, PeekReader
from devices.kinds.shoe import ShoeScanner
from devices.kinds.wagers import WagerReader

OPEN_WAIT = 10.0  # seconds to wait for the first attempt to open the port
LINK_WAIT = 2.0  # seconds to wait for the peek device's HELLO before asking anyway


def event_line(event: DeviceEvent) -> dict[str, object]:
    """The §5 line for one shoe event, without the `device` key."""
    match event:
        case LinkChanged(state=state):
            return {"type": "link", "state": state.value}
        case DeviceHello():
            fields = ("vendor", "model", "serial", "firmware", "proto", "boot")
            return {"type": "hello"} | {name: getattr(event, name) for name in fields}
        case ShoeLoaded(shoe_id=shoe_id, decks=decks):
            return {"type": "shoe", "shoe_id": shoe_id, "decks": decks}
        case CardSeen(n=n, card=card):
            return {"type": "card", "n": n, "card": str(card)}
        case CardUnread(n=n):
            return {"type": "noread", "n": n}
        case CutReached(n=n):
            return {"type": "cut", "n": n}
        case LidChanged(state=state) | LockChanged(state=state):
            return {"type": "lid" if isinstance(event, LidChanged) else "lock", "state": state.value.lower()}
        case DeviceFault(code=code, text=text):
            return {"type": "fault", "source": "device", "code": code, "text": text}
        case CardsMissed(first=first, last=last):
            return {"type": "fault", "source": "host", "code": "MISSED_CARD", "first": first, "last": last}
        case FrameRejected(reason=reason):
            return {"type": "rejected", "reason": reason.value}
    raise TypeError(f"no monitor line for {type(event).__name__}")


def wagers_line(event: DeviceEvent) -> dict[str, object] | None:
    """The §6 line for one wager reader event, without the `device` key; None for one §6 prints no line for."""
    match event:
        case WagersHello(casino=casino):
            return event_line(event) | {"casino": casino}
        case SpotsListed(spots=spots):
            return {"type": "spots", "spots": [str(spot) for spot in spots]}
        case SpotRead(spot=spot, chips=chips, total=total, alien=alien):
            return {"type": "spot", "spot": str(spot), "chips": chips, "total": total, "alien": alien}
        case ScanCompleted(request_seq=request_seq, spots=spots):
            return {"type": "scanned", "request_seq": f"{request_seq:04X}", "n": len(spots)}
        case WagersFault(code=code, spot=spot, text=text):
            where = None if spot is None else str(spot)
            return {"type": "fault", "source": "device", "code": code, "spot": where, "text": text}
        case SpotCleared(spot=spot):
            return {"type": "clear", "spot": str(spot)}
        case ReadingsUntrusted():
            return None  # the monitor's scan follows, and its lines say so
    return event_line(event)


Lines = Callable[[DeviceEvent], dict[str, object] | None]
MONITORED: dict[str, tuple[Callable[[str, EventSink], DeviceAdapter], Lines]] = {
    "shoe": (ShoeScanner, event_line),
    "wagers": (WagerReader, wagers_line),
}


def monitor(url: str, device: str = "shoe") -> int:
    adapter_class, line_of = MONITORED[device]

    def show(event: DeviceEvent) -> None:
        line = line_of(event)
        if line is not None:
            emit({"device": device} | line)  # once the reader has gone, events are dropped

    adapter = adapter_class(url, show)
    with stop_on_signals() as stop:
        adapter.start()
        error = adapter.wait_opened(OPEN_WAIT)
        if error is not None:
            adapter.stop()
            raise CommandError(DeviceCode.PORT_UNAVAILABLE, f"cannot open {url!r}: {error}")
        while not stop.wait(0.2):
            pass
        adapter.stop()
    stats = adapter.stats()
    emit_last(
        {
            "device": device,
            "type": "stats",
            "accepted": stats.accepted,
            "rejected": stats.rejected,
            "duplicates": stats.duplicates,
        }
    )
    return 0


def peek(url: str, up: str) -> int:
    rank = "T" if up == "10" else up.upper()
    if rank not in PEEK_UP_RANKS:
        raise CommandError(CommandCode.BAD_UP_CARD, f"--up {up!r} is not A or a ten-value rank (T, J, Q, K or 10)")
    reader = PeekReader(url)
    reader.start()
    try:
        error = reader.wait_opened(OPEN_WAIT)
        if error is not None:
            raise CommandError(DeviceCode.PORT_UNAVAILABLE, f"cannot open {url!r}: {error}")
        reader.wait_up(LINK_WAIT)
        outcome = reader.peek(rank)
    finally:
        reader.stop()
    emit({"device": "peek", "result": outcome.value})
    return 0


def main(argv: list[str]) -> int:
    return reporting(lambda: _devices(argv), Stream.STDOUT)


def _devices(argv: list[str]) -> int:
    parser = JsonArgumentParser(prog="dealer-assist devices", description="Talk to one device on the bench.")
    sub = parser.add_subparsers(dest="command", required=True)
    watch = sub.add_parser("monitor", help="print every event of a shoe scanner or a wager reader as JSON lines")
    which = watch.add_mutually_exclusive_group(required=True)
    which.add_argument("--shoe", metavar="URL", help="device path, pseudo-terminal or socket://")
    which.add_argument("--wagers", metavar="URL", help="a wager reader's device path, pseudo-terminal or socket://")
    ask = sub.add_parser("peek", help="ask the peek device once and print its answer")
    ask.add_argument("--url", required=True, metavar="URL", help="device path, pseudo-terminal or socket://")
    ask.add_argument("--up", required=True, metavar="RANK", help="the up card: A or a ten-value rank")
    args = parser.parse_args(argv)
    if args.command == "monitor":
        return monitor(args.shoe, "shoe") if args.shoe is not None else monitor(args.wagers, "wagers")
    return peek(args.url, args.up)

"""`dealer-assist sim`: serve an emulated shoe scanner, peek device or wager reader for the bench and tests.

    dealer-assist sim shoe [--pty | --tcp PORT] [--seed N] [--decks N | --cards AS,KD,...] [--pace S] ...
    dealer-assist sim peek [--pty | --tcp PORT] [--hole-card KS | --no-card] [--delay S] ...
    dealer-assist sim wagers [--pty | --tcp PORT] [--seats N] [--spot 3.base=2500,500 ...] [--stdin] ...

The first line printed is the URL to connect to. With `--stdin` the wager reader takes its controls
(`place 3.base 2500 500`, `antenna 3.base`, `power`, ...) as lines on standard input, and answers a
wrong one with a JSON error line. On SIGINT or SIGTERM the emulator stops and prints one JSON line of
what it sent and injected (`"type": "sim_stats"`), then exits 0.
"""

from __future__ import annotations

import argparse
import sys
import threading

from dealer_assist.commands.command_line import JsonArgumentParser, Stream, reporting
from dealer_assist.errors import CommandCode, CommandError
from dealer_assist.rules.cards import Card, parse_card
from dealer_assist.rules.refusals import Refusal, RuleError
from dealer_assist.table.spots import Spot, layout, parse_spot
from devices.cli_support import emit, stop_on_signals
from devices.errors import DeviceCode
from hw_sims.device import EmulatedDevice
from hw_sims.endpoints import Endpoint, PtyEndpoint, TcpEndpoint
from hw_sims.faults import RATED, FaultKind, parse_rates
from hw_sims.peek import PeekEmulator
from hw_sims.shoe import ShoeEmulator
from hw_sims.wagers import CASINO, CONTROLS, WagerEmulator


def _cards(text: str) -> list[Card]:
    try:
        return [parse_card(item) for item in text.replace(",", " ").split()]
    except RuleError as error:
        raise CommandError(Refusal.BAD_CARD, f"--cards: {error.message}") from None


def _endpoint(args: argparse.Namespace) -> Endpoint:
    if args.tcp is None:
        return PtyEndpoint()
    try:
        return TcpEndpoint(args.tcp)
    except OSError as error:
        raise CommandError(DeviceCode.PORT_UNAVAILABLE, f"--tcp {args.tcp}: {error.strerror}") from None


def _rates(args: argparse.Namespace) -> dict[FaultKind, float]:
    if not 0.0 <= args.faults <= 1.0:
        raise CommandError(CommandCode.BAD_FAULT, f"--faults {args.faults}: the rate must be between 0 and 1")
    rates: dict[FaultKind, float] = {kind: args.faults for kind in RATED} if args.faults else {}
    try:
        rates.update(parse_rates(args.fault))
    except ValueError as error:
        raise CommandError(CommandCode.BAD_FAULT, str(error)) from None
    return rates


def _hole_card(args: argparse.Namespace) -> Card | None:
    if args.no_card:
        return None
    try:
        return parse_card(args.hole_card)
    except RuleError:
        raise CommandError(Refusal.BAD_CARD, "--hole-card is not a card like KS or 10H") from None


def _spots(args: argparse.Namespace) -> dict[Spot, list[int]]:
    """`--spot 3.base=2500,500`: the chips (in cents) on a spot when the reader powers up."""
    return felt(args.spot, layout(args.seats, bank=not args.no_bank))


def felt(items: list[str], on_layout: tuple[Spot, ...]) -> dict[Spot, list[int]]:
    """`SPOT=CENTS,...` each: the chips on the spots named, each a spot of `on_layout`; a wrong one
    is a command-line error naming it."""
    contents: dict[Spot, list[int]] = {}
    for item in items:
        name, _, values = item.partition("=")
        try:
            spot = parse_spot(name)
            if spot not in on_layout:
                bank = " and a bank" if on_layout and on_layout[-1].seat is None else ""
                raise ValueError(f"spot {spot} is not on a layout of {max(s.seat or 0 for s in on_layout)} seats{bank}")
            contents[spot] = [_cents(value) for value in values.split(",")]
        except ValueError as error:
            raise CommandError(CommandCode.BAD_ARGUMENTS, f"--spot {item!r}: {error}") from None
    return contents


def _cents(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise ValueError(f"chip value {text!r} is not a positive number of cents")
    return int(text)


def _build(args: argparse.Namespace) -> EmulatedDevice:
    """Check every argument first, so a refusal never leaves a port or a terminal behind."""
    rates = _rates(args)
    if args.device == "wagers":
        if args.seats < 1:
            raise CommandError(Refusal.BAD_SEATS, f"--seats {args.seats}: a table has at least one seat")
        if not (args.casino.isascii() and args.casino.isprintable()) or len(args.casino.split()) != 1:
            raise CommandError(CommandCode.BAD_ARGUMENTS, f"--casino {args.casino!r} is not one printable word")
        contents = _spots(args)
        return WagerEmulator(
            _endpoint(args),
            seats=args.seats,
            bank=not args.no_bank,
            casino=args.casino,
            contents=contents,
            seed=args.seed,
            faults=rates,
        )
    if args.device == "peek":
        hole = _hole_card(args)
        return PeekEmulator(_endpoint(args), hole_card=hole, delay=args.delay, seed=args.seed, faults=rates)
    if args.decks < 1:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"--decks {args.decks}: a shoe holds at least one deck")
    cards = _cards(args.cards) if args.cards else None
    return ShoeEmulator(
        _endpoint(args),
        seed=args.seed,
        decks=args.decks,
        cards=cards,
        pace=args.pace,
        cut=args.cut,
        faults=rates,
        disconnects=args.disconnects,
        silences=args.silences,
    )


def _parser() -> JsonArgumentParser:
    parser = JsonArgumentParser(prog="dealer-assist sim", description="Serve an emulated device.")
    sub = parser.add_subparsers(dest="device", required=True)
    shoe = sub.add_parser("shoe", help="an emulated card shoe scanner")
    peek = sub.add_parser("peek", help="an emulated Natural-peek device")
    wagers = sub.add_parser("wagers", help="an emulated wager reader (RFID betting spots)")
    for device in (shoe, peek, wagers):
        where = device.add_mutually_exclusive_group()
        where.add_argument("--pty", action="store_true", help="serve on a pseudo-terminal (the default)")
        where.add_argument("--tcp", type=int, metavar="PORT", help="serve on 127.0.0.1:PORT (0 picks one)")
        device.add_argument("--seed", type=int, default=0, help="seeds the shuffle, the boot id and the faults")
        device.add_argument("--faults", type=float, default=0.0, metavar="RATE", help="every frame fault at RATE")
        device.add_argument(
            "--fault", action="append", default=[], metavar="NAME=RATE", help=f"one fault: {', '.join(RATED)}"
        )
    shoe.add_argument("--decks", type=int, default=6, help="decks in the shuffled shoe")
    shoe.add_argument("--cards", help="deal exactly these cards instead, e.g. AS,KD,7H")
    shoe.add_argument("--pace", type=float, default=0.5, help="seconds between cards")
    shoe.add_argument("--cut", type=int, help="the cut card comes after this many cards (default 3/4)")
    shoe.add_argument("--disconnects", type=int, default=0, help="drop the line this many times during the shoe")
    shoe.add_argument("--silences", type=int, default=0, help="fall silent for 3.5 s this many times")
    card = peek.add_mutually_exclusive_group()
    card.add_argument("--hole-card", default="2C", metavar="CARD", help="the player-dealer's hole card")
    card.add_argument("--no-card", action="store_true", help="no hole card on the reader (NOCARD)")
    peek.add_argument("--delay", type=float, default=0.05, help="seconds before the answer")
    wagers.add_argument("--seats", type=int, default=7, help="seats on the layout, each with base, ll, buster, ins")
    wagers.add_argument("--no-bank", action="store_true", help="the layout has no pd.bank spot")
    wagers.add_argument("--casino", default=CASINO, help="the casino id in the HELLO")
    wagers.add_argument(
        "--spot", action="append", default=[], metavar="SPOT=CENTS,...", help="chips at power-up, e.g. 3.base=2500,500"
    )
    wagers.add_argument("--stdin", action="store_true", help=f"controls from standard input: {'; '.join(CONTROLS)}")
    return parser


def _take_controls(device: WagerEmulator) -> None:
    """Each line of standard input is one control; a wrong one is answered with a JSON error line."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            device.sim_command(line)
        except ValueError as error:
            emit(CommandError(CommandCode.BAD_ARGUMENTS, str(error)).to_json())


def main(argv: list[str]) -> int:
    return reporting(lambda: _sim(argv), Stream.STDOUT)


def _sim(argv: list[str]) -> int:
    args = _parser().parse_args(argv)
    device = _build(args)
    with stop_on_signals() as stop:
        print(device.endpoint.url, flush=True)
        device.start()
        if isinstance(device, WagerEmulator) and args.stdin:
            threading.Thread(target=_take_controls, args=(device,), name="controls", daemon=True).start()
        while not stop.wait(0.2):
            pass
        device.stop()
    emit({"device": args.device, "type": "sim_stats"} | device.stats.to_json())
    return 0

"""The `dealer-assist` command: one dispatcher at the top of the layering.

Each subcommand lives beside the code it drives and is imported only when named, so
`dealer-assist settle` never loads Qt or OpenCV.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "settle": ("dealer_assist.commands.settle", "settle one round file and print its ledger"),
    "profiles": ("dealer_assist.commands.profiles", "list the rule profiles or show one"),
    "pin": ("dealer_assist.commands.pin", "set a table's supervisor PIN where it is set up, from standard input"),
    "journal": ("pit.shipping.journal_command", "verify, recall and export a table's journal; ship it to the pit"),
    "bench": ("hw_sims.bench_command", "play N rounds on a headless table into a journal"),
    "calibrate": ("calibration.commands", "calibrate the overhead camera from its four markers"),
    "devices": (
        "devices.commands",
        "watch the shoe scanner or the wager reader, or ask the peek device, as JSON lines",
    ),
    "sim": ("hw_sims.commands", "run an emulated shoe, peek device or wager reader on a pseudo-terminal or TCP port"),
    "analyze": (
        "dealer_assist.commands.analyze",
        "exact odds of the Buster and Lucky Lucky bets; Monte Carlo of whole rounds",
    ),
    "run": ("ui.shell.run_command", "open the dealer's touchscreen"),
    "pit": ("pit.commands", "the card room's pit service: init, table add, nats-config, user add, token add, serve"),
    "room": ("pit.trial.room", "a whole card room on this machine: broker, store, pit and N emulated tables"),
    "log": ("pit.tlog.log_command", "the room's public log: keygen"),
    "proof": ("pit.tlog.proof_command", "a round's proof from the room's public log: round, verify offline"),
    "witness": ("pit.tlog.witness.command", "a tlog-witness for the room's log: keygen, serve"),
}


def usage() -> str:
    width = max(len(name) for name in COMMANDS)
    lines = ["usage: dealer-assist COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] in {"-h", "--help"}:
        print(usage())
        return 0 if args else 2
    entry = COMMANDS.get(args[0])
    if entry is None:
        print(f"dealer-assist: unknown command {args[0]!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(entry[0])
    return int(module.main(args[1:]))


if __name__ == "__main__":
    sys.exit(main())

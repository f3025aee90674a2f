"""How every `dealer-assist` command reports a failure: one JSON object, `{"error": {"code",
"message"}}`, and an exit status, never argparse's usage text or a traceback.

A command prints its failure where its result would go: on stdout for the commands that print a
result (settle, profiles, journal, bench, calibrate, devices, sim, analyze, log), on stderr for the ones
that run a screen or a service and keep stdout for what they serve (run, pit, room, witness). The commands
of ROUND-FILE.md's kind (settle, profiles, journal, analyze) name the rule too, `"rule"`, null when
the failure breaks none.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from enum import StrEnum
from typing import NoReturn

from dealer_assist.errors import CommandCode, CommandError, Failure

__all__ = ["JsonArgumentParser", "Stream", "report", "reporting"]


class Stream(StrEnum):
    STDOUT = "stdout"
    STDERR = "stderr"


class JsonArgumentParser(argparse.ArgumentParser):
    """argparse that refuses a wrong command line as a `CommandError` (its subcommands' parsers are
    of its class too, as argparse makes them)."""

    def error(self, message: str) -> NoReturn:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"{self.prog}: {message}")


def error_json(failure: Failure, rule: bool = False) -> dict[str, dict[str, object]]:
    """The failure's JSON object; with `rule`, the rule it breaks (null when none)."""
    shown = failure.to_json()
    if rule:
        shown["error"].setdefault("rule", getattr(failure, "rule", None))
    else:
        shown["error"].pop("rule", None)
    return shown


def report(failure: Failure, stream: Stream, rule: bool = False, **extra: object) -> int:
    """Print the failure (with `extra` fields beside "error") where the command's stream is; its exit status."""
    print(
        json.dumps(error_json(failure, rule) | extra),
        file=sys.stdout if stream is Stream.STDOUT else sys.stderr,
        flush=True,
    )
    return failure.exit_code


def reporting(body: Callable[[], int], stream: Stream, rule: bool = False) -> int:
    """Run a command's `body`; a failure it stops on is reported on `stream` and sets the exit status."""
    try:
        return body()
    except Failure as failure:
        return report(failure, stream, rule)

"""Every failure a person or a program is told of: a stable code, a message a person can act on,
and the exit status of a command that stops on it.

`Failure` is the neutral base. Each layer names its own codes and its own error class beneath it:
the rules' refusals (`rules.refusals`), the journal's (`journal.errors`), the devices', the camera
calibration's and the card room's; here are the command line's, which every command shares. A
code's value is what is journaled and printed (ROUND-FILE.md, DEVICES.md, PIT.md), so a program
checks `code` and a person reads `message`.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["CommandCode", "CommandError", "Failure"]


class Failure(Exception):
    """A failure with its code (a member of its layer's StrEnum) and a message a person can act on."""

    def __init__(self, code: StrEnum, message: str, exit_code: int = 2) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.exit_code = exit_code  # what a command that stops on it exits with

    def to_json(self) -> dict[str, dict[str, object]]:
        return {"error": {"code": self.code.value, "message": self.message}}


class CommandCode(StrEnum):
    """A command line refused before the command could act."""

    BAD_ARGUMENTS = "bad_arguments"
    FILE_EXISTS = "file_exists"
    MALFORMED_JSON = "malformed_json"
    UNREADABLE_FILE = "unreadable_file"
    CANNOT_WRITE = "cannot_write"
    BAD_WAGER = "bad_wager"
    BAD_PLAYERS = "bad_players"
    BAD_ROUNDS = "bad_rounds"
    BAD_DECKS = "bad_decks"
    BAD_UP_CARD = "bad_up_card"
    BAD_FAULT = "bad_fault"
    BAD_TABLE_FILE = "bad_table_file"  # a table file that cannot be read, or has a key no table file has


class CommandError(Failure):
    """A command's arguments, or what it needs from the machine, refused before it acts."""

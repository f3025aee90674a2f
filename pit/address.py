"""HOST:PORT, as every listener of the card room is given it (`pit serve --http`, `room --http`): one
reading, and one refusal that names the option it came in."""

from __future__ import annotations

from typing import NamedTuple

from dealer_assist.errors import CommandCode, CommandError

__all__ = ["Address", "parse_address"]


class Address(NamedTuple):
    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_address(text: str, option: str = "--http") -> Address:
    """'0.0.0.0:8080' -> Address('0.0.0.0', 8080); '[::1]:8080' for IPv6. `option` is where the text
    came from, named when it is refused."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(CommandCode.BAD_ARGUMENTS, f"{option} {text!r}: use HOST:PORT, such as 0.0.0.0:8080")
    return Address(host, int(port))

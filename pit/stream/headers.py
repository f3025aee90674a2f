"""The broker client that ingest reads the stream with: nats.py's own, reading message headers faster.

nats.py reads each header name one character at a time in Python to refuse names with whitespace
in them; every record message has a header (its `Nats-Msg-Id`), and that check alone was about a
fifteenth of ingest's time in a profile. This reads the same headers by the same rules with one string method.
"""
from __future__ import annotations

from nats.aio.client import Client


class FastHeaderClient(Client):
    @staticmethod
    def _parse_header_lines(raw: bytes) -> dict[str, str]:
        """`Name: Value` per line; a line without a colon, a name that is not ASCII or that has
        whitespace inside it is skipped, as nats.py does."""
        out: dict[str, str] = {}
        for line in raw.split(b"\r\n"):
            name, sep, value = line.partition(b":")
            if not sep:
                continue
            try:
                key = name.strip().decode("ascii")
            except UnicodeDecodeError:
                continue
            if key and key.split() != [key]:  # whitespace inside, by str.isspace's rules
                continue
            out[key] = value.strip().decode("utf-8", "replace")
        return out

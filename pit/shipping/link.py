"""Where a table's pit is and who the table is to it: `--pit URL[,URL...]` and `--pit-creds FILE`.

Checked once at start, so a table with a mistyped pit refuses to start with the reason rather
than dealing on while it silently ships nowhere.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from nats.aio.client import Client

from pit.errors import PitCode, PitError
from pit.stream.broker import inbox_prefix, read_creds
from pit.stream.wire import check_table_id

__all__ = ["add_pit_options", "pit_link"]

SCHEMES = ("nats", "tls")
CONNECT_TIMEOUT_S = 2.0
CLOSE_TIMEOUT_S = 1.0


class PitLinkError(PitError):
    """A pit URL or credentials file that cannot be used; the text names which and why."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.BAD_PIT, message)


@dataclass(frozen=True, slots=True)
class PitLink:
    """The broker's URLs (several for a cluster) and the table's NKEY seed."""

    urls: tuple[str, ...]
    seed: str

    @classmethod
    def of(cls, urls: str, creds: Path | str | None) -> PitLink:
        found = tuple(url.strip() for url in urls.split(",") if url.strip())
        if not found:
            raise PitLinkError(f"--pit {urls!r}: no broker URL (nats://HOST:PORT or tls://HOST:PORT)")
        for url in found:
            parts = urlsplit(url)
            if parts.scheme not in SCHEMES or not parts.hostname:
                raise PitLinkError(f"--pit {url!r}: a broker URL is nats://HOST:PORT or tls://HOST:PORT")
            try:
                _ = parts.port  # urllib checks the port only when it is read
            except ValueError:
                raise PitLinkError(f"--pit {url!r}: the port is not a number from 1 to 65535") from None
        if creds is None:
            raise PitLinkError(
                "--pit needs --pit-creds FILE: the table's credentials from `dealer-assist pit table add`"
            )
        try:
            text = Path(creds).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PitLinkError(f"--pit-creds {creds}: cannot be read ({error})") from None
        try:
            seed = read_creds(text)
        except ValueError as error:
            raise PitLinkError(f"--pit-creds {creds}: {error}") from None
        return cls(found, seed)

    async def connect(
        self,
        table_id: str,
        error_cb: Callable[[Exception], Awaitable[None]],
        disconnected_cb: Callable[[], Awaitable[None]],
        attempt: int = 0,
    ) -> Client:
        """One connection, without the client's own reconnecting: after a loss the caller opens a new
        one and asks the broker where its journal stands, so nothing buffered in a dead connection
        can reach the stream after the records it should follow. Each URL is tried at most twice
        (attempt n starts from the n-th); the caller's back-off paces the next try."""
        first = attempt % len(self.urls)
        client = Client()
        options: dict[str, Any] = {
            "servers": list(self.urls[first:] + self.urls[:first]),
            "dont_randomize": True,
            "nkeys_seed_str": self.seed,
            "inbox_prefix": inbox_prefix(check_table_id(table_id)),
            "allow_reconnect": False,
            "max_reconnect_attempts": 1,
            "reconnect_time_wait": 0.1,
            "connect_timeout": CONNECT_TIMEOUT_S,
            "error_cb": error_cb,
            "disconnected_cb": disconnected_cb,
            "closed_cb": disconnected_cb,
            "name": f"dealer-assist table {table_id}",
        }
        try:
            await client.connect(**options)
        except BaseException:
            await quietly_close(client)
            raise
        return client


async def quietly_close(client: Client) -> None:
    """Close a connection that may already be dead, within CLOSE_TIMEOUT_S; what it fails with no
    longer matters."""
    try:
        await asyncio.wait_for(client.close(), CLOSE_TIMEOUT_S)
    except Exception:  # the connection is being dropped either way
        pass


def add_pit_options(parser: argparse.ArgumentParser) -> None:
    """`--pit URL` and `--pit-creds FILE`, the same on `run` and `bench` (PIT.md §2)."""
    parser.add_argument(
        "--pit",
        metavar="URL",
        help="ship the journal to the card room's broker: nats://HOST:PORT or tls://HOST:PORT, several comma-separated",
    )
    parser.add_argument("--pit-creds", metavar="FILE", help="the table's credentials (dealer-assist pit table add)")


def pit_link(url: str | None, creds: str | None, table_file: dict[str, Any] | None = None) -> PitLink | None:
    """The link the options (or the table file's `[pit]` url and creds) name, None for no pit."""
    section = (table_file or {}).get("pit", {})
    if not isinstance(section, dict) or set(section) - {"url", "creds"}:
        raise PitLinkError("the table file's [pit] has two keys: url and creds")
    url, creds = url or section.get("url"), creds or section.get("creds")
    if url is None:
        if creds is not None:
            raise PitLinkError("--pit-creds needs --pit URL")
        return None
    return PitLink.of(str(url), creds)

"""The table's shipper: its journal's records to the pit's stream, and its status, beside the table.

It runs on a thread of its own with its own asyncio loop. The table hands it each durable record
through a record sink (`offer`), which only notes the journal's new head and wakes the thread: it
never blocks and never raises into the table. What to send is always read from the journal file,
from the record after the last one the broker says it holds, after a start, a lost connection or
any failure (or from the first record this shipper sent and did not see acknowledged, if that is
earlier); a failure is retried with back-off, for as long as it takes. A journal behind the
stream is a divergence: shipping stops for good (until the table restarts) and the status says so.
"""
from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

from nats.aio.client import Client

from dealer_assist.journal.journal_file import Record, Sink, last_seq, record_at
from pit.shipping.link import PitLink, quietly_close
from pit.shipping.outbox import Divergence, journal_of, position, ship_from
from pit.shipping.table_view import StatusSource, TableView
from pit.stream.wire import STATUS_EVERY_S, StatusMessage, check_table_id

log = logging.getLogger(__name__)
BACKOFF_FIRST_S = 0.2
BACKOFF_MAX_S = 5.0
STATUS_MIN_GAP_S = 0.1  # a status that changed goes out at once, but at most this often
API_TIMEOUT_S = 2.0


@dataclass(frozen=True, slots=True)
class LinkState:
    """What the shipper knows of the link; `shipped` is the seq up to which the stream holds every
    record, as the broker acknowledged or reported it, `head` the journal's last seq."""

    up: bool = False
    shipped: int = 0
    head: int = 0
    error: str | None = None  # why the link is down
    divergence: str | None = None  # the journal is behind the stream: nothing more is shipped

    @property
    def to_ship(self) -> int:
        return max(0, self.head - self.shipped)


def link_text(state: LinkState) -> str:
    """The dealer's status line: "pit: up" / "pit: down · 312 to send"."""
    if state.divergence is not None:
        return "pit: stopped · journal behind the pit, call the floor supervisor"
    backlog = f" · {state.to_ship} to send" if state.to_ship else ""
    return f"pit: {'up' if state.up else 'down'}{backlog}"


LinkListener = Callable[[str, bool], None]  # the link's words for the dealer's status line, and whether it is up


class Shipper:
    def __init__(self, path: Path | str, table_id: str, link: PitLink, status: StatusSource | None = None,
                 on_link: LinkListener | None = None) -> None:
        self.path = Path(path)
        self.table_id = check_table_id(table_id)
        self.link = link
        self.status_source = status
        self._state = LinkState()
        self._asked = False  # the broker has said where the journal stands: `shipped` is known from then on
        self._head = 0
        self._on_link = on_link
        self._told: str | None = None
        self._telling = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._main, name=f"pit shipper {table_id}", daemon=True)

    # --- the table's side: never blocks --------------------------------------------------------

    def offer(self, record: Record) -> None:
        """The record sink: a durable record is on the file; ship it when the link allows."""
        self._head = max(self._head, record.seq)
        self._tell()
        self._poke()

    @property
    def state(self) -> LinkState:
        return replace(self._state, head=max(self._head, self._state.head))

    def link_text(self) -> str:
        return link_text(self.state)

    # --- lifetime ----------------------------------------------------------------------------------

    def start(self) -> Shipper:
        self._thread.start()
        self._ready.wait(5.0)
        return self

    def stop(self, drain_s: float = 0.0) -> None:
        """Stop shipping; first wait up to `drain_s` for the stream to hold every record."""
        if not self._thread.is_alive():
            return
        deadline = time.monotonic() + drain_s
        while time.monotonic() < deadline and self._thread.is_alive():
            state = self.state
            if state.divergence is not None or (state.up and state.to_ship == 0):
                break
            time.sleep(0.02)
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:  # the loop has already ended
                pass
        self._thread.join(10.0)

    def wait_shipped(self, seq: int, timeout: float) -> bool:
        """True once the stream holds record `seq` (for tests and a table's clean exit)."""
        deadline = time.monotonic() + timeout
        while self.state.shipped < seq:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def _poke(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is None or wake is None:
            return
        try:
            loop.call_soon_threadsafe(wake.set)
        except RuntimeError:  # the shipper has stopped; the record stays in the journal for the next one
            pass

    def _set(self, **changes: object) -> None:
        self._state = replace(self._state, **changes)  # type: ignore[arg-type]
        self._tell()

    def _tell(self) -> None:
        """The status line hears the link's words when they change (from either thread)."""
        if self._on_link is None:
            return
        with self._telling:
            state = self.state
            text = link_text(state)
            if text == self._told:
                return
            self._told = text
        self._on_link(text, state.up and state.divergence is None)

    # --- the shipper's thread --------------------------------------------------------------------

    def _main(self) -> None:
        try:
            asyncio.run(self._run())
        except Exception:  # the table must deal on whatever happens here; the status line shows "down"
            log.exception("%s: the pit shipper stopped", self.path)
            self._set(up=False, error="the shipper stopped on an error (see the log)")

    async def _run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._wake, self._stopping = asyncio.Event(), asyncio.Event()
        self._ready.set()
        self._set(head=last_seq(self.path))
        backoff, attempt = BACKOFF_FIRST_S, 0
        while not self._stopping.is_set():
            if await self._session(attempt):
                backoff = BACKOFF_FIRST_S
            await self._pause(backoff)
            backoff, attempt = min(backoff * 2, BACKOFF_MAX_S), attempt + 1

    async def _session(self, attempt: int) -> bool:
        """One connection, from the broker's answer to its loss; True when the broker answered where
        the journal stands (the back-off starts again from its shortest)."""
        assert self._stopping is not None and self._wake is not None
        lost = asyncio.Event()
        errors: list[str] = []

        async def on_error(error: Exception) -> None:
            errors.append(str(error) or type(error).__name__)

        async def on_lost() -> None:
            lost.set()
            self._wake_up()

        client: Client | None = None
        reached = False
        try:
            client = await self.link.connect(self.table_id, on_error, on_lost, attempt)
            js = client.jetstream(timeout=API_TIMEOUT_S)
            journal = await self._journal()
            if journal is None:
                return reached
            shipped = self._state.shipped
            if self._state.divergence is None:
                try:
                    held = await position(js, self.table_id, journal, self.path)
                    # Never on from past a record sent and not seen acknowledged: the stream may have
                    # refused it (no leader) and stored later ones of its window. Those go again and
                    # are dropped on their Nats-Msg-Id; it is stored after them, and the pit's ingest
                    # holds them until it comes (a record is witnessed only on its predecessor).
                    shipped = min(held, shipped) if self._asked else held
                    self._asked = True
                except Divergence as divergence:
                    log.error("%s: %s", self.path, divergence)
                    self._set(divergence=str(divergence))
            reached = True
            self._set(up=True, error=None, shipped=shipped)
            last_status: tuple[float, StatusMessage | None] = (0.0, None)
            while not self._stopping.is_set() and not lost.is_set():
                self._wake.clear()
                if self._state.divergence is None:
                    shipped = await ship_from(js, self.table_id, journal, self.path, shipped, lost,
                                              lambda seq: self._set(shipped=seq))
                last_status, wait = await self._status(client, journal, last_status)
                if not self._wake.is_set():
                    await self._wait_for(self._wake, wait)
            if lost.is_set():
                raise ConnectionError("the connection to the broker dropped")
            await self._status(client, journal, (0.0, None))  # the last word before stopping
        except Exception as error:
            reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
            if errors:
                reason += f" ({errors[-1]})"
            if reason != self._state.error:  # once per cause, not once per retry
                log.warning("%s: pit link down: %s", self.path, reason)
            self._set(up=False, error=reason)
        finally:
            if client is not None:
                await quietly_close(client)
        return reached

    async def _journal(self) -> str | None:
        """The journal's identity, waiting for its first record if the file has none yet."""
        assert self._stopping is not None and self._wake is not None
        while (journal := journal_of(self.path)) is None and not self._stopping.is_set():
            await self._wait_for(self._wake, STATUS_EVERY_S)
            self._wake.clear()
        return journal

    async def _status(self, client: Client, journal: str,
                      last: tuple[float, StatusMessage | None]) -> tuple[tuple[float, StatusMessage | None], float]:
        """Send the status when it changed (at most every STATUS_MIN_GAP_S) or is due; returns what
        was last sent and how long until the next is due."""
        sent_at, previous = last
        message = self._status_message(journal)
        now = time.monotonic()
        changed = previous is None or replace(previous, sent="") != replace(message, sent="")
        if now - sent_at >= STATUS_EVERY_S or (changed and now - sent_at >= STATUS_MIN_GAP_S):
            await client.publish(message.subject, message.encode())
            return (now, message), STATUS_EVERY_S
        return last, STATUS_MIN_GAP_S if changed else sent_at + STATUS_EVERY_S - now

    def _status_message(self, journal: str) -> StatusMessage:
        """The status, stamped before the head is read: every record it does not count was made
        durable after its stamp (the pit orders the two by the table's clock, PIT.md §4)."""
        sent = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        state = self.state
        view = None
        if self.status_source is not None:
            try:
                view = self.status_source()
            except Exception:  # a view read mid-change; the next status corrects it
                log.debug("%s: the table's status could not be read", self.path, exc_info=True)
        view = view or self._header_view()
        return StatusMessage(self.table_id, journal, view.profile, view.round_id, view.phase, view.player_dealer,
                             view.devices, state.head, state.to_ship, sent, state.divergence)

    def _header_view(self) -> TableView:
        header = record_at(self.path, 1).body
        return TableView(str(header.get("profile", {}).get("id", "")), None, "unknown")

    def _wake_up(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def _wait_for(self, event: asyncio.Event, timeout: float) -> None:
        assert self._stopping is not None
        waits = [asyncio.ensure_future(event.wait()), asyncio.ensure_future(self._stopping.wait())]
        try:
            await asyncio.wait(waits, timeout=max(0.0, timeout), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def _pause(self, seconds: float) -> None:
        assert self._stopping is not None
        try:
            await asyncio.wait_for(self._stopping.wait(), seconds)
        except asyncio.TimeoutError:
            pass


def attach_shipper(journal: Path, add_sink: Callable[[Sink], None], table_id: str, link: PitLink,
                   status: StatusSource | None = None, on_link: LinkListener | None = None) -> Shipper:
    """Ship the journal at `journal` from now on, hearing each new record through `add_sink`: the
    table's owner calls this once after opening its table."""
    shipper = Shipper(journal, table_id, link, status, on_link).start()
    add_sink(shipper.offer)
    return shipper

"""The table's shipper: its journal's records to the pit's stream, and its status, beside the table.

It runs on a thread of its own with its own asyncio loop. The table hands it each durable record
through a record sink (`offer`), which only notes the journal's new head and wakes the thread: it
never blocks and never raises into the table. What to send is always read from the journal file:
after a start, a lost connection, any failure, or the pit's resend request, the broker is asked
which records of the journal the stream holds, and the missing ones go first (gaps included), then
the records after its highest; a failure is retried with back-off, for as long as it takes. A
broker that is reached but stores nothing is "cannot store", steadily, and still hears the status.
A journal behind the stream is a divergence: shipping stops for good (until the table restarts)
and the status says so.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path

from nats.aio.client import Client
from nats.aio.msg import Msg

from dealer_assist.journal.journal_file import Record, Sink, last_seq, record_at
from pit.shipping.link import PitLink, quietly_close
from pit.shipping.outbox import (
    Divergence,
    Refused,
    fill,
    holding,
    journal_of,
    ship_from,
)
from pit.shipping.table_view import StatusSource, TableView
from pit.stream.wire import (
    STATUS_EVERY_S,
    ResendRequest,
    StatusMessage,
    WireError,
    check_table_id,
    resend_subject,
)

__all__ = ["Shipper", "attach_shipper"]

log = logging.getLogger(__name__)
BACKOFF_FIRST_S = 0.2
BACKOFF_MAX_S = 5.0
STATUS_MIN_GAP_S = 0.1  # a status that changed goes out at once, but at most this often
API_TIMEOUT_S = 2.0
STOP_GRACE_S = 0.5  # at stop, how long a session may take to send its last status before it is cut
STOP_JOIN_S = 2.0


@dataclass(frozen=True, slots=True)
class LinkState:
    """What the shipper knows of the link; `shipped` is the seq up to which the stream holds every
    record, as the broker acknowledged or reported it, `head` the journal's last seq."""

    up: bool = False
    shipped: int = 0
    head: int = 0
    error: str | None = None  # why the link is down
    divergence: str | None = None  # the journal is behind the stream: nothing more is shipped
    refused: str | None = None  # the broker is reached but stores nothing: why

    @property
    def to_ship(self) -> int:
        return max(0, self.head - self.shipped)


def link_text(state: LinkState) -> str:
    """The dealer's status line: "pit: up" / "pit: down · 312 to send" / "pit: cannot store · 312 to send"."""
    if state.divergence is not None:
        return "pit: stopped · journal behind the pit, call the floor supervisor"
    if state.refused is not None:
        return f"pit: cannot store · {state.to_ship} to send"
    backlog = f" · {state.to_ship} to send" if state.to_ship else ""
    return f"pit: {'up' if state.up else 'down'}{backlog}"


LinkListener = Callable[[str, bool], None]  # the link's words for the dealer's status line, and whether it is up


class Shipper:
    def __init__(
        self,
        path: Path | str,
        table_id: str,
        link: PitLink,
        status: StatusSource | None = None,
        on_link: LinkListener | None = None,
    ) -> None:
        self.path = Path(path)
        self.table_id = check_table_id(table_id)
        self.link = link
        self.status_source = status
        self._state = LinkState()
        self._resend = False  # the pit asked for records again: look at what the stream holds
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

    def stop(self, drain_s: float = 0.0, interrupt: threading.Event | None = None, cut_s: float = 1.5) -> None:
        """Stop shipping; first wait up to `drain_s` for the stream to hold every record, or up to
        `cut_s` once `interrupt` is set (Ctrl-C). Whatever the broker does, this returns within
        that wait plus STOP_GRACE_S and a close."""
        if not self._thread.is_alive():
            return
        deadline = time.monotonic() + drain_s
        while time.monotonic() < deadline and self._thread.is_alive():
            state = self.state
            if state.divergence is not None or (state.up and state.to_ship == 0):
                break
            if interrupt is not None and interrupt.is_set():
                deadline = min(deadline, time.monotonic() + cut_s)
                interrupt = None
            time.sleep(0.02)
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:  # the loop has already ended
                pass
        self._thread.join(STOP_JOIN_S)

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
        self._on_link(text, state.up and state.divergence is None and state.refused is None)

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
            session = asyncio.ensure_future(self._session(attempt))
            await self._wait_for(session, None)
            if not session.done():  # stopping: a moment for the last status, then the session is cut
                await asyncio.wait({session}, timeout=STOP_GRACE_S)
                session.cancel()
                await asyncio.wait({session})
                return
            if session.result():
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
        journal: str | None = None
        try:
            client = await self.link.connect(self.table_id, on_error, on_lost, attempt)
            journal = await self._journal()
            if journal is None:
                return reached
            await client.subscribe(resend_subject(self.table_id), cb=self._resend_asked(journal))
            self._set(up=True, error=None)
            reached = True
            last_status: tuple[float, StatusMessage | None] = (0.0, None)
            self._resend = True  # a session starts by looking at what the stream holds
            while not self._stopping.is_set() and not lost.is_set():
                self._wake.clear()
                last_status, wait = await self._status(client, journal, last_status)  # before a slow refusal
                if self._state.divergence is None:
                    await self._ship(client, journal, lost)
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
            if reason != (self._state.refused or self._state.error):  # once per cause, not once per retry
                log.warning(
                    "%s: pit link %s: %s", self.path, "cannot store" if isinstance(error, Refused) else "down", reason
                )
            if isinstance(error, Refused) and client is not None and journal is not None:
                # reached, yet nothing is stored: the floor hears so from the status, and the dealer's
                # line says "cannot store" until a record is acknowledged, not "up" and "down" by turns
                self._set(up=True, refused=reason, error=None)
                await self._status(client, journal, (0.0, None))
                reached = False  # the back-off grows while the broker refuses
            else:
                self._set(up=False, error=reason, refused=None)
        finally:
            if client is not None:
                await quietly_close(client)
        return reached

    async def _ship(self, client: Client, journal: str, lost: asyncio.Event) -> None:
        """The records the stream lacks: after a start or a resend request, the gaps below its highest
        record (found from the broker), then every record after what it holds."""
        js = client.jetstream(timeout=API_TIMEOUT_S)
        shipped = self._state.shipped
        if self._resend:
            self._resend = False
            try:
                held = await holding(client, self.table_id, journal, self.path)
            except Divergence as divergence:
                log.error("%s: %s", self.path, divergence)
                self._set(divergence=str(divergence))
                return
            self._set(shipped=held.first_missing - 1)
            if held.missing:
                log.info(
                    "%s: the stream lacks %d records from seq %d: sending them again",
                    self.path,
                    len(held.missing),
                    held.first_missing,
                )
                await fill(js, self.table_id, journal, self.path, held.missing, lost)
                self._set(refused=None)
            shipped = held.top
            self._set(shipped=shipped)
        await ship_from(js, self.table_id, journal, self.path, shipped, lost, self._acked)

    def _acked(self, seq: int) -> None:
        self._set(shipped=seq, refused=None)

    def _resend_asked(self, journal: str) -> Callable[[Msg], Awaitable[None]]:
        """The pit's resend request for this journal: look again at what the stream holds, and fill it."""

        async def asked(message: Msg) -> None:
            try:
                request = ResendRequest.from_json(message.data)
            except WireError as error:
                log.warning("%s: a resend request was not understood: %s", self.path, error)
                return
            if request.journal == journal:
                log.info("%s: the pit asks for records from seq %d", self.path, request.from_seq)
                self._resend = True
                self._wake_up()

        return asked

    async def _journal(self) -> str | None:
        """The journal's identity, waiting for its first record if the file has none yet."""
        assert self._stopping is not None and self._wake is not None
        while (journal := journal_of(self.path)) is None and not self._stopping.is_set():
            await self._wait_for(self._wake, STATUS_EVERY_S)
            self._wake.clear()
        return journal

    async def _status(
        self, client: Client, journal: str, last: tuple[float, StatusMessage | None]
    ) -> tuple[tuple[float, StatusMessage | None], float]:
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
        sent = datetime.now(UTC).isoformat(timespec="milliseconds")
        state = self.state
        view = None
        if self.status_source is not None:
            try:
                view = self.status_source()
            except Exception:  # a view read mid-change; the next status corrects it
                log.debug("%s: the table's status could not be read", self.path, exc_info=True)
        view = view or self._header_view()
        return StatusMessage(
            self.table_id,
            journal,
            view.profile,
            view.round_id,
            view.phase,
            view.player_dealer,
            view.devices,
            state.head,
            state.to_ship,
            sent,
            state.divergence,
            state.refused,
        )

    def _header_view(self) -> TableView:
        header = record_at(self.path, 1).body
        return TableView(str(header.get("profile", {}).get("id", "")), None, "unknown")

    def _wake_up(self) -> None:
        if self._wake is not None:
            self._wake.set()

    async def _wait_for(self, event: asyncio.Event | asyncio.Future[bool], timeout: float | None) -> None:
        """Until `event` is set (or done), stopping begins, or `timeout` passes."""
        assert self._stopping is not None
        waited = asyncio.ensure_future(event.wait()) if isinstance(event, asyncio.Event) else event
        stopping = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait(
                {waited, stopping},
                timeout=None if timeout is None else max(0.0, timeout),
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            stopping.cancel()
            if waited is not event:
                waited.cancel()

    async def _pause(self, seconds: float) -> None:
        assert self._stopping is not None
        try:
            await asyncio.wait_for(self._stopping.wait(), seconds)
        except TimeoutError:
            pass


def attach_shipper(
    journal: Path,
    add_sink: Callable[[Sink], None],
    table_id: str,
    link: PitLink,
    status: StatusSource | None = None,
    on_link: LinkListener | None = None,
) -> Shipper:
    """Ship the journal at `journal` from now on, hearing each new record through `add_sink`: the
    table's owner calls this once after opening its table."""
    shipper = Shipper(journal, table_id, link, status, on_link).start()
    add_sink(shipper.offer)
    return shipper

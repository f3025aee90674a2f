"""One owner of a running table, without Qt: every input goes through it, on one thread.

The controller holds the journaled `Table` and takes every input: device events, the dealer's
taps, the supervisor's corrections and PIN operations. After each one it keeps the devices in step
(the shoe's card-stop, a peek request when the round needs one), and it publishes a snapshot.
It keeps what the dealer must look at: a refusal until the next accepted input, a device's report
until the dealer acknowledges it, and a stopped journal for good. The camera check runs beside it.

Reader threads never touch the table: `deliver`, `report` and the camera hand their items to
`post`, which runs them on the owner thread. Headless, the owner is whoever calls `pump`; on the
screen the Qt bridge installs a `post` that hops to the GUI thread (`run_on`).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

from dealer_assist.errors import Failure
from dealer_assist.history.supervisor_snapshot import SupervisorSnapshot, build_supervisor_snapshot
from dealer_assist.journal.errors import JournalCode, JournalDamaged, JournalError
from dealer_assist.journal.journal_file import Sink
from dealer_assist.journal.lock import Holder
from dealer_assist.journal.record_source import RecordSource, SqliteRecords
from dealer_assist.rules.inputs import CardDrawn, NoMoreBets, PaymentsMade, PeekAnswered, PeekResult
from dealer_assist.rules.operations import HoldReason
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.profile import PayoutCheck, Profile
from dealer_assist.table import reader_faults
from dealer_assist.table.device_state import Condition, Device, DeviceState
from dealer_assist.table.journaled_table import Table, TableStopped
from dealer_assist.table.pins import PinSetter, bench_pin
from dealer_assist.table.roster import DEALERS_FILE, read_roster
from dealer_assist.table.session import TableConfig, TableInput
from dealer_assist.table.session_inputs import (
    CardsUnread,
    ReaderSpots,
    ScanFor,
    SettlementConfirmed,
    SpotReading,
    SpotsScanned,
)
from dealer_assist.table.session_operations import ReaderBackDiffers, TableOperation
from dealer_assist.table.snapshot import Attention, AttentionKind, TableSnapshot, build_table_snapshot
from dealer_assist.table.table_facts import TableFacts, table_facts
from dealer_assist.text.reader_words import reader_back, reader_light
from dealer_assist.text.record_words import money_text
from devices.kinds.peek import PeekReader
from devices.kinds.shoe import ShoeScanner
from devices.kinds.wagers import WagerReader
from devices.table_owner.device_status import DeviceStatus
from devices.table_owner.feed import DeviceFeed, DeviceNote, ReaderScanned

__all__ = ["Call", "TableController"]

if TYPE_CHECKING:  # OpenCV and the decoders load only for a table with a camera
    import numpy as np

    from devices.camera.check import CameraCheck, CameraVerdict
    from devices.camera.reader import CardReader
    from devices.camera.watch import CameraWatch

Call = Callable[[], None]
Post = Callable[[Call], None]
Listener = Callable[[TableSnapshot], None]
SupervisorListener = Callable[[SupervisorSnapshot], None]
T = TypeVar("T")


SCANNED_TAPS = {NoMoreBets: ScanFor.NO_MORE_BETS, PaymentsMade: ScanFor.PAID, SettlementConfirmed: ScanFor.SETTLED}
Item = TableInput | DeviceNote | ReaderScanned
Change = Callable[[DeviceState], DeviceState]
USABLE_PEEKS = (PeekResult.NATURAL, PeekResult.NONE)
POLL_S = 0.005


class TableController:
    def __init__(self, table: Table) -> None:
        self._table = table
        self.devices = DeviceStatus()
        self.attention: Attention | None = None  # the last refusal, until an input is accepted
        self.reported: Attention | None = None  # a device's report, until the dealer acknowledges it
        self.halted: Attention | None = None  # a stopped or damaged journal: stays until the table is reopened
        self.feed: DeviceFeed | None = None
        self.camera: CameraWatch | None = None
        self.scanning: ScanFor | None = None  # a tap waiting for the wager reader's scan
        self.states: dict[tuple[Device, int | None], DeviceState] = {}  # each device's state, on the owner thread
        self._inbox: queue.Queue[Call] = queue.Queue()
        self._post: Post = self._inbox.put
        self._listeners: list[Listener] = []
        self._supervisor_listeners: list[SupervisorListener] = []
        self._roster = read_roster(table.path)  # the supervisors' names, read again when their screens open
        self.snapshot: TableSnapshot = self._build()

    @classmethod
    def open(
        cls,
        path: Path | str,
        config: TableConfig | None = None,
        *,
        named: Mapping[str, str] | None = None,
        devices: dict[str, Any] | None = None,
    ) -> Self:
        """The one way a program opens a table to write to it (`run`, `bench`): the table at `path`,
        opened or created with `config`, owned by a new controller. Raises JournalInUse naming the
        process that holds the journal, InputError when a field the start `named` disagrees with
        the journal's table, JournalDamaged on a damaged journal, and RuleError without a journal or
        a configuration."""
        return cls(Table.open(path, config, named=named, devices=devices))

    def close(self) -> None:
        """Close the journal (sealing it) and give up its lock; `stop` the devices first."""
        self._table.close()

    def discard(self) -> None:
        """Close a table whose start was refused before it was dealt (`Table.discard`)."""
        self._table.discard()

    # --- what others read ------------------------------------------------------------------------

    @property
    def table_id(self) -> str:
        return self._table.session.config.table_id

    @property
    def profile(self) -> Profile:
        return self._table.session.profile

    @property
    def journal_path(self) -> Path:
        return self._table.path

    @property
    def took_over(self) -> Holder | None:
        """The process that died holding this journal's lock, which opening the table took over."""
        return self._table.lock.took_over

    @property
    def records(self) -> RecordSource:
        """The table's journal to read: recall, export, the dispute report."""
        return SqliteRecords(self._table.path)

    @property
    def records_written(self) -> int:
        """Records durable in the journal so far."""
        return self._table.journal.seq

    @property
    def rounds_closed(self) -> int:
        return self._table.rounds_closed

    def add_sink(self, sink: Sink) -> None:
        """`sink` hears every record once it is durable (the card room's shipper)."""
        self._table.journal.add_sink(sink)

    def facts(self) -> TableFacts:
        """Owner thread: where the table stands, as values, for a player model or an emulated device
        (what is legal now, where the shoe stands, what the hole card is); inputs go through `submit`."""
        return table_facts(self._table.session)

    def supervisor_snapshot(self, recent: int = 20) -> SupervisorSnapshot:
        """Owner thread: the table as the supervisor's screens show it now, with the last `recent`
        rounds read from the journal (none read for 0)."""
        return build_supervisor_snapshot(self._table, self._roster, recent)

    def dealer_roster(self) -> tuple[str, ...]:
        """The house dealers' names (`dealers.txt` beside the journal), read each time the sign-in opens (RULES.md
        §8.25)."""
        return read_roster(self._table.path, DEALERS_FILE)

    def device_lights(self) -> dict[str, str]:
        """Any thread: each device link's light, "up" or "down", by the device's name as the journal
        has it ("shoe", "peek", "camera"), for the card room's status message; status items that are
        not devices are left out."""
        return {link.name.lower(): "up" if link.up else "down" for link in self.devices.links() if link.text is None}

    def add_status(self, name: str, text: str, ok: bool = True) -> None:
        """Any thread: a status item on the dealer's status line beside the devices ("Pit", "down · 312 to send")."""
        self.devices.status(name, text, ok)

    def subscribe(self, listener: Listener) -> None:
        """`listener` hears every snapshot, on the owner thread."""
        self._listeners.append(listener)

    def subscribe_supervisor(self, listener: SupervisorListener) -> Call:
        """`listener` hears the supervisor's snapshot (no rounds read) after every change, on the
        owner thread, until the returned call unsubscribes it: the supervisor's screens while they
        are open, so a change made at the table while they are open shows on them."""
        self._roster = read_roster(self._table.path)  # read once each time the screens open
        self._supervisor_listeners.append(listener)
        return lambda: self._supervisor_listeners.remove(listener)

    def run_on(self, post: Post) -> None:
        """From now on, what other threads hand in runs through `post` (the screen's GUI thread)."""
        self._post = post

    # --- wiring ----------------------------------------------------------------------------------

    def connect_devices(self, shoe_url: str, peek_url: str | None = None) -> None:
        """The shoe scanner (and the peek device) at these URLs; they start with `start`."""
        feed = self._feed()
        feed.shoe = ShoeScanner(shoe_url, feed.on_shoe_event)
        feed.peek = PeekReader(peek_url, feed.on_peek_event) if peek_url else None
        for device in (Device.SHOE, Device.PEEK) if peek_url else (Device.SHOE,):
            self._connecting(device)

    def connect_wagers(self, url: str) -> None:
        """The wager reader at `url` (RULES.md §8.22-8.24); it starts with `start`. Until its first
        scan completes the table uses none of its readings."""
        feed = self._feed()
        feed.wagers = WagerReader(url, feed.on_wagers_event)
        self._connecting(Device.WAGERS)

    def _connecting(self, device: Device) -> None:
        self.states[device, None] = DeviceState(device, Condition.CONNECTING)
        self.devices.state(device.label, self.states[device, None])

    def _feed(self) -> DeviceFeed:
        if self.feed is None:
            self.feed = DeviceFeed(None, None, self.deliver)
        return self.feed

    def watch_camera(
        self, frames: Iterable[np.ndarray], reader: CardReader, check: CameraCheck | None = None
    ) -> CameraWatch:
        """The overhead camera's frames, checked against the round on a thread of their own."""
        from devices.camera.check import CameraCheck
        from devices.camera.watch import CameraWatch

        self._connecting(Device.CAMERA)
        self.camera = CameraWatch(
            frames,
            reader,
            check or CameraCheck(),
            lambda: self.snapshot,
            lambda verdict: self._post(lambda: self._camera_told(verdict)),
            lambda body: self.deliver(DeviceNote(body)),
            lambda what: self.devices.read(Device.CAMERA.label, what),
        )
        return self.camera

    def start(self) -> None:
        """Start the devices; the shoe's card-stop is set first, so it is the first thing the shoe
        hears as its link comes up."""
        self._sync()
        if self.feed is not None:
            if self.feed.wagers is not None and self._table.session.reader.spots:
                self.submit(ReaderSpots(()))  # the readings wait for the reader's first scan
            for device in self._devices():
                device.start()
        if self.camera is not None:
            self.camera.start()

    def stop(self) -> None:
        if self.camera is not None:
            self.camera.stop()
        for device in self._devices():
            device.stop()

    def _devices(self) -> list[ShoeScanner | PeekReader | WagerReader]:
        feed = self.feed
        return [] if feed is None else [device for device in (feed.shoe, feed.peek, feed.wagers) if device is not None]

    # --- any thread ------------------------------------------------------------------------------

    def deliver(self, item: Item) -> None:
        """A device's input or evidence, from its reader thread. The input goes to the owner thread
        first and the status line hears of it next, so a card is never queued behind the status
        line's repaint; the status line shows it even when the rules refuse it."""
        self._post(lambda: self._take(item))
        self._show_on_status_line(item)

    def _show_on_status_line(self, item: Item) -> None:
        if isinstance(item, DeviceNote):
            if item.body.get("type") == "LinkChanged":
                self.devices.link(Device(item.body["device"]).label, item.body["state"] == "up")
        elif isinstance(item, CardDrawn):
            self.devices.read(Device.SHOE.label, str(item.card))
        elif isinstance(item, CardsUnread):
            self.devices.read(Device.SHOE.label, "unread")
        elif isinstance(item, PeekAnswered):
            self.devices.read(Device.PEEK.label, item.result.value)
        elif isinstance(item, SpotReading):
            self.devices.read(Device.WAGERS.label, f"{item.spot} {money_text(item.amount)}")

    def device_changed(self, device: Device, change: Change, seat: int | None = None) -> None:
        """Owner thread: a device's state changes (`DeviceState.linked`, `faulted`, `read`); the top
        bar and the screens hear of it when it did."""
        if self._change_state(device, change, seat):
            self._publish()

    def _change_state(self, device: Device, change: Change, seat: int | None = None) -> bool:
        old = self.states.get((device, seat), DeviceState(device, seat=seat))
        new = change(old)
        if new == old:
            return False
        self.states[device, seat] = new
        self.devices.state(device.label, new)
        return True

    def report(self, attention: Attention) -> None:
        """A device fault or mismatch a person must see."""
        self._post(lambda: self._reported(attention))

    def post(self, call: Call) -> None:
        """Run `call` on the owner thread."""
        self._post(call)

    # --- the owner thread ------------------------------------------------------------------------

    def submit(self, event: TableInput) -> Failure | None:
        """The dealer's input (or a device's); the refusal, if any, also shown on the banner. At a
        table whose wager reader reads spots, "No more bets" and a checked "Paid" wait for the
        reader's scan, and go in with it (RULES.md §8.23, §8.24)."""
        purpose = SCANNED_TAPS.get(type(event))
        if purpose is not None and self._scans_for(purpose):
            assert self.feed is not None and self.feed.wagers is not None
            self.scanning = purpose
            self.feed.wagers.scan()
            self._publish()
            return None
        try:
            ops = self._guarded(lambda: self._table.submit(event))
            self.attention = None
            self._reader_back(ops)
            self._settle_devices()
            return None
        except Failure as error:
            if self.halted is None:
                self.attention = Attention.refusal(error)
            return error
        finally:
            self._input_read(event)
            self._publish()

    def supervise(self, event: TableInput, pin: str) -> tuple[TableOperation, ...]:
        """A floor supervisor's correction, PIN first; raises RuleError with the refusal."""
        try:
            ops = self._guarded(lambda: self._table.supervise(event, pin))
            self.attention = None
            return ops
        finally:
            self._publish()

    def check_pin(self, pin: str) -> None:
        """The supervisor's PIN, every try journaled; raises RuleError when it is wrong or locked."""
        try:
            self._guarded(lambda: self._table.check_pin(pin))
        finally:
            self._publish()

    def set_pin(self, new: str, current: str | None = None, by: PinSetter = PinSetter.SUPERVISOR) -> None:
        """A new PIN behind the current one (or a tool's first PIN); raises a Failure when refused."""
        try:
            self._guarded(lambda: self._table.set_pin(new, current, by))
        finally:
            self._publish()

    def adopt_pin_hash(self, text: str) -> None:
        """The table file's PIN hash as the table's first PIN."""
        try:
            self._guarded(lambda: self._table.adopt_pin_hash(text))
        finally:
            self._publish()

    def bench_pin(self) -> str:
        """The PIN a tool gives this table's journal (`pins.bench_pin`)."""
        return bench_pin(self._table.header_hash)

    def note_device(self, body: dict[str, Any]) -> None:
        """Device evidence (identity, link, faults, the camera's findings) into the journal."""
        try:
            self._guarded(lambda: self._table.note_device(body))
        except Failure:
            self._publish()  # the journal stopped: the banner says so

    def dismiss(self) -> None:
        """The dealer acknowledges what the banner shows; a device's report is acknowledged in the
        journal too, beside the report itself, so a dispute shows who saw what when."""
        if self.attention is not None:
            self.attention = None
        elif self.reported is not None:
            reported, self.reported = self.reported, None
            self.note_device(
                {"device": "dealer", "type": "Acknowledged", "kind": reported.kind.value, "message": reported.message}
            )
        self._publish()

    def refresh(self) -> None:
        self._publish()

    def pump(self, timeout: float, done: Callable[[], bool] | None = None) -> int:
        """Headless: run what the devices handed in within `timeout`, stopping early once `done()`
        is true (without `done`, once nothing more arrives); how many items ran."""
        ran = 0
        deadline = time.monotonic() + timeout
        while not (done is not None and done()) and (left := deadline - time.monotonic()) > 0:
            try:  # short waits: `done` may turn true without any delivery (an emulator's control)
                call = self._inbox.get(timeout=min(left, POLL_S) if done is not None else left)
            except queue.Empty:
                if done is None:
                    break
                continue
            call()
            ran += 1
        return ran

    def pump_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Pump until `done()` is true or the time is up."""
        self.pump(timeout, done)
        return bool(done())

    # --- inside ----------------------------------------------------------------------------------

    def _scans_for(self, purpose: ScanFor) -> bool:
        """Whether the tap waits for a scan: the table uses the reader's readings, and at "Paid" a
        read spot is settled in the step and the profile checks payouts."""
        session = self._table.session
        if self.feed is None or self.feed.wagers is None or not session.reader.spots or self.halted is not None:
            return False
        if purpose is ScanFor.NO_MORE_BETS:
            return True
        tracker = session.tracker
        return (
            session.profile.payout_check is PayoutCheck.HOLD
            and tracker is not None
            and bool(session.reader.settling(tracker))
        )

    def _take(self, item: Item) -> None:
        if isinstance(item, DeviceNote):
            self.note_device(item.body)
            self._device_said(item.body)
            return
        session = self._table.session
        if isinstance(item, ReaderScanned):
            purpose, self.scanning = self.scanning or ScanFor.READING, None
            self.submit(SpotsScanned(purpose, item.reads))
        elif isinstance(item, ReaderSpots) and reader_faults.unchanged(session.s, session.reader, item):
            return  # nothing changed: nothing to record
        elif (
            isinstance(item, SpotReading)
            and session.reader.reads(item.spot)
            and session.reader.reading(item.spot) == item
        ):
            return
        else:
            self.submit(item)  # a refusal is journaled and shown on the banner

    def _reader_back(self, ops: tuple[TableOperation, ...]) -> None:
        """The reader's first scan after its outage differs from the table: the dealer is told
        which spots, until acknowledged (the differences are journaled with the scan)."""
        back = [(op.spot, op.due, op.held) for op in ops if isinstance(op, ReaderBackDiffers)]
        if back:
            tracker = self._table.session.tracker
            betting = tracker is not None and tracker.phase is Phase.BETTING
            self.reported = Attention(AttentionKind.READER_BACK, reader_back(back, betting), "8.23")

    def _device_said(self, body: dict[str, Any]) -> None:
        """A device's link or fault as its state: the shoe's, the peek device's, the camera's (the wager
        reader's spot faults are its own)."""
        device = Device(body["device"])
        if body["type"] == "LinkChanged":
            up = body["state"] == "up"
            self.device_changed(device, lambda state: state.linked(up))
        elif body["type"] == "DeviceFault":
            self.device_changed(device, lambda state: state.faulted(body.get("code"), str(body.get("text", ""))))
        elif body["type"] == "FaultCleared":
            self.device_changed(device, lambda state: state.read())

    def _input_read(self, event: TableInput) -> None:
        """What a card or a peek answer says of its device: a read clears a fault; a peek that cannot
        be used, or that disagrees with the shoe, is said until the peek device answers right again."""
        if isinstance(event, CardDrawn | CardsUnread):
            self.device_changed(Device.SHOE, lambda state: state.read())
        elif isinstance(event, PeekAnswered):
            tracker = self._table.session.tracker
            hold = tracker.hold if tracker is not None else None
            if event.result not in USABLE_PEEKS:
                self.device_changed(Device.PEEK, lambda state: state.read(False, event.result.value))
            elif hold is not None and hold.reason is HoldReason.PEEK_DISAGREES:
                self.device_changed(Device.PEEK, lambda state: state.read(False, hold.detail, Condition.MISMATCH))
            else:
                self.device_changed(Device.PEEK, lambda state: state.read())

    def _settle_devices(self) -> None:
        """The dealer went on: a device's "back" has been said."""
        for key, state in list(self.states.items()):
            if state.condition is Condition.BACK:
                self.device_changed(key[0], lambda state: state.settled(), key[1])

    def _reported(self, attention: Attention) -> None:
        self.reported = attention
        self._publish()

    def _camera_told(self, verdict: CameraVerdict) -> None:
        if not verdict.mismatches:
            self.note_device({"device": "camera", "type": "CameraAgrees"})
            self.device_changed(Device.CAMERA, lambda state: state.read())
            return
        self.note_device(
            {
                "device": "camera",
                "type": "CameraMismatch",
                "message": verdict.message,
                "mismatches": [m.to_json() for m in verdict.mismatches],
            }
        )
        self.device_changed(Device.CAMERA, lambda state: state.read(False, verdict.message, Condition.MISMATCH))
        self._reported(Attention(AttentionKind.MISMATCH, verdict.banner))

    def _guarded(self, change: Callable[[], T]) -> T:
        """Run a change of the table; a journal that fails or is damaged halts the table, visibly."""
        if self.halted is not None:
            raise JournalError(JournalCode.TABLE_STOPPED, self.halted.message)
        try:
            return change()
        except TableStopped as error:
            self.halted = Attention(AttentionKind.JOURNAL, error.message, held=True)
            raise
        except JournalDamaged as error:
            message = (
                f"the journal is damaged, the table has stopped: {error.verdict.message}. Dealer: deal no more and "
                "call a floor supervisor, who keeps this journal as evidence and opens the table on a new one"
            )
            self.halted = Attention(AttentionKind.JOURNAL, message, held=True)
            raise JournalError(JournalCode.JOURNAL_DAMAGED, message) from error

    def _build(self) -> TableSnapshot:
        snapshot = build_table_snapshot(self._table.session, self.halted or self.attention)
        if snapshot.attention is None and self.reported is not None:
            snapshot = replace(snapshot, attention=self.reported)
        snapshot = replace(snapshot, devices=tuple(self.states.values()))
        if self.scanning is not None and snapshot.reader is not None:
            snapshot = replace(snapshot, reader=replace(snapshot.reader, scanning=True))
        return snapshot

    def _publish(self) -> None:
        self.snapshot = self._build()
        self._sync()
        self._light_reader()
        for listener in self._listeners:
            listener(self.snapshot)
        if self._supervisor_listeners:  # built only while the supervisor's screens are open
            supervisor = self.supervisor_snapshot(recent=0)
            for told in list(self._supervisor_listeners):
                told(supervisor)

    def _light_reader(self) -> None:
        """The wager reader's light says which spots are faulted, in amber (its link's up or down is its
        own); the snapshot just built does not change with it, as the light alone says it."""
        if self.feed is not None and self.feed.wagers is not None:
            reader = self.snapshot.reader
            faulted = reader_light(reader.faulted if reader is not None else ())
            self._change_state(Device.WAGERS, lambda state: state.impaired(faulted))

    def _sync(self) -> None:
        if self.feed is not None:
            self.feed.sync(self._table.session, stopped=self.halted is not None)

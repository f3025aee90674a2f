"""An emulated wager reader (DEVICES.md §6): chips on betting spots, set by a test or a technician.

A spot's content goes to the host once the spot has held still for 300 ms after a change. A SCAN
is answered at once with the content of every spot not under a fault, then SCANNED. Faults and
their CLEAR, a cut line (`sim_disconnect`) and a power-up (`sim_power_up`) come on demand.

The `sim_*` controls are safe from any thread and refuse a wrong spot or chip at once, in the
caller; `sim_command` takes the same controls as lines of text (`dealer-assist sim wagers --stdin`).
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from dealer_assist.table.spots import Spot, layout, parse_spot
from devices.wire.clock import MONOTONIC, Clock
from devices.wire.framing import MAX_BODY
from devices.wire.messages import (
    HOST_TO_WAGERS,
    Message,
    ReaderFault,
    ReaderHello,
    Scan,
    Scanned,
    SpotClear,
    SpotContent,
    SpotList,
)
from hw_sims.device import EmulatedDevice, Identity
from hw_sims.endpoints import Endpoint
from hw_sims.faults import FaultKind

WAGERS_IDENTITY = Identity("DEALERASSIST", "SIM-WAGERS", "0001", "1.0", proto="1.3")
CASINO = "DACASINO"
STILL_FOR = 0.3  # a changed spot is reported once it has held still this long
ANTENNA = "ANTENNA"
COLLISION = "COLLISION"
FAULT_TEXTS = {ANTENNA: "antenna cannot be read", COLLISION: "too many chips to read"}
CONTROLS = (
    "place SPOT CENTS...",  # the spot now holds exactly these chips
    "add SPOT CENTS...",
    "remove SPOT [CENTS...]",  # these chips, or all of them
    "alien SPOT K",  # K chips of another casino lie there too
    "antenna SPOT",
    "collision SPOT",
    "clear SPOT",
    "fault CODE SPOT|- [TEXT]",
    "cut",  # the line drops; the host reconnects
    "silence",  # nothing sent for 3.5 s
    "power",  # a power-up: new boot id, SEQ from 0000
)


DENOMINATIONS = (100_000, 10_000, 2_500, 500, 100)  # the chips players stack, in cents


def chips_for(cents: int, count: int | None = None) -> list[int]:
    """Chips worth `cents`: the fewest of the usual denominations (what is left under $1 as one
    chip), or `count` chips of near-equal value (a spot as a journal last read it)."""
    if cents <= 0:
        return []
    if count:
        count = min(count, cents)
        each, extra = divmod(cents, count)
        return [each + 1 if number < extra else each for number in range(count)]
    chips: list[int] = []
    left = cents
    for value in DENOMINATIONS:
        many, left = divmod(left, value)
        chips += [value] * many
    return chips + ([left] if left else [])


@dataclass(slots=True)
class _SpotState:
    chips: list[int] = field(default_factory=list)  # each chip's value in cents
    alien: int = 0
    fault: str | None = None  # the fault's code, until the spot is cleared
    fault_text: str = ""
    changed_at: float | None = None  # changed and not yet reported
    reported: SpotContent | None = None  # the content last sent

    def content(self, spot: Spot) -> SpotContent:
        return SpotContent(0, spot, len(self.chips), sum(self.chips), self.alien)


def _chips(values: Sequence[int]) -> list[int]:
    for value in values:
        if value < 1:
            raise ValueError(f"chip value {value} is not a positive number of cents")
    return list(values)


class WagerEmulator(EmulatedDevice):
    malformed_bodies = (
        "SPOT 3.BASE 1 500",
        "SPOT 1.base 1",
        "SPOT 1.base 1 500 ALIEN 0",
        "SPOT pd.base 0 0",
        "SCANNED 12 3",
        "CLEAR",
        "FAULT ANTENNA 0.base",
        "SPOTS",
        "HB x",
    )

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        seats: int = 7,
        bank: bool = True,
        casino: str = CASINO,
        contents: Mapping[Spot, Sequence[int]] | None = None,
        seed: int = 0,
        faults: Mapping[FaultKind, float] | None = None,
        clock: Clock = MONOTONIC,
    ) -> None:
        super().__init__(endpoint, HOST_TO_WAGERS, WAGERS_IDENTITY, seed=seed, faults=faults or {}, clock=clock)
        self.casino = casino
        self.spots = layout(seats, bank)
        self._lock = threading.Lock()  # the spots are set from the caller's thread
        self._state = {spot: _SpotState() for spot in self.spots}
        self._outbox: list[Message] = []  # faults and clears asked for, posted on the emulator's thread
        self.scans: list[int] = []  # the SEQs of the SCANs answered, so a test knows the host's request is in
        for spot, values in (contents or {}).items():
            self._spot(spot).chips = _chips(values)

    # controls

    def sim_place(self, spot: Spot, values: Sequence[int]) -> None:
        """The spot now holds exactly these chips (values in cents)."""
        chips = _chips(values)
        self._change(spot, lambda state: setattr(state, "chips", chips))

    def sim_add(self, spot: Spot, values: Sequence[int]) -> None:
        chips = _chips(values)
        self._change(spot, lambda state: state.chips.extend(chips))

    def sim_remove(self, spot: Spot, values: Sequence[int] | None = None) -> None:
        """Take these chips off the spot, or all of them; a value the spot does not hold is refused."""

        def remove(state: _SpotState) -> None:
            if values is None:
                state.chips.clear()
                return
            missing = Counter(values) - Counter(state.chips)
            if missing:
                raise ValueError(f"spot {spot} holds no chip of {min(missing)} to remove")
            for value in values:
                state.chips.remove(value)

        self._change(spot, remove)

    def sim_alien(self, spot: Spot, count: int) -> None:
        """`count` chips of another casino (or unreadable ones) now lie on the spot too."""
        if count < 0:
            raise ValueError(f"alien chip count {count} is below 0")
        self._change(spot, lambda state: setattr(state, "alien", count))

    def sim_fault(self, code: str, spot: Spot | None = None, text: str = "") -> None:
        """FAULT code spot text; a spot under fault is neither reported nor scanned until its CLEAR."""
        if not code or not code.isascii() or not code.isprintable() or " " in code:
            raise ValueError(f"fault code {code!r} is not one printable word")
        words = " ".join(text.split())
        if not words.isascii() or not words.isprintable():
            raise ValueError(f"fault text {text!r} is not printable ASCII")
        with self._lock:
            if spot is not None:
                state = self._spot(spot)
                state.fault, state.fault_text = code, words
            self._outbox.append(ReaderFault(0, code, spot, words))

    def sim_antenna(self, spot: Spot) -> None:
        self.sim_fault(ANTENNA, spot, FAULT_TEXTS[ANTENNA])

    def sim_collision(self, spot: Spot) -> None:
        self.sim_fault(COLLISION, spot, FAULT_TEXTS[COLLISION])

    def sim_clear(self, spot: Spot) -> None:
        """The spot's fault is over: CLEAR, then the spot's content."""
        with self._lock:
            state = self._spot(spot)
            if state.fault is None:
                raise ValueError(f"spot {spot} has no fault to clear")
            state.fault = None
            state.reported = state.content(spot)
            self._outbox += [SpotClear(0, spot), state.reported]

    def sim_command(self, line: str) -> None:
        """One control as a line of text (see `CONTROLS`); a wrong line raises ValueError naming it."""
        name, *args = line.split() or [""]
        match name, args:
            case (("cut" | "silence" | "power"), []):
                {"cut": self.sim_disconnect, "silence": self.sim_silence, "power": self.sim_power_up}[name]()
            case "fault", [code, spot, *text]:
                self.sim_fault(code, None if spot == "-" else parse_spot(spot), " ".join(text))
            case "place", [spot, *cents] if cents:
                self.sim_place(parse_spot(spot), [_number(word) for word in cents])
            case "add", [spot, *cents] if cents:
                self.sim_add(parse_spot(spot), [_number(word) for word in cents])
            case "remove", [spot, *cents]:
                self.sim_remove(parse_spot(spot), [_number(word) for word in cents] or None)
            case "alien", [spot, count]:
                self.sim_alien(parse_spot(spot), _number(count))
            case "antenna", [spot]:
                self.sim_antenna(parse_spot(spot))
            case "collision", [spot]:
                self.sim_collision(parse_spot(spot))
            case "clear", [spot]:
                self.sim_clear(parse_spot(spot))
            case _:
                raise ValueError(f"{line.strip()!r} is not a control; the controls are: {'; '.join(CONTROLS)}")

    # the device

    def hello(self) -> ReaderHello:
        h = super().hello()
        return ReaderHello(0, h.vendor, h.model, h.serial, h.firmware, h.proto, h.boot, self.casino)

    def said_hello(self, now: float) -> None:
        self.post_first(self._spot_lists(), now)

    def powered_up(self, now: float) -> None:
        """Nothing asked for before the power-up is sent; a fault that outlasts it is reported again."""
        with self._lock:
            self._outbox = [
                ReaderFault(0, state.fault, spot, state.fault_text)
                for spot, state in self._state.items()
                if state.fault is not None
            ]
            for state in self._state.values():
                state.reported = None

    def heartbeat_count(self) -> int:
        with self._lock:
            return sum(len(state.chips) for state in self._state.values() if state.fault is None)

    def command(self, message: Message, now: float) -> None:
        if not isinstance(message, Scan):
            return
        with self._lock:
            messages, self._outbox = self._outbox, []  # asked for before the SCAN came
            reads = []
            for spot, state in self._state.items():
                if state.fault is None:
                    state.reported = state.content(spot)
                    reads.append(state.reported)
        self.scans.append(message.seq)
        for frame in [*messages, *reads, Scanned(0, message.seq, len(reads))]:
            self.post(frame, now)

    def tick(self, now: float) -> None:
        with self._lock:
            messages, self._outbox = self._outbox, []
            for spot, state in self._state.items():
                if state.changed_at is None or now - state.changed_at < STILL_FOR or state.fault is not None:
                    continue
                state.changed_at = None
                content = state.content(spot)
                if content != state.reported:
                    state.reported = content
                    messages.append(content)
        for message in messages:
            self.post(message, now)

    def _spot_lists(self) -> list[SpotList]:
        """The spots in as few SPOTS frames as fit the 250-byte body."""
        lists: list[list[Spot]] = [[]]
        used = len("FFFF SPOTS")
        for spot in self.spots:
            if lists[-1] and used + 1 + len(str(spot)) > MAX_BODY:
                lists.append([])
                used = len("FFFF SPOTS")
            lists[-1].append(spot)
            used += 1 + len(str(spot))
        return [SpotList(0, tuple(spots)) for spots in lists]

    def _spot(self, spot: Spot) -> _SpotState:
        state = self._state.get(spot)
        if state is None:
            raise ValueError(f"spot {spot} is not on this layout ({len(self.spots)} spots)")
        return state

    def _change(self, spot: Spot, change: Callable[[_SpotState], None]) -> None:
        with self._lock:
            state = self._spot(spot)
            change(state)
            state.changed_at = self.clock.now()


def _number(word: str) -> int:
    if not (word.isascii() and word.isdigit()):
        raise ValueError(f"{word!r} is not a whole number")
    return int(word)

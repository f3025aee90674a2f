"""Who deals at a table and what its wager reader finds (RULES.md §8.22-8.25), followed record by
record: what no single record says alone. Who was signed in when a tap was made; whether a late
change is a new one or the same spot moved again; whether a spot's fault has outlasted a round.

Pure. A journal's `Watch` is where the following stands after a record, kept in the store between
batches, so what is derived is the same whichever batch a record came in, and `pit rebuild` walks
the same path from the journal's first record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from dealer_assist.journal.journal_file import RecordKind
from dealer_assist.table.spots import parse_spot
from dealer_assist.text.reader_words import late_change, spot_name
from pit.service.floor.alerts import AlertCause, AlertKind, wall_time
from pit.service.floor.data import DealerReport, DealerRow
from pit.stream.wire import RecordMessage, body_of

__all__ = ["DealerSums", "Dealing", "Tally", "Watch", "dealer_report"]

# The house dealer's own touchscreen inputs, accepted or refused: keyed wagers, "No more bets",
# decisions, keyed insurance and its close, "Paid", the settlement's end, the bank's choices. Not
# the devices' (cards, readings, scans of their own), not a supervisor's corrections, not signing in.
DEALER_TAPS = (
    "PlaceWager",
    "NoMoreBets",
    "Decide",
    "Insure",
    "CloseInsurance",
    "PaymentsMade",
    "SettlementConfirmed",
    "BankAccepted",
    "BankRefused",
)
# At a table with a wager reader, "No more bets" and a checked "Paid" go in with the reader's scan.
TAPPED_SCANS = ("no_more_bets", "paid", "settled")
NO_DEALER = ""  # the tallies' dealer while nobody is signed in
# Whose a round is in the per-dealer report (RULES.md §8.25), said under the report's table.
ROUNDS_COUNTED = (
    "Each round closed in the range counts once, for the dealer signed in when its first card was dealt"
    " (a round closed before any card: when it closed), so a relief mid-round leaves the round with the"
    " dealer who began dealing it; taps, late changes and mispays count for whoever was signed in."
)
_INPUTS = (RecordKind.INPUT, RecordKind.CLOSE, RecordKind.REFUSED)  # records of an input, accepted or refused
_NOTHING: dict[str, Any] = {}


def is_tap(event: dict[str, Any]) -> bool:
    """Whether a journaled input is the dealer's own tap."""
    kind = event.get("type")
    return kind in DEALER_TAPS or (kind == "SpotsScanned" and event.get("purpose") in TAPPED_SCANS)


@dataclass(slots=True)
class Fault:
    """A wager reader spot under a fault, as the table's reader adapter knows it."""

    seq: int  # the record of its first report
    round_id: int | None  # the round open then; None between rounds
    code: str
    text: str
    told: bool = False  # its alert is raised


@dataclass(slots=True)
class Watch:
    """Where a journal's following stands after its last record."""

    dealer: str | None = None
    counted: str | None = None  # whom the open round counts for, once its first card is dealt (NO_DEALER: nobody)
    stint: int | None = None  # the seq of the dealer's sign-in
    since: str | None = None  # its wall clock
    last_round: int = 0
    late: list[str] = field(default_factory=list)  # spots of the open round whose late change is open
    boot: str | None = None  # the reader's boot id at its last HELLO
    faults: dict[str, Fault] = field(default_factory=dict)  # spot -> fault, until its CLEAR

    def state(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def restored(cls, state: dict[str, Any]) -> Watch:
        faults = {spot: Fault(**fault) for spot, fault in state.get("faults", {}).items()}
        return cls(**{**state, "faults": faults})


@dataclass(frozen=True, slots=True)
class Stint:
    journal: str
    seq: int
    table_id: str
    dealer: str
    began: datetime
    ended: datetime


@dataclass(slots=True)
class Tally:
    taps: int = 0
    late_changes: int = 0
    mispays: int = 0
    rounds: int = 0  # 1 on the tally of the dealer the round counts for (`ROUNDS_COUNTED`)


@dataclass(slots=True)
class DealerSums:
    """One dealer's figures over a report's range, as the store or a test double adds them up."""

    tables: set[str] = field(default_factory=set)
    seconds: float = 0.0  # at the tables, within the range
    rounds: int = 0
    tally: Tally = field(default_factory=Tally)

    def add(self, tally: Tally) -> None:
        self.rounds += tally.rounds
        self.tally.taps += tally.taps
        self.tally.late_changes += tally.late_changes
        self.tally.mispays += tally.mispays


def dealer_report(sums: Mapping[str, DealerSums]) -> DealerReport:
    """The per-dealer report from each dealer's sums (NO_DEALER's: the rounds nobody signed in for)."""
    rows: list[DealerRow] = []
    for dealer in sorted(sums, key=lambda name: (name == NO_DEALER, name.casefold(), name)):
        found = sums[dealer]
        hours = found.seconds / 3600 if dealer != NO_DEALER else None
        rows.append(
            {
                "dealer": dealer if dealer != NO_DEALER else None,
                "tables": sorted(found.tables),
                "hours": round(hours, 2) if hours is not None else None,
                "rounds": found.rounds,
                "rounds_per_hour": round(found.rounds / hours, 1) if hours else None,
                "taps": found.tally.taps,
                "taps_per_round": round(found.tally.taps / found.rounds, 1) if found.rounds else None,
                "late_changes": found.tally.late_changes,
                "mispays": found.tally.mispays,
            }
        )
    return {
        "dealers": rows,
        "taps_counted": [*DEALER_TAPS, *(f"SpotsScanned ({purpose})" for purpose in TAPPED_SCANS)],
        "rounds_counted": ROUNDS_COUNTED,
    }


class Dealing:
    """What a run of records tells, each journal from where its watch stood: the stints they touch
    (as they stand after the run), each (journal, round, dealer)'s tally, and the alerts raised."""

    def __init__(self, watches: dict[str, Watch] | None = None) -> None:
        self.watches = watches if watches is not None else {}
        self.tallies: dict[tuple[str, int, str], Tally] = {}
        self.alerts: list[AlertCause] = []
        # (journal, stint) -> the stint's table, dealer, sign-in wall clock, and its last record's wall clock
        self._stints: dict[tuple[str, int], tuple[str, str, str, str]] = {}

    @property
    def stints(self) -> dict[tuple[str, int], Stint]:
        """The stints the records taken touch, as they stand after them."""
        return {
            key: Stint(key[0], key[1], table_id, dealer, wall_time(since), wall_time(ended))
            for key, (table_id, dealer, since, ended) in self._stints.items()
        }

    def take(self, message: RecordMessage) -> None:
        """One record, in journal order after the last one taken of its journal."""
        watch = self.watches.get(message.journal)
        if watch is None:
            watch = self.watches[message.journal] = Watch()
        body: dict[str, Any] = body_of(message.body)
        kind = message.kind
        if kind in _INPUTS and is_tap(body.get("input", _NOTHING)):
            self._tally(message, watch).taps += 1
        if kind is RecordKind.INPUT or kind is RecordKind.CLOSE:
            for position, op in enumerate(body.get("ops", ())):
                follow = _FOLLOWED_OPS.get(op.get("type"))
                if follow is not None:
                    follow(self, message, watch, position, op)
        elif kind is RecordKind.DEVICE and body.get("device") == "wagers":
            self._reader(message, watch, body)
        elif kind is RecordKind.RESUMED:  # the table's reader adapter starts afresh, knowing no fault
            watch.faults, watch.boot = {}, None
        if message.round_id is not None and message.round_id > watch.last_round:
            watch.last_round = message.round_id
        if watch.stint is not None:
            self._stint(message, watch)

    def _tally(self, message: RecordMessage, watch: Watch) -> Tally:
        """The tally of the dealer signed in now, in the round of the record, or between rounds the next one."""
        round_id = message.round_id if message.round_id is not None else watch.last_round + 1
        return self.tallies.setdefault((message.journal, round_id, watch.dealer or NO_DEALER), Tally())

    def _stint(self, message: RecordMessage, watch: Watch) -> None:
        """The watch's stint runs to this record."""
        assert watch.stint is not None and watch.dealer is not None and watch.since is not None
        self._stints[(message.journal, watch.stint)] = (message.table_id, watch.dealer, watch.since, message.wall)

    def _signed(self, message: RecordMessage, watch: Watch, position: int, op: dict[str, Any]) -> None:
        """A dealer signed in or out: the stint before ends here (signed out, or relieved)."""
        if watch.stint is not None:
            self._stint(message, watch)
        signed_in = op.get("type") == "DealerSignedIn"
        watch.dealer = str(op.get("dealer")) if signed_in else None
        watch.stint = message.seq if signed_in else None
        watch.since = message.wall if signed_in else None

    def _card(self, message: RecordMessage, watch: Watch, position: int, op: dict[str, Any]) -> None:
        """The round's first card names whom the round counts for."""
        if watch.counted is None:
            watch.counted = watch.dealer or NO_DEALER

    def _late_change_undone(self, message: RecordMessage, watch: Watch, position: int, op: dict[str, Any]) -> None:
        if str(op.get("spot")) in watch.late:
            watch.late.remove(str(op.get("spot")))

    def _mispay(self, message: RecordMessage, watch: Watch, position: int, op: dict[str, Any]) -> None:
        self._tally(message, watch).mispays += 1

    def _late_change(self, message: RecordMessage, watch: Watch, position: int, op: dict[str, Any]) -> None:
        """A late change is one from the spot's first change until its chips are put back: moved again
        meanwhile, it is the same late change."""
        spot = str(op.get("spot"))
        if spot in watch.late:
            return
        watch.late.append(spot)
        self._tally(message, watch).late_changes += 1
        text = late_change(parse_spot(spot), int(op.get("held", 0)), int(op.get("due", 0)), int(op.get("alien", 0)))
        self.alerts.append(
            AlertCause(
                f"late-change:{message.journal}:{message.seq}:{position}",
                AlertKind.LATE_CHANGE,
                message.table_id,
                message.journal,
                message.round_id,
                message.seq,
                wall_time(message.wall),
                f"late change: {text}; the closed wager stands",
            )
        )

    def _reader(self, message: RecordMessage, watch: Watch, body: dict[str, Any]) -> None:
        """The reader's faults as its adapter at the table keeps them: from a spot's FAULT to its CLEAR;
        a new boot forgets them (a fault that outlasts it is reported again)."""
        kind, spot = body.get("type"), body.get("spot")
        if kind == "WagersFault" and spot is not None and spot not in watch.faults:
            watch.faults[str(spot)] = Fault(
                message.seq, message.round_id, str(body.get("code", "")), str(body.get("text", ""))
            )
        elif kind == "SpotCleared" and spot is not None:
            watch.faults.pop(str(spot), None)
        elif kind == "WagersHello":
            boot = str(body.get("boot"))
            if watch.boot is not None and boot != watch.boot:
                watch.faults = {}
            watch.boot = boot

    def _round_closed(self, message: RecordMessage, watch: Watch, position: int, op: dict[str, Any]) -> None:
        """The round counts for its dealer (`ROUNDS_COUNTED`). A spot faulted longer than a round:
        still faulted as the round after the one it began in closes (between rounds, the next one)."""
        round_id = int(op["round_id"])
        counted = watch.counted if watch.counted is not None else watch.dealer or NO_DEALER
        self.tallies.setdefault((message.journal, round_id, counted), Tally()).rounds += 1
        watch.late, watch.counted = [], None
        for spot, fault in sorted(watch.faults.items()):
            if fault.told or (fault.round_id is not None and round_id <= fault.round_id):
                continue
            fault.told = True
            began = f"round {fault.round_id}" if fault.round_id is not None else "between rounds"
            why = " ".join(part for part in (fault.code, fault.text) if part)
            self.alerts.append(
                AlertCause(
                    f"spot-fault:{message.journal}:{spot}:{fault.seq}",
                    AlertKind.SPOT_FAULT,
                    message.table_id,
                    message.journal,
                    round_id,
                    message.seq,
                    wall_time(message.wall),
                    f"wager reader spot {spot} ({spot_name(parse_spot(spot))}) faulted longer than a round:"
                    " since record"
                    f" {fault.seq} ({began}), still at the close of round {round_id} ({why}); its wagers are keyed",
                )
            )


# The ops of an input or a close that the following looks at, each with what it does of one.
_FOLLOWED_OPS: dict[Any, Callable[[Dealing, RecordMessage, Watch, int, dict[str, Any]], None]] = {
    "DealerSignedIn": Dealing._signed,
    "DealerSignedOut": Dealing._signed,
    "CardAssigned": Dealing._card,
    "LateChange": Dealing._late_change,
    "LateChangeUndone": Dealing._late_change_undone,
    "MispayAccepted": Dealing._mispay,
    "RoundClosed": Dealing._round_closed,
}

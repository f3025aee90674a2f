"""One recalled round as immutable text rows: what the recall screen steps through and what the
dispute report prints and the pit's recall page shows, built once from `recall` so they never disagree."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.table.spots import parse_spot
from dealer_assist.text.journal_text import card_code, clock, describe, signed_units, stamp, units
from dealer_assist.text.reader_words import late_change, mispay
from dealer_assist.text.record_words import result_word, wager_name

__all__ = ["Evidence", "HANDS_HEAD", "LEDGER_HEAD", "RoundStory", "story"]

LEDGER_HEAD = ("Seat", "Hand", "Wager", "Stake", "Result", "In action", "Amount")
HANDS_HEAD = ("Whose", "Hand", "Cards", "Total")


@dataclass(frozen=True, slots=True)
class Step:
    """One input of the round and the operations it caused."""

    seq: int
    time: str
    text: str
    operations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Evidence:
    """A record beside the inputs: a refused input, a device record or a correction."""

    seq: int
    time: str
    text: str


@dataclass(frozen=True, slots=True)
class LedgerRow:
    seat: str
    hand: str
    wager: str
    stake: str
    result: str
    in_action: str
    amount: str

    @property
    def cells(self) -> tuple[str, ...]:
        """In the order of LEDGER_HEAD."""
        return self.seat, self.hand, self.wager, self.stake, self.result, self.in_action, self.amount


@dataclass(frozen=True, slots=True)
class HandRow:
    """A final hand as the ledger recorded it: whose ("Dealer" or a seat), its cards and total."""

    owner: str
    hand: str
    cards: str
    total: str

    @property
    def whose(self) -> str:
        """ "Dealer", or the seat and its hand: "Seat 5 hand 1"."""
        return f"{self.owner} hand {self.hand}" if self.hand else self.owner


@dataclass(frozen=True, slots=True)
class RoundStory:
    round_id: int
    state: str
    started: str
    ended: str
    records: str
    steps: tuple[Step, ...]
    refused: tuple[Evidence, ...]
    devices: tuple[Evidence, ...]
    corrections: tuple[Evidence, ...]
    ledger: tuple[LedgerRow, ...]
    seat_nets: tuple[tuple[str, str], ...]
    player_dealer_net: str | None
    hands: tuple[HandRow, ...] = ()  # the dealer's first, then each seat's, once the round is settled
    bank: str | None = None  # the player-dealer's seat and bank, the limit of what the bank covers
    dealers: str | None = None  # who dealt the round (RULES.md §8.25), in turn
    late_changes: tuple[Evidence, ...] = ()  # chips changed after "No more bets" (§8.23)
    mispays: tuple[Evidence, ...] = ()  # payout differences a floor supervisor accepted (§8.24)

    @property
    def title(self) -> str:
        return f"Round {self.round_id} · {self.state}"

    @property
    def span(self) -> str:
        """When it started and ended, the end's date left out: the journal keeps rounds of one day."""
        return f"{self.started} → {self.ended[11:] or 'still open'}"

    @property
    def heading(self) -> tuple[str, ...]:
        """The round's heading, part by part, as the recall screen, `journal recall` and the pit's
        recall page each join them: which round, when, its records and who dealt it."""
        return (
            self.title,
            self.span,
            f"records {self.records}",
            f"dealt by {self.dealers}" if self.dealers else "no dealer signed in",
        )


def _state(entry: dict[str, Any]) -> str:
    if entry["voided"]:
        return "voided"
    return "closed" if entry["closed"] else "open"


def _steps(entry: dict[str, Any]) -> tuple[Step, ...]:
    caused: dict[int, list[str]] = {}
    for op in entry["operations"]:
        caused.setdefault(op["seq"], []).append(describe(op))
    return tuple(
        Step(event["seq"], clock(event["wall"]), describe(event), tuple(caused.get(event["seq"], ())))
        for event in entry["inputs"]
    )


def _correction(fix: dict[str, Any]) -> Evidence:
    if fix["type"] == "MispayAccepted":
        return Evidence(fix["seq"], clock(fix["wall"]), f"Mispay accepted · {_mispay(fix).text}")
    return Evidence(fix["seq"], clock(fix["wall"]), describe(fix))


def _device(record: dict[str, Any]) -> Evidence:
    body = {key: value for key, value in record.items() if key not in ("seq", "wall")}
    text = " · ".join(f"{key} {value}" for key, value in body.items())
    return Evidence(record["seq"], clock(record["wall"]), text)


def _refused(record: dict[str, Any]) -> Evidence:
    error = record["error"]
    rule = f" (rule {error['rule']})" if error.get("rule") else ""
    return Evidence(
        record["seq"], clock(record["wall"]), f"{describe(record['input'])}  —  refused{rule}: {error['message']}"
    )


def _total(total: int, status: str, doubled: bool = False, surrendered: bool = False) -> str:
    """A Natural is named, not counted; any other hand reads as its total, then what ended it."""
    first = "Natural" if status == "natural" else str(total)
    extra = ["over" if status == "over" else "", "doubled" if doubled else "", "surrendered" if surrendered else ""]
    return " · ".join([first, *(word for word in extra if word)])


def _hands(ledger: dict[str, Any] | None) -> tuple[HandRow, ...]:
    if not ledger:
        return ()
    dealer = ledger["dealer"]
    rows = [
        HandRow(
            "Dealer", "", " ".join(card_code(c) for c in dealer["cards"]), _total(dealer["total"], dealer["status"])
        )
    ]
    rows += [
        HandRow(
            f"Seat {h['seat']}",
            str(h["hand"] + 1),
            " ".join(card_code(c) for c in h["cards"]),
            _total(h["total"], h["status"], h["doubled"], h["surrendered"]),
        )
        for h in ledger["hands"]
    ]
    return tuple(rows)


def _ledger(ledger: dict[str, Any] | None) -> tuple[tuple[LedgerRow, ...], tuple[tuple[str, str], ...], str | None]:
    if not ledger:
        return (), (), None
    rows = tuple(
        LedgerRow(
            str(row["seat"]),
            str(row["hand"] + 1),
            wager_name(row["wager"]),
            units(row["stake"]),
            result_word(row["result"]),
            units(row["in_action"]),
            signed_units(row["amount"]),
        )
        for row in ledger["settlements"]
    )
    nets = tuple((f"Seat {seat}", signed_units(net["net"])) for seat, net in ledger["seats"].items())
    pd = ledger["player_dealer"]
    return rows, nets, None if pd is None else f"Seat {pd['seat']} {signed_units(pd['net'])}"


def _late_change(op: dict[str, Any]) -> Evidence:
    return Evidence(
        op["seq"], clock(op["wall"]), late_change(parse_spot(op["spot"]), op["held"], op["due"], op["alien"])
    )


def _mispay(op: dict[str, Any]) -> Evidence:
    return Evidence(
        op["seq"],
        clock(op["wall"]),
        mispay(parse_spot(op["spot"]), op["held"], op["due"], op["supervisor"], op["reason"]),
    )


def story(entry: dict[str, Any]) -> RoundStory:
    """The round as recall gives it (an open round's hole card already masked), as text rows."""
    rows, nets, pd_net = _ledger(entry["ledger"])
    pd = (entry["ledger"] or {}).get("player_dealer")
    first, last = entry["records"]
    return RoundStory(
        round_id=entry["round_id"],
        state=_state(entry),
        started=stamp(entry["started"]),
        ended=stamp(entry["ended"]),
        records=f"#{first}–#{last}",
        steps=_steps(entry),
        refused=tuple(_refused(r) for r in entry["refused"]),
        devices=tuple(_device(d) for d in entry["devices"]),
        corrections=tuple(_correction(fix) for fix in entry["corrections"]),
        ledger=rows,
        seat_nets=nets,
        player_dealer_net=pd_net,
        hands=_hands(entry["ledger"]),
        bank=None if pd is None else f"Seat {pd['seat']} banks {units(pd['bank'])}",
        dealers=", ".join(entry.get("dealers", ())) or None,
        late_changes=tuple(_late_change(op) for op in entry.get("late_changes", ())),
        mispays=tuple(_mispay(op) for op in entry.get("mispays", ())),
    )

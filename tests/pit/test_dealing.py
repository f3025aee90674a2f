"""Who deals and what the wager reader finds, followed record by record (pit/service/dealing.py), on
records written the way the table and its reader adapter write them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from dealer_assist.journal.journal_file import RecordKind, canonical_json, read_records
from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, NoMoreBets, PlaceWager, WagerKind
from dealer_assist.table.codec import encode
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import (
    AcceptPayout,
    BankAccepted,
    DealerSignIn,
    DealerSignOut,
    ScanFor,
    SettlementConfirmed,
    SpotReading,
    SpotsScanned,
)
from dealer_assist.table.session_operations import (
    DealerSignedIn,
    DealerSignedOut,
    LateChange,
    LateChangeUndone,
    MispayAccepted,
    RoundClosed,
)
from dealer_assist.table.spots import parse_spot
from dealer_assist.table.table_facts import table_facts
from devices.kinds.events import SpotCleared, WagersFault, WagersHello
from devices.table_owner.feed import evidence
from pit.service.floor.alerts import AlertKind, record_alerts
from pit.service.floor.dealing import NO_DEALER, DealerSums, Dealing, Tally, Watch, dealer_report
from pit.stream.wire import RecordMessage

JOURNAL = "ab" * 32
START = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
SPOT = parse_spot("2.base")


class Records:
    """A journal's records as the table writes them, a minute apart."""

    def __init__(self) -> None:
        self.found: list[RecordMessage] = []

    def add(self, kind: RecordKind, body: dict[str, Any], round_id: int | None) -> RecordMessage:
        seq = len(self.found) + 1
        wall = (START + timedelta(minutes=seq)).isoformat()
        self.found.append(RecordMessage("T1", JOURNAL, seq, wall, seq, round_id, kind, canonical_json(body), "cd" * 32))
        return self.found[-1]

    def input(self, round_id: int | None, event: object, *ops: object) -> RecordMessage:
        kind = RecordKind.CLOSE if any(isinstance(op, RoundClosed) for op in ops) else RecordKind.INPUT
        return self.add(kind, {"input": encode(event), "ops": [encode(op) for op in ops], "now": 1.0}, round_id)

    def refused(self, round_id: int | None, event: object) -> RecordMessage:
        return self.add(RecordKind.REFUSED, {"input": encode(event), "now": 1.0, "error": {"code": "x"}}, round_id)

    def device(self, round_id: int | None, event: object) -> RecordMessage:
        return self.add(RecordKind.DEVICE, evidence("wagers", event).body, round_id)  # type: ignore[arg-type]

    def closed(self, round_id: int) -> RecordMessage:
        return self.input(round_id, SettlementConfirmed(), RoundClosed(round_id, 0, False))


def _followed(found: list[RecordMessage]) -> Dealing:
    dealing = Dealing()
    for message in found:
        dealing.take(message)
    return dealing


def _scan(purpose: ScanFor) -> SpotsScanned:
    return SpotsScanned(purpose, (SpotReading(SPOT, 2, 5_000),))


def test_the_dealers_taps_count_for_who_was_signed_in_and_bank_choices_for_the_round_they_open() -> None:
    j = Records()
    j.input(None, DealerSignIn("Ana"), DealerSignedIn("Ana"))
    j.input(None, BankAccepted(1, 50_000))  # between rounds: it opens round 1
    j.input(1, PlaceWager(2, WagerKind.BASE, 2_500))
    j.input(1, SpotReading(SPOT, 1, 2_500))  # the reader's, not a tap
    j.refused(1, NoMoreBets())  # a tap refused is a tap
    j.input(1, _scan(ScanFor.NO_MORE_BETS))  # "No more bets" gone in with the reader's scan
    j.input(1, _scan(ScanFor.READING))
    j.input(1, DealerSignIn("Ben"), DealerSignedIn("Ben"))  # a relief mid-round
    j.input(1, Decide(2, 0, Action.STAND))
    j.input(1, AcceptPayout("Floor", "gone"), MispayAccepted(SPOT, 2_500, 5_000, "Floor", "gone"))
    j.closed(1)
    j.input(None, DealerSignOut(), DealerSignedOut("Ben"))
    j.input(None, BankAccepted(2, 50_000))
    dealing = _followed(j.found)
    assert dealing.tallies == {
        (JOURNAL, 1, "Ana"): Tally(taps=4),
        (JOURNAL, 1, "Ben"): Tally(taps=2, mispays=1, rounds=1),  # no card: whoever closed it
        (JOURNAL, 2, NO_DEALER): Tally(taps=1),
    }
    ana, ben = dealing.stints[(JOURNAL, 1)], dealing.stints[(JOURNAL, 8)]
    assert (ana.dealer, ana.began, ana.ended) == ("Ana", START + timedelta(minutes=1), START + timedelta(minutes=8))
    assert (ben.dealer, ben.began, ben.ended) == ("Ben", START + timedelta(minutes=8), START + timedelta(minutes=12))


def test_a_stint_not_signed_out_lasts_to_its_last_record() -> None:
    j = Records()
    j.input(None, DealerSignIn("Ana"), DealerSignedIn("Ana"))
    j.device(None, WagersHello("v", "m", "s", "1", "1", "b1", "casino"))
    assert _followed(j.found).stints[(JOURNAL, 1)].ended == START + timedelta(minutes=2)


def test_a_late_change_is_raised_once_until_its_chips_are_put_back() -> None:
    j = Records()
    first = j.input(1, SpotReading(SPOT, 2, 3_000), LateChange(SPOT, 2_500, 3_000, 0))
    j.input(1, SpotReading(SPOT, 3, 3_500), LateChange(SPOT, 2_500, 3_500, 0))  # moved again: the same late change
    j.input(1, SpotReading(SPOT, 1, 2_500), LateChangeUndone(SPOT))
    again = j.input(1, SpotReading(SPOT, 1, 2_000, 1), LateChange(SPOT, 2_500, 2_000, 1))
    j.closed(1)
    j.input(2, SpotReading(SPOT, 2, 3_000), LateChange(SPOT, 2_500, 3_000, 0))  # the next round's own
    dealing = _followed(j.found)
    late = [cause for cause in dealing.alerts if cause.kind is AlertKind.LATE_CHANGE]
    assert [(c.round_id, c.seq) for c in late] == [(1, first.seq), (1, again.seq), (2, 6)]
    assert (
        late[0].text == "late change: Seat 2 · Base: $30 on the spot, $25 closed · late change; the closed wager stands"
    )
    assert "1 chip of another casino" in late[1].text
    assert dealing.tallies[(JOURNAL, 1, NO_DEALER)].late_changes == 2


def test_a_mispay_is_alerted_with_its_amount_the_supervisor_and_the_reason() -> None:
    j = Records()
    record = j.input(
        3, AcceptPayout("Floor 1", "player left"), MispayAccepted(SPOT, 2_500, 5_000, "Floor 1", "player left")
    )
    [cause] = record_alerts(record)
    assert cause.kind is AlertKind.MISPAY and (cause.round_id, cause.seq) == (3, 1)
    assert (
        cause.text
        == "mispay: Seat 2 · Base: $25 on the spot, $50 due · $25 underpaid · accepted by Floor 1: player left"
    )


def test_a_spot_faulted_longer_than_a_round_is_raised_once_at_the_close_of_the_round_after() -> None:
    j = Records()
    j.device(1, WagersFault("ANTENNA", SPOT, "antenna fault"))  # begins in round 1
    j.closed(1)
    j.device(None, WagersFault("ANTENNA", SPOT, "antenna fault"))  # the same fault told again
    told = j.closed(2)
    j.closed(3)
    j.device(None, SpotCleared(SPOT))
    j.device(None, WagersFault("COLLISION", SPOT, ""))  # a new fault, between rounds: the next round is the one after
    j.device(4, SpotCleared(parse_spot("3.base")))  # another spot's clear ends nothing here
    second = j.closed(4)
    j.device(5, WagersFault("ANTENNA", parse_spot("5.base"), ""))
    j.device(5, SpotCleared(parse_spot("5.base")))
    j.closed(6)
    faults = [c for c in _followed(j.found).alerts if c.kind is AlertKind.SPOT_FAULT]
    assert [(c.round_id, c.seq) for c in faults] == [(2, told.seq), (4, second.seq)]
    assert faults[0].text == (
        "wager reader spot 2.base (Seat 2 · Base) faulted longer than a round: since record 1"
        " (round 1), still at the close of round 2 (ANTENNA antenna fault); its wagers are keyed"
    )
    assert "since record 7 (between rounds)" in faults[1].text and faults[0].cause != faults[1].cause


def test_a_new_boot_or_the_table_starting_again_forgets_the_faults_as_the_table_does() -> None:
    for forget in ("boot", "resumed"):
        j = Records()
        j.device(None, WagersHello("v", "m", "s", "1", "1", "b1", "casino"))
        j.device(1, WagersFault("ANTENNA", SPOT, ""))
        j.device(
            1, WagersHello("v", "m", "s", "1", "1", "b1", "casino")
        )  # the link again, the same boot: still faulted
        if forget == "boot":
            j.device(1, WagersHello("v", "m", "s", "1", "1", "b2", "casino"))
        else:
            j.add(RecordKind.RESUMED, {"round_id": 1}, 1)
        j.closed(1)
        j.closed(2)
        assert _followed(j.found).alerts == [], forget


def test_where_a_batch_ends_changes_nothing_that_is_derived() -> None:
    j = Records()
    j.input(None, DealerSignIn("Ana"), DealerSignedIn("Ana"))
    j.device(1, WagersFault("ANTENNA", SPOT, ""))
    j.input(1, PlaceWager(2, WagerKind.BASE, 2_500))
    j.input(1, SpotReading(SPOT, 2, 3_000), LateChange(SPOT, 2_500, 3_000, 0))
    j.closed(1)
    j.input(2, SpotReading(SPOT, 2, 3_500), LateChange(SPOT, 2_500, 3_500, 0))
    j.closed(2)
    whole = _followed(j.found)
    for cut in range(1, len(j.found)):
        first = _followed(j.found[:cut])
        second = Dealing({JOURNAL: Watch.restored(first.watches[JOURNAL].state())})
        for message in j.found[cut:]:
            second.take(message)
        assert first.alerts + second.alerts == whole.alerts
        assert {**first.stints, **second.stints} == whole.stints
        tallies = dict(first.tallies)
        for key, tally in second.tallies.items():
            before = tallies.get(key, Tally())
            tallies[key] = Tally(
                before.taps + tally.taps,
                before.late_changes + tally.late_changes,
                before.mispays + tally.mispays,
                before.rounds + tally.rounds,
            )
        assert tallies == whole.tallies


def test_the_report_rows_are_by_name_with_no_dealer_last_and_rates_where_there_is_time() -> None:
    sums = {
        "ben": DealerSums({"T2"}, 1800.0, 20, Tally(220, 1, 0)),
        NO_DEALER: DealerSums({"T3"}, 0.0, 4, Tally(9)),
        "Ana": DealerSums({"T1", "T2"}, 7200.0, 100, Tally(1_050, 0, 2)),
    }
    report = dealer_report(sums)
    assert [row["dealer"] for row in report["dealers"]] == ["Ana", "ben", None]
    assert report["dealers"][0] == {
        "dealer": "Ana",
        "tables": ["T1", "T2"],
        "hours": 2.0,
        "rounds": 100,
        "rounds_per_hour": 50.0,
        "taps": 1_050,
        "taps_per_round": 10.5,
        "late_changes": 0,
        "mispays": 2,
    }
    assert report["dealers"][2]["hours"] is None and report["dealers"][2]["rounds_per_hour"] is None
    assert "SpotsScanned (no_more_bets)" in report["taps_counted"] and "SpotReading" not in report["taps_counted"]


def _dealt(tmp_path, relieved_after_cards: int | None, first: str | None = "Ana") -> dict[str | None, dict[str, Any]]:
    """One round at a journaled table, dealt by the bench player: `first` signed in before it, Ben K.
    signing in after `relieved_after_cards` of its cards (None: before the round closes, no card
    dealt by then counts); the per-dealer rows the pit works out from the journal's records."""
    tmp_path.mkdir()
    table = Table.open(tmp_path / "T1.db", TableConfig("T1", "nobust-4.0"))
    if first is not None:
        table.submit(DealerSignIn(first))
    player, cards = BenchPlayer(3), 0
    while table.rounds_closed < 1:
        if cards == relieved_after_cards:
            table.submit(DealerSignIn("Ben K."))
            relieved_after_cards = -1
        event = player.next_input(table_facts(table.session))
        table.submit(event)
        cards += isinstance(event, CardDrawn)
    path = table.path
    table.close()
    dealing = Dealing()
    for record in read_records(path):
        dealing.take(RecordMessage.of("T1", JOURNAL, record))
    sums: dict[str, DealerSums] = {}
    for (_, _, dealer), tally in dealing.tallies.items():
        sums.setdefault(dealer, DealerSums()).add(tally)
    report = dealer_report(sums)
    assert report["rounds_counted"].startswith(
        "Each round closed in the range counts once, for the dealer signed in when its first card was dealt"
    )
    return {row["dealer"]: row for row in report["dealers"]}


def test_a_round_counts_once_for_the_dealer_signed_in_at_its_first_card(tmp_path) -> None:
    rows = _dealt(tmp_path / "relief", relieved_after_cards=3)
    assert {name: row["rounds"] for name, row in rows.items()} == {"Ana": 1, "Ben K.": 0}, "a relief mid-round"
    assert rows["Ben K."]["taps"] > 0, "the relief's own taps still count for the relief"
    rows = _dealt(tmp_path / "before", relieved_after_cards=0)
    assert rows["Ben K."]["rounds"] == 1 == sum(row["rounds"] for row in rows.values()), "relieved before the deal"
    rows = _dealt(tmp_path / "nobody", relieved_after_cards=2, first=None)
    assert rows[None]["rounds"] == 1 and rows["Ben K."]["rounds"] == 0, "nobody signed in at the first card"

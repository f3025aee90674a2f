"""Keying made fast (RULES.md §8.22): a chip goes on the seat's wager as it is tapped, Clear takes it
off, and "Same as last round" places a seat's wagers of the last round, or the whole table's, in one
tap: each wager an input through the table controller, journaled and checked as any wager."""

from __future__ import annotations

import pytest

from dealer_assist.journal.journal_file import RecordKind, read_records
from dealer_assist.rules.inputs import Action, PlaceWager, WagerKind
from dealer_assist.rules.phases import Need
from dealer_assist.table.codec import decode
from tests.screenshots import shoot

# nobust-4.0, the player-dealer in seat 4: seats 1, 3 and 5 are dealt T 9 (19, which stands), the
# player-dealer T 7 (17, which stands).
CARDS = ["TS", "TH", "TD", "TC", "9S", "9H", "9D", "7C"]
LAST = [
    PlaceWager(1, WagerKind.BASE, 2_500),
    PlaceWager(1, WagerKind.LUCKY_LUCKY, 500),
    PlaceWager(3, WagerKind.BASE, 1_000),
    PlaceWager(3, WagerKind.BUSTER, 500),
    PlaceWager(5, WagerKind.BASE, 5_000),
]


def _placed(t) -> list[PlaceWager]:
    """The wagers journaled since the round opened, in order."""
    records = [r for r in read_records(t.controller.journal_path) if r.kind in (RecordKind.INPUT, RecordKind.CLOSE)]
    opened = max(i for i, r in enumerate(records) if any(op["type"] == "RoundOpened" for op in r.body["ops"]))
    return [event for r in records[opened + 1 :] if isinstance(event := decode(r.body["input"]), PlaceWager)]


def _wagers(t, seat: int) -> tuple[int, int, int]:
    view = t.snap.seat(seat)
    return view.base, view.lucky_lucky, view.buster


def _first_round(t, bank_to: int) -> None:
    """Round 1 with LAST's wagers, played to the end; then `bank_to` takes the bank."""
    for wager in LAST:
        t.wager(wager.seat, wager.kind, wager.amount)
    t.deal(8)
    if t.snap.need is Need.PAYMENTS:  # the Lucky Lucky, settled after the deal
        t.tap(t.view.payments.confirm)
    for _ in range(3):
        t.decide(Action.STAND)
    assert t.snap.need is Need.NOTHING
    t.tap(t.view.settlement.confirm)
    t.take_bank(bank_to, 50_000)
    assert t.snap.need is Need.WAGERS


def test_nothing_to_repeat_on_the_first_round_and_nothing_once_betting_is_closed(table):
    t = table("nobust-4.0", CARDS)
    pad = t.view.wagers
    t.tap_seat(1)
    assert not pad.seat_as_last.isEnabled() and not pad.table_as_last.isEnabled(), "no round has closed yet"
    _first_round(t, bank_to=4)
    t.tap_seat(1)
    assert pad.seat_as_last.isEnabled() and pad.table_as_last.isEnabled()
    t.tap(pad.table_as_last)
    t.tap(pad.no_more_bets)
    t.tap_seat(3)
    assert not pad.seat_as_last.isEnabled() and not pad.table_as_last.isEnabled(), "betting is closed"


def test_the_seats_and_the_tables_same_as_last_round_place_the_last_rounds_wagers_through_the_journal(table):
    t = table("nobust-4.0", CARDS)
    pad = t.view.wagers
    _first_round(t, bank_to=4)
    t.tap_seat(3)
    assert pad.seat_as_last.isEnabled()
    t.tap(pad.seat_as_last)
    assert _placed(t) == LAST[2:4], "seat 3's base, then its Buster: each an input the table journaled"
    assert _wagers(t, 3) == (1_000, 0, 500) and not t.view.banner.isVisible()
    assert not pad.seat_as_last.isEnabled(), "seat 3 holds its last round's wagers: nothing left to repeat"
    t.wager(1, WagerKind.BASE, 1_500)  # seat 1 bets anew: the table's repeat leaves it as keyed
    t.tap(pad.table_as_last)
    assert _placed(t) == [
        *LAST[2:4],
        PlaceWager(1, WagerKind.BASE, 500),
        PlaceWager(1, WagerKind.BASE, 1_000),
        PlaceWager(1, WagerKind.BASE, 1_500),
        LAST[4],
    ]
    assert [_wagers(t, seat) for seat in (1, 3, 5)] == [(1_500, 0, 0), (1_000, 0, 500), (5_000, 0, 0)]
    assert not pad.table_as_last.isEnabled(), "every seat that wagered last round holds a wager"
    t.tap_seat(1)
    t.tap(pad.seat_as_last)  # seat 1 as it was: the base back to $25, its Lucky Lucky again
    assert _wagers(t, 1) == (2_500, 500, 0) and _placed(t)[-2:] == LAST[:2]


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_wagers_of_a_seat_that_banks_now_are_left_out_and_said_on_its_seat(table, tmp_path, size):
    t = table("nobust-4.0", CARDS, size=size)
    _first_round(t, bank_to=5)  # seat 4 refuses its second turn; seat 5, which bet $50, banks
    note = t.view.seats[5].note
    assert t.view.seats[5].notes.currentWidget() is note
    assert note.text() == "Not repeated: $50 · banks now" and not note.cut
    t.tap_seat(1)
    assert t.view.wagers.seat_as_last.isEnabled() and t.view.wagers.table_as_last.isEnabled()
    shoot(t.window, tmp_path, f"keyed-same-as-last-{size[0]}x{size[1]}.png")
    t.tap(t.view.wagers.table_as_last)
    assert _placed(t) == LAST[:4], "seats 1 and 3 as last round; nothing on the player-dealer's seat"
    assert not t.view.banner.isVisible()
    assert not t.view.wagers.table_as_last.isEnabled()


def test_a_chip_goes_on_at_once_clear_takes_it_off_and_a_chip_over_the_limit_is_refused(table):
    t = table("nobust-4.0", CARDS)
    pad = t.view.wagers
    t.tap_seat(2)
    t.tap(pad.chip_buttons[2_500])
    assert _wagers(t, 2) == (2_500, 0, 0) and t.view.seats[2].wagers.text() == "$25"
    assert _placed(t) == [PlaceWager(2, WagerKind.BASE, 2_500)], "no confirmation: the chip is the input"
    t.tap(pad.clear)
    assert _wagers(t, 2) == (0, 0, 0) and _placed(t)[-1] == PlaceWager(2, WagerKind.BASE, 0)
    for _ in range(5):
        t.tap(pad.chip_buttons[10_000])
    assert _wagers(t, 2) == (50_000, 0, 0) and not t.view.banner.isVisible()
    t.tap(pad.chip_buttons[100])  # $501: over the $500 maximum
    assert t.view.banner.isVisible()
    assert t.view.banner.message.text() == "Refused (rule 7): seat 2's base $501 is outside the limits $5-$500"
    assert _wagers(t, 2) == (50_000, 0, 0) and len(_placed(t)) == 7, "refused: the wager stands as it was"


def test_a_seat_tapped_is_keyed_from_its_base_wager(table):
    t = table("nobust-4.0", CARDS)
    pad = t.view.wagers
    t.wager(1, WagerKind.BASE, 2_500)
    t.tap(pad.kind_buttons[WagerKind.LUCKY_LUCKY])
    t.tap(pad.chip_buttons[500])
    t.tap_seat(3)
    assert pad.kind() == WagerKind.BASE, "one tap fewer for the next seat's base"
    t.tap(pad.chip_buttons[500])
    assert [_wagers(t, seat) for seat in (1, 3)] == [(2_500, 500, 0), (500, 0, 0)]

"""The last round's wagers, offered again ("Same as last round", RULES.md §8.22): the session carries
them from the round closed last, through a restart of the table, and the snapshot says which still
fit and in what order they go in."""

from __future__ import annotations

from pathlib import Path

from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.inputs import PlaceWager, WagerKind
from dealer_assist.rules.phases import Phase
from dealer_assist.rules.refusals import Refusal
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig, TableSession
from dealer_assist.table.session_inputs import BankAccepted, ShoeLoaded
from dealer_assist.table.snapshot import LastRound, LeftOut, build_table_snapshot
from dealer_assist.table.table_facts import table_facts

T0 = 1_800_000_000.0


def _offered(snapshot) -> dict[tuple[int, WagerKind], int]:
    """Every wager the snapshot offers again or leaves out, by seat and kind."""
    return {
        **{(e.seat, e.kind): e.amount for last in snapshot.last_round for e in last.again},
        **{(last.seat, w.kind): w.amount for last in snapshot.last_round for w in last.left_out},
    }


def test_the_last_rounds_wagers_are_offered_again_after_a_restart_between_rounds_and_mid_betting(tmp_path: Path):
    path = tmp_path / "table.db"
    table = Table.open(path, TableConfig("T-1", "nobust-4.0"))
    player = BenchPlayer(7)
    wagered: dict[tuple[int, WagerKind], int] = {}
    while table.rounds_closed < 3:
        tracker = table.session.tracker
        if tracker is not None and tracker.phase is Phase.SETTLED:
            wagered = {(seat, kind): amount for seat, kinds in tracker.wagers.items() for kind, amount in kinds.items()}
        table.submit(player.next_input(table_facts(table.session)))
    assert wagered
    table.close()

    again = Table.open(path)  # restarted between rounds: the bank is offered, no round is open
    while again.session.tracker is None:
        again.submit(player.next_input(table_facts(again.session)))
    snapshot = build_table_snapshot(again.session)
    assert _offered(snapshot) == wagered, "the round closed last, as it was closed before the restart"
    pd_seat = again.session.tracker.pd_seat
    assert all(
        w.code == Refusal.PLAYER_DEALER_SEAT
        for last in snapshot.last_round
        if last.seat == pd_seat
        for w in last.left_out
    )
    first = next(e for last in snapshot.last_round for e in last.again)
    again.submit(first)  # one wager of the new round in; the next start replays it from the journal
    mid_betting = build_table_snapshot(again.session)
    again.close()
    once_more = Table.open(path)
    assert build_table_snapshot(once_more.session).last_round == mid_betting.last_round
    assert next(last for last in mid_betting.last_round if last.seat == first.seat).again[:1] != (first,), (
        "placed: not offered again"
    )
    once_more.close()


def test_a_bet_the_profile_does_not_offer_is_left_out_and_a_side_bet_goes_in_after_its_base():
    config = TableConfig("T-1", "c21-8.0")
    session = TableSession(config)
    session.apply(ShoeLoaded("S-1", 6), T0)
    session.apply(BankAccepted(1, 50_000), T0)
    carried = session.between_rounds() | {
        "last_wagers": {"2": {"base": 2_500, "lucky_lucky": 500, "buster": 500}, "3": {"buster": 100}}
    }
    restored = TableSession(config, carried)
    assert restored.tracker is not None and restored.tracker.phase is Phase.BETTING
    snapshot = build_table_snapshot(restored)
    assert snapshot.last_round == (
        LastRound(
            2,
            (PlaceWager(2, WagerKind.BASE, 2_500), PlaceWager(2, WagerKind.BUSTER, 500)),
            (LeftOut(WagerKind.LUCKY_LUCKY, 500, Refusal.NOT_OFFERED, "c21-8.0 has no Lucky Lucky bet"),),
        ),
        LastRound(
            3,
            (),
            (
                LeftOut(
                    WagerKind.BUSTER, 100, Refusal.SIDE_BET_WITHOUT_BASE, "seat 3: a Buster wager needs a base wager"
                ),
            ),
        ),
    )
    assert snapshot.table_again == (PlaceWager(2, WagerKind.BASE, 2_500), PlaceWager(2, WagerKind.BUSTER, 500))
    restored.apply(PlaceWager(2, WagerKind.BASE, 1_000), T0)
    snapshot = build_table_snapshot(restored)
    assert snapshot.table_again == (), "a seat keyed already keeps what it holds"
    assert snapshot.last_round_of(2).again == (
        PlaceWager(2, WagerKind.BASE, 2_500),
        PlaceWager(2, WagerKind.BUSTER, 500),
    )

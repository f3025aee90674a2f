"""A small floor for the web tests: real bench journals of three tables in a test double of the
store, with users of each role, a token, and alerts; house dealers signed in at most tables."""

from __future__ import annotations

from pathlib import Path

from memory_pit import MemoryPitData

from dealer_assist.play.bench import BenchPlayer
from dealer_assist.rules.phases import Phase
from dealer_assist.table.journaled_table import Table
from dealer_assist.table.session import TableConfig
from dealer_assist.table.session_inputs import DealerSignIn
from dealer_assist.table.table_facts import table_facts
from pit.service.floor.data import Role

PASSWORDS = {"sue": "sue-pass-1", "sam": "sam-pass-1", "meg": "meg-pass-1"}
TOKEN = "tok-surveillance-0123456789"
SUPERVISOR_TOKEN = "tok-supervisor-0123456789"


def play(table: Table, rounds: int, seed: int, dealers: tuple[str, ...] = ()) -> None:
    """`rounds` more rounds of the bench's player; with `dealers`, each signs in at the touchscreen in
    turn (a relief between rounds) for an equal share of them."""
    player = BenchPlayer(seed)
    start = table.rounds_closed
    target = start + rounds
    signed = 0
    while table.rounds_closed < target:
        if signed < len(dealers) and table.rounds_closed >= start + rounds * signed // len(dealers):
            table.submit(DealerSignIn(dealers[signed]))
            signed += 1
        table.submit(player.next_input(table_facts(table.session)))


def deal_until_hole_card(table: Table, seed: int) -> None:
    """Into the next round, up to the moment the player-dealer's hole card is dealt and still hidden."""
    player = BenchPlayer(seed)
    while (
        table.session.tracker is None
        or table.session.tracker.phase in (Phase.BETTING,)
        or not any(card for card in table.session.tracker.dealer[1:])
    ):
        table.submit(player.next_input(table_facts(table.session)))


DEALERS = {
    "T-1": ("Ana R.", "Ben K."),
    "T-2": ("Cleo M.",),
    "T-4": ("Dana P.",),
    "T-5": ("Eli S.",),
    "T-6": ("Ana R.",),
    "T-7": ("Finn O.",),
}  # who signs in to deal each table's rounds; nobody at T-3 and T-8


def bench_tables(folder: Path) -> dict[str, Table]:
    """T-1 and T-2 with closed rounds; T-3 mid-round with the hole card hidden. The tables stay
    open so a test can deal on; the caller closes them."""
    tables = {}
    for table_id, profile, rounds, seed in (
        ("T-1", "c21-8.0", 6, 11),
        ("T-2", "nobust-4.0", 4, 12),
        ("T-3", "c21-8.0", 3, 13),
    ):
        table = Table.open(folder / f"{table_id}.db", TableConfig(table_id, profile))
        play(table, rounds, seed, DEALERS.get(table_id, ()))
        tables[table_id] = table
    deal_until_hole_card(tables["T-3"], 13)
    return tables


MORE_TABLES = (
    ("T-4", "nobust-4.0"),
    ("T-5", "c21-8.0"),
    ("T-6", "nobust-4.0"),
    ("T-7", "c21-8.0"),
    ("T-8", "nobust-4.0"),
)


def more_tables(folder: Path) -> dict[str, Table]:
    """T-4 to T-8, each with a few closed rounds, for a floor of eight; open, the caller closes them."""
    tables = {}
    for number, (table_id, profile) in enumerate(MORE_TABLES):
        table = Table.open(folder / f"{table_id}.db", TableConfig(table_id, profile))
        play(table, 2 + number, 20 + number, DEALERS.get(table_id, ()))
        tables[table_id] = table
    return tables


def floor_data(folder: Path) -> MemoryPitData:
    """The store's view of the three tables' journals in `folder`, with users, tokens and alerts."""
    data = MemoryPitData()
    data.add_table("T-1", folder / "T-1.db", devices={"shoe": "up", "peek": "up", "camera": "up"})
    data.add_table("T-2", folder / "T-2.db", devices={"shoe": "up", "peek": "down"}, link="behind", behind=1312)
    data.add_table("T-3", folder / "T-3.db", devices={"shoe": "up", "peek": "up"}, link="silent", phase="dealing")
    data.add_user("sue", PASSWORDS["sue"], Role.SUPERVISOR)
    data.add_user("sam", PASSWORDS["sam"], Role.SURVEILLANCE)
    data.add_user("meg", PASSWORDS["meg"], Role.MANAGER)
    data.add_token(TOKEN, "sam", Role.SURVEILLANCE)
    data.add_token(SUPERVISOR_TOKEN, "sue", Role.SUPERVISOR)
    data.raise_alert("T-2", "device_link_down", "peek: link down for 14 s", round_id=4)
    data.raise_alert("T-1", "large_payout", "Seat 1 paid $1,010 on base", round_id=5, seq=120)
    data.raise_alert("T-3", "table_silent", "no status for 15 s")
    return data


def bench_journals(folder: Path) -> Path:
    """The three tables' journals, written and closed, for tests that only read them."""
    for table in bench_tables(folder).values():
        table.close()
    return folder

"""`dealer-assist pit init|table add|nats-config|user add|token add` as a room's technician runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pit.service.floor.data import LoginRefused, Role, User
from pit.service.store.pit_store import PitStore
from pit.stream.broker import public_key, read_creds
from pit.trial.local_services import PostgresCluster
from pit.trial.room import FIRST_LOGIN, Room
from tests.pit.pit_service import fresh_database

pytestmark = pytest.mark.slow
ROOT = Path(__file__).parents[2]


def _pit(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "pit", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def _error(done: subprocess.CompletedProcess[str]) -> dict[str, str]:
    return dict(json.loads(done.stderr.strip().splitlines()[-1])["error"])


def test_init_migrates_once_and_keeps_one_pit_identity(postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    first, again = _pit("init", "--db", dsn), _pit("init", "--db", dsn)
    assert first.returncode == again.returncode == 0, first.stderr
    assert json.loads(first.stdout)["migrations"] == [
        "001_store",
        "002_many_machines",
        "003_dealers",
        "004_records_lighter",
        "005_records_unkeyed",
        "006_rounds_counted",
        "007_gaps",
        "008_public_log",
        "009_head_office_rooms",
    ]
    assert json.loads(again.stdout) == {"migrations": [], "pit_key": json.loads(first.stdout)["pit_key"]}


def test_a_table_gets_credentials_that_the_broker_configuration_names(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    dsn = fresh_database(postgres)
    _pit("init", "--db", dsn)
    added = _pit("table", "add", "T-07", "--db", dsn)
    assert added.returncode == 0, added.stderr
    key = public_key(read_creds(added.stdout))
    assert _error(_pit("table", "add", "T-07", "--db", dsn))["code"] == "exists"
    bad = _pit("table", "add", "T 07!", "--db", dsn)
    assert bad.returncode == 1 and "1-32 characters" in _error(bad)["message"]
    config = _pit("nats-config", "--db", dsn, "--port", "4333", "--store", str(tmp_path / "js"))
    assert config.returncode == 0
    assert key in config.stdout and "da.records.T-07.>" in config.stdout and '"0.0.0.0:4333"' in config.stdout
    pit_key = json.loads(_pit("init", "--db", dsn).stdout)["pit_key"]
    assert pit_key in config.stdout


def test_users_and_tokens(postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    assert _error(_pit("token", "add", "wall", "--role", "manager", "--db", dsn))["code"] == "store_not_set_up"
    _pit("init", "--db", dsn)
    added = _pit(
        "user", "add", "ana", "--role", "supervisor", "--db", dsn, "--password-stdin", stdin="a long password\n"
    )
    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout) == {"user": "ana", "role": "supervisor"}
    short = _pit("user", "add", "bo", "--role", "manager", "--db", dsn, "--password-stdin", stdin="short\n")
    assert short.returncode == 1 and "at least 8" in _error(short)["message"]
    assert _pit("user", "add", "cy", "--role", "boss", "--db", dsn, "--password-stdin").returncode == 2
    token = _pit("token", "add", "wall", "--role", "surveillance", "--db", dsn)
    assert token.returncode == 0 and len(token.stdout.splitlines()) == 1
    store = PitStore.open(dsn)
    try:
        assert store.login("ana", "a long password", "test") == User("ana", Role.SUPERVISOR)
        assert store.token_user(token.stdout.strip()) == User("wall", Role.SURVEILLANCE)
    finally:
        store.close()


def test_a_store_that_cannot_be_reached_is_named() -> None:
    done = _pit("init", "--db", "postgresql://pit@127.0.0.1:1/pit")
    assert done.returncode == 1
    assert _error(done)["code"] == "store_unreachable" and "127.0.0.1:1" in _error(done)["message"]
    assert _error(_pit("serve", "--nats", "nats://x", "--db", "x", "--http", "nowhere"))["code"] == "bad_arguments"


def test_the_payout_threshold_is_a_room_setting(postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    _pit("init", "--db", dsn)
    done = _pit("payout-threshold", "2500", "--db", dsn)
    assert done.returncode == 0 and json.loads(done.stdout) == {"payout_threshold": 2500}
    assert _error(_pit("payout-threshold", "0", "--db", dsn))["code"] == "bad_value"
    store = PitStore.open(dsn)
    try:
        assert store._all("SELECT value FROM settings WHERE name = 'payout_threshold'") == [(2500,)]
    finally:
        store.close()


def test_nats_config_places_a_node_in_a_cluster_a_room_under_a_head_office_and_a_head_office(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    dsn = fresh_database(postgres)
    _pit("init", "--db", dsn)
    common = ("nats-config", "--db", dsn, "--port", "4222", "--store", str(tmp_path / "js"))
    routes = "nats://a:6222,nats://b:6223,nats://c:6224"
    node = _pit(*common, "--cluster", "room", "--node", "2", "--routes", routes)
    assert node.returncode == 0, node.stderr
    assert 'server_name: "room-2"' in node.stdout and 'listen: "0.0.0.0:6223"' in node.stdout
    assert json.dumps(routes.split(",")) in node.stdout
    leaf = ("--leaf-listen", "10.0.0.5:7422", "--leaf-creds-dir", str(tmp_path))
    office = _pit(*common, "--head-office", "--rooms", "east,west", *leaf)
    assert office.returncode == 0, office.stderr
    store = PitStore.open(dsn)
    try:
        passwords = dict(store._all("SELECT name, leaf_password FROM rooms"))
    finally:
        store.close()
    creds = {room: tmp_path / f"{room}.leaf-creds" for room in ("east", "west")}
    assert set(passwords) == {"east", "west"} and all(f'"password": "{p}"' in office.stdout for p in passwords.values())
    assert all(json.loads(creds[room].read_text())["leaf_password"] == p for room, p in passwords.items())
    assert all(creds[room].stat().st_mode & 0o777 == 0o600 for room in creds)  # secrets in files only their owner reads
    assert not any(p in office.stderr for p in passwords.values()) and str(creds["east"]) in office.stderr
    assert 'listen: "10.0.0.5:7422"' in office.stdout and 'advertise: "10.0.0.5:7422"' in office.stdout
    again = _pit(*common, "--head-office", "--rooms", "east", *leaf)
    assert f'"password": "{passwords["east"]}"' in again.stdout and "west" not in again.stdout  # the rooms named now
    room = _pit(*common, "--room", "east", "--leaf-remote", "nats-leaf://hq:7422", "--leaf-creds", str(creds["east"]))
    assert 'domain: "east"' in room.stdout and f'"nats-leaf://east:{passwords["east"]}@hq:7422"' in room.stdout
    assert 'deny_exports: ["da.>"]' in room.stdout and 'deny_imports: ["da.>"]' in room.stdout
    wrong = _pit(*common, "--room", "west", "--leaf-remote", "nats-leaf://hq:7422", "--leaf-creds", str(creds["east"]))
    assert "room 'east''s, not --room 'west''s" in _error(wrong)["message"]
    in_url = _pit(
        *common, "--room", "east", "--leaf-remote", "nats-leaf://east:pw@hq:7422", "--leaf-creds", str(creds["east"])
    )
    assert "not the URL" in _error(in_url)["message"]
    assert (
        "--node 4: --routes names 3 nodes"
        in _error(_pit(*common, "--cluster", "room", "--node", "4", "--routes", routes))["message"]
    )
    assert _error(_pit(*common, "--cluster", "room"))["message"] == "--cluster, --node and --routes go together"
    assert "--rooms 'a b'" in _error(_pit(*common, "--head-office", "--rooms", "a b", *leaf))["message"]
    assert _error(_pit(*common, "--head-office", "--rooms", "east"))["message"] == (
        "--head-office, --rooms and --leaf-listen go together"
    )
    assert _error(_pit(*common, "--room", "east"))["code"] == "bad_arguments"


def test_the_stores_address_comes_from_a_file_or_the_environment_as_well_as_the_command_line(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    dsn = fresh_database(postgres)
    held = tmp_path / "pit.dsn"
    held.write_text(dsn + "\n")
    assert _pit("init", "--db-file", str(held)).returncode == 0
    by_env = subprocess.run(
        [sys.executable, "-m", "ui.cli", "pit", "user", "add", "ann", "--role", "supervisor", "--password-stdin"],
        input="ann-pass-1\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=os.environ | {"DA_PIT_DB": dsn},
    )
    assert by_env.returncode == 0, by_env.stderr
    assert PitStore.open(dsn).login("ann", "ann-pass-1", "test") == User("ann", Role.SUPERVISOR)
    nowhere = subprocess.run(
        [sys.executable, "-m", "ui.cli", "pit", "init"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != "DA_PIT_DB"},
    )
    assert nowhere.returncode == 2 and "--db-file FILE, set DA_PIT_DB, or --db DSN" in _error(nowhere)["message"]
    assert _error(_pit("init", "--db-file", str(tmp_path / "none")))["code"] == "bad_arguments"


def test_a_new_password_for_a_user_and_the_old_one_opens_nothing(postgres: PostgresCluster) -> None:
    dsn = fresh_database(postgres)
    _pit("init", "--db", dsn)
    assert (
        _pit(
            "user", "add", "boss", "--role", "manager", "--db", dsn, "--password-stdin", stdin="first-pass-1\n"
        ).returncode
        == 0
    )
    changed = _pit("user", "password", "boss", "--db", dsn, "--password-stdin", stdin="second-pass-2\n")
    assert changed.returncode == 0 and json.loads(changed.stdout) == {
        "user": "boss",
        "role": "manager",
        "password": "set",
    }
    store = PitStore.open(dsn)
    assert store.login("boss", "second-pass-2", "test") == User("boss", Role.MANAGER)
    with pytest.raises(LoginRefused):
        store.login("boss", "first-pass-1", "test")
    assert (
        _error(_pit("user", "password", "nobody", "--db", dsn, "--password-stdin", stdin="x-pass-123\n"))["code"]
        == "not_found"
    )


def test_a_rooms_one_first_account_gets_a_new_password_at_every_start(
    postgres: PostgresCluster, tmp_path: Path
) -> None:
    dsn = fresh_database(postgres)
    _pit("init", "--db", dsn)

    class RoomOnThisDatabase(Room):  # the room's own store, a database of the test's cluster
        @property
        def dsn(self) -> str:
            return dsn

    room = RoomOnThisDatabase(tmp_path, 1, "127.0.0.1:1")
    first, second = room._first_login(), room._first_login()  # two starts of the room
    assert first[0] == second[0] == FIRST_LOGIN and first[1] != second[1], "one account, a new password at each start"
    store = PitStore.open(dsn)
    try:
        assert store.login(FIRST_LOGIN, second[1], "test") == User(FIRST_LOGIN, Role.MANAGER)
        with pytest.raises(LoginRefused):
            store.login(FIRST_LOGIN, first[1], "test")
        assert [row[0] for row in store._all("SELECT name FROM users")] == [FIRST_LOGIN]
    finally:
        store.close()

"""The pit's store for who may come in and what the commands set up: logins and API tokens (with the
lockout), users, the pit's and the tables' broker identities, the rooms, the payout threshold."""

from __future__ import annotations

import json
import secrets
import time
from decimal import Decimal

import psycopg

from dealer_assist.table.lockout import LOCKED_FOR, wrong_tries
from pit.errors import BadValue
from pit.service.accounts import passwords
from pit.service.floor.data import (
    Conflict,
    LoginRefused,
    NotFound,
    Role,
    User,
)
from pit.service.store.store_base import StoreBase, units
from pit.stream.broker import Identity
from pit.stream.wire import check_table_id

_DUMMY_SALT, _DUMMY_HASH = passwords.hash_password("a name nobody has")  # an unknown name costs the same


class StoreAccounts(StoreBase):
    # --- access ---------------------------------------------------------------------------------

    def login(self, name: str, password: str, source: str) -> User:
        with self.pool.connection() as conn:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"login:{name}",))
                tries = [
                    (float(at), outcome)
                    for at, outcome in conn.execute(
                        "SELECT extract(epoch FROM at), outcome FROM logins WHERE name = %s"
                        " AND at > now() - interval '1 day' ORDER BY id",
                        (name,),
                    ).fetchall()
                ]
                now = time.time()
                until = passwords.locked_until(tries)
                row = None
                if until is not None and until > now:
                    outcome = "locked"
                else:
                    row = conn.execute("SELECT role, salt, hash FROM users WHERE name = %s", (name,)).fetchone()
                    salt, digest = (bytes(row[1]), bytes(row[2])) if row is not None else (_DUMMY_SALT, _DUMMY_HASH)
                    outcome = (
                        "ok" if passwords.password_matches(password, salt, digest) and row is not None else "wrong"
                    )
                conn.execute("INSERT INTO logins (name, source, outcome) VALUES (%s, %s, %s)", (name, source, outcome))
        # every try is committed above, before a refusal is raised
        if outcome == "locked" and until is not None:
            raise LoginRefused(f"{name}: locked after {wrong_tries()}; try again in {until - now:.0f} s", until - now)
        if outcome == "wrong" or row is None:
            until = passwords.locked_until([*tries, (now, "wrong")])
            locked_for = until - now if until is not None and until > now else 0.0
            raise LoginRefused("wrong name or password" + (f": {LOCKED_FOR}" if locked_for else ""), locked_for)
        return User(name, Role(row[0]))

    def token_user(self, token: str) -> User | None:
        row = self._one("SELECT name, role FROM tokens WHERE hash = %s", (passwords.token_hash(token),))
        return User(row[0], Role(row[1])) if row is not None else None

    # --- what the commands change ---------------------------------------------------------------

    def add_user(self, name: str, role: Role, password: str) -> User:
        if not name.strip():
            raise BadValue("user name: empty")
        salt, digest = passwords.hash_password(passwords.check_new_password(password))
        with self.pool.connection() as conn:
            try:
                conn.execute(
                    "INSERT INTO users (name, role, salt, hash) VALUES (%s, %s, %s, %s)",
                    (name, role.value, salt, digest),
                )
            except psycopg.errors.UniqueViolation:
                raise Conflict(f"user {name!r} exists already") from None
        return User(name, role)

    def set_password(self, name: str, password: str) -> User:
        """A user's new password; the old one opens nothing from now on."""
        salt, digest = passwords.hash_password(passwords.check_new_password(password))
        with self.pool.connection() as conn:
            row = conn.execute(
                "UPDATE users SET salt = %s, hash = %s WHERE name = %s RETURNING role", (salt, digest, name)
            ).fetchone()
        if row is None:
            raise NotFound(f"no user {name!r}")
        return User(name, Role(row[0]))

    def add_token(self, name: str, role: Role) -> str:
        """A new API token for `name`; only its hash is kept, so this is the one time it is seen."""
        token = passwords.new_token()
        with self.pool.connection() as conn:
            conn.execute(
                "INSERT INTO tokens (hash, name, role) VALUES (%s, %s, %s)",
                (passwords.token_hash(token), name, role.value),
            )
        return token

    def pit_identity(self) -> Identity:
        """The pit service's own broker identity, made at the first `pit init`."""
        with self.pool.connection() as conn:
            fresh = Identity.new()
            conn.execute(
                "INSERT INTO pit_identity (id, seed, public_key) VALUES (1, %s, %s) ON CONFLICT DO NOTHING",
                (fresh.seed, fresh.public_key),
            )
            row = conn.execute("SELECT seed, public_key FROM pit_identity WHERE id = 1").fetchone()
        assert row is not None
        return Identity(row[0], row[1])

    def add_table(self, table_id: str) -> Identity:
        """A table's broker identity; the broker learns its public key from `nats-config`."""
        check_table_id(table_id)
        identity = Identity.new()
        with self.pool.connection() as conn:
            try:
                conn.execute(
                    "INSERT INTO table_identities (table_id, public_key) VALUES (%s, %s)",
                    (table_id, identity.public_key),
                )
            except psycopg.errors.UniqueViolation:
                raise Conflict(f"table {table_id!r} has credentials already") from None
        return identity

    def table_keys(self) -> dict[str, str]:
        return {table_id: key for table_id, key in self._all("SELECT table_id, public_key FROM table_identities")}

    def set_rooms(self, names: list[str]) -> dict[str, str]:
        """A head office's rooms, exactly those named, each with the password of its leaf connection
        (made at its first naming, kept after)."""
        with self.pool.connection() as conn:
            with conn.transaction():
                conn.execute("DELETE FROM rooms WHERE NOT name = ANY(%s)", (names,))
                for name in names:
                    conn.execute(
                        "INSERT INTO rooms (name, leaf_password) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                        (name, secrets.token_urlsafe(24)),
                    )
                return {name: password for name, password in conn.execute("SELECT name, leaf_password FROM rooms")}

    def rooms(self) -> list[str]:
        """The rooms a head office sources (none in a room's own pit)."""
        return [name for (name,) in self._all("SELECT name FROM rooms ORDER BY name")]

    def set_payout_threshold(self, amount: Decimal) -> None:
        """A payout at or above `amount` (currency units) raises an alert, from the next record on."""
        if not amount.is_finite() or amount <= 0:
            raise BadValue(f"payout threshold {amount}: use an amount above 0")
        with self.pool.connection() as conn:
            conn.execute("UPDATE settings SET value = %s WHERE name = 'payout_threshold'", (json.dumps(units(amount)),))

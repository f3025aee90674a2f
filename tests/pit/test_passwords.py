"""Pit users' passwords and tokens: a salted slow hash, and five wrong tries locking the name."""

from __future__ import annotations

from dealer_assist.table.lockout import LOCK_SECONDS
from pit.service.accounts.passwords import hash_password, locked_until, password_matches, token_hash


def test_the_same_password_hashes_differently_under_each_salt_and_still_matches() -> None:
    salt_a, hash_a = hash_password("correct horse")
    salt_b, hash_b = hash_password("correct horse")
    assert salt_a != salt_b and hash_a != hash_b
    assert password_matches("correct horse", salt_a, hash_a)
    assert not password_matches("correct horsE", salt_a, hash_a)


def test_five_wrong_tries_lock_for_sixty_seconds() -> None:
    tries = [(float(t), "wrong") for t in range(4)]
    assert locked_until(tries) is None
    tries.append((4.0, "wrong"))
    assert locked_until(tries) == 4.0 + LOCK_SECONDS
    assert (
        locked_until([*tries, (30.0, "locked"), (40.0, "wrong")]) == 4.0 + LOCK_SECONDS
    )  # tries while locked do not count
    after = [*tries, *((70.0 + t, "wrong") for t in range(4))]
    assert locked_until(after) == 4.0 + LOCK_SECONDS  # the old lock, over; four new wrong tries are not five
    assert locked_until([*after, (75.0, "wrong")]) == 75.0 + LOCK_SECONDS


def test_a_good_try_clears_the_count() -> None:
    tries = [(0.0, "wrong"), (1.0, "wrong"), (2.0, "wrong"), (3.0, "wrong"), (4.0, "ok"), (5.0, "wrong")]
    assert locked_until(tries) is None


def test_a_token_is_kept_only_as_its_hash() -> None:
    assert token_hash("abc") == token_hash("abc") != token_hash("abd")
    assert "abc" not in token_hash("abc")

"""The supervisor's PIN on the keypad: the table checks and journals every try; a wrong PIN and the
lockout show the table's refusal, and the lock shows the time it has left."""

from __future__ import annotations

import re

from test_supervisor_helpers import PIN, Clock, journal, key_in, new_table, opened, tap, unlocked  # noqa: F401

from dealer_assist.journal.journal_file import RecordKind, read_records


def _security(table) -> list[str]:
    return [r.body["event"] for r in read_records(table.path) if r.kind is RecordKind.SECURITY]


def test_the_right_pin_opens_the_screens_and_is_journaled(qtbot, journal):
    table = new_table(journal)
    window = opened(qtbot, table)
    assert window.stack.currentWidget() is window.pad
    for digit in "99":
        tap(qtbot, window.pad.keys[digit])
    tap(qtbot, window.pad.keys["⌫"])
    assert window.pad.shown.text() == "●"
    tap(qtbot, window.pad.keys["Clear"])
    assert window.pad.digits == ""
    key_in(qtbot, window, PIN)
    assert window.stack.currentIndex() == 1
    assert window.pin == PIN
    assert _security(table)[-1] == "pin_ok"
    tap(qtbot, window.lock)
    assert window.stack.currentWidget() is window.pad and window.pin is None


def test_a_wrong_pin_shows_the_refusal_and_keeps_the_screens_shut(qtbot, journal):
    table = new_table(journal)
    window = opened(qtbot, table)
    key_in(qtbot, window, "1111")
    assert window.stack.currentWidget() is window.pad
    assert (
        window.pad.notice.isVisible()
        and window.pad.notice.text() == "wrong supervisor PIN: 4 tries left before the PIN locks"
    )
    assert window.pad.lock.text() == ""
    assert _security(table)[-1] == "pin_wrong"


def test_the_pad_counts_the_tries_down_to_the_lock_and_its_keys_never_move(qtbot, journal):
    table = new_table(journal)
    window = opened(qtbot, table)
    keys = {key: button.mapTo(window, button.rect().topLeft()) for key, button in window.pad.keys.items()}
    said = []
    for _ in range(4):
        key_in(qtbot, window, "0000")
        said.append(window.pad.notice.text())
        assert {key: b.mapTo(window, b.rect().topLeft()) for key, b in window.pad.keys.items()} == keys
    assert said == [
        f"wrong supervisor PIN: {n} {'try' if n == 1 else 'tries'} left before the PIN locks" for n in (4, 3, 2, 1)
    ]
    key_in(qtbot, window, PIN)
    assert window.stack.currentIndex() == 1, "the right PIN before the lock still opens"
    window.lock_screens()
    assert not window.pad.notice.isVisible()
    assert {key: b.mapTo(window, b.rect().topLeft()) for key, b in window.pad.keys.items()} == keys
    key_in(qtbot, window, "0000")
    assert window.pad.notice.text().endswith("4 tries left before the PIN locks"), "a right PIN starts the count again"


def test_five_wrong_pins_lock_the_pad_and_it_shows_the_time_left(qtbot, journal):
    clock = Clock()
    table = new_table(journal, clock=clock)
    window = opened(qtbot, table)
    for _ in range(5):
        key_in(qtbot, window, "0000")
    assert window.pad.notice.text() == "the supervisor PIN is locked after 5 wrong tries in a row"
    assert window.pad.lock.text() == "Locked: 1:00 left"
    clock.now += 30
    key_in(qtbot, window, PIN)
    assert window.stack.currentWidget() is window.pad, "even the right PIN waits out the lock"
    assert window.pad.notice.text() == "the supervisor PIN is locked after 5 wrong tries in a row"
    assert window.pad.lock.text() == "Locked: 0:30 left"
    clock.now += 31
    key_in(qtbot, window, PIN)
    assert window.stack.currentIndex() == 1
    assert window.pad.lock.text() == ""
    assert _security(table).count("pin_locked") == 1 and "pin_refused" in _security(table)


def test_the_lock_is_told_only_while_it_lasts_never_at_0_s(qtbot, journal):
    clock = Clock()
    table = new_table(journal, clock=clock)
    window = opened(qtbot, table)
    pad = window.pad
    for _ in range(5):
        key_in(qtbot, window, "0000")
    clock.now += 59.7
    key_in(qtbot, window, PIN)  # 0.3 s of the lock left
    assert pad.notice.isVisible() and "locked after 5 wrong tries" in pad.notice.text(), pad.notice.text()
    assert pad.lock.text() == "Locked: 0:01 left"
    assert 0 < pad.ticker.interval() <= 300, "the line changes as the lock ends, not up to a second later"
    clock.now += 0.3
    pad.ticker.timeout.emit()
    assert pad.lock.text() == "" and not pad.notice.isVisible(), "the lock has ended: nothing says it lasts"
    key_in(qtbot, window, PIN)
    assert window.stack.currentIndex() == 1


def _times(text: str) -> list[str]:
    return re.findall(r"\d+:\d\d|\d+ s\b", text)


def test_a_locked_pad_says_one_time_once_and_counts_it_down(qtbot, journal):
    clock = Clock()
    table = new_table(journal, clock=clock)
    window = opened(qtbot, table)
    pad = window.pad
    for _ in range(5):
        key_in(qtbot, window, "0000")
    clock.now += 11
    key_in(qtbot, window, PIN)  # refused while locked, 49 s of the lock left
    said = f"{pad.flow.text()}\n{pad.shown.text()}\n{pad.notice.text()}\n{pad.lock.text()}"
    assert _times(said) == ["0:49"], said
    clock.now += 21
    pad.ticker.timeout.emit()
    said = f"{pad.notice.text()}\n{pad.lock.text()}"
    assert _times(said) == ["0:28"], "the one time counts down; the refusal says no time of its own"

"""Journaled records read back (codec.decode) and the carried state a closing record restores:
a value of the wrong shape is a journal error naming the record and field, never a crash."""

from __future__ import annotations

import pytest

from dealer_assist.journal.errors import JournalError
from dealer_assist.rules.cards import parse_card
from dealer_assist.rules.inputs import Action, CardDrawn, Decide, PlaceWager, WagerKind
from dealer_assist.table.codec import decode, encode
from dealer_assist.table.session import TableConfig, TableSession
from dealer_assist.table.session_inputs import BankAccepted


@pytest.mark.parametrize(
    "record",
    [
        PlaceWager(1, WagerKind.BUSTER, 500),
        Decide(2, 1, Action.DOUBLE, 300),
        Decide(2, 0, Action.STAND),
        CardDrawn(parse_card("TS")),
        BankAccepted(4, 50_000, proposition=True),
    ],
    ids=lambda record: type(record).__name__,
)
def test_every_record_reads_back_as_the_record_written(record):
    assert decode(encode(record)) == record


@pytest.mark.parametrize(
    "data, words",
    [
        pytest.param(
            {"type": "Decide", "seat": 1, "hand": 0, "action": "hit"},
            ["Decide.action", "'hit'", "stand"],
            id="unknown-enum",
        ),
        pytest.param(
            {"type": "Decide", "seat": 1, "hand": 0, "action": 3}, ["Decide.action", "3"], id="enum-not-a-string"
        ),
        pytest.param(
            {"type": "PlaceWager", "seat": 1, "kind": ["base"], "amount": 5}, ["PlaceWager.kind"], id="enum-unhashable"
        ),
        pytest.param({"type": ["Decide"], "seat": 1}, ["unknown record type"], id="type-not-a-string"),
        pytest.param({"type": "Settle", "seat": 1}, ["unknown record type", "'Settle'"], id="unknown-type"),
        pytest.param(
            {"type": "Decide", "seat": 1, "action": "stand"}, ["Decide", "'hand'", "missing"], id="missing-field"
        ),
    ],
)
def test_a_malformed_record_is_a_journal_error_naming_its_field(data, words):
    with pytest.raises(JournalError) as caught:
        decode(data)
    assert caught.value.code == "bad_record"
    for word in words:
        assert word in caught.value.message, (word, caught.value.message)


def test_a_restored_table_carries_its_state_and_refuses_a_field_it_does_not_know():
    config = TableConfig("T-1", "nobust-4.0")
    state = TableSession(config).between_rounds() | {"round_id": 7, "declined": [3, 5]}
    restored = TableSession(config, state)
    assert restored.s.round_id == 7 and restored.s.declined == [3, 5]
    restored.s.declined.append(6)
    assert state["declined"] == [3, 5], "the session's lists are its own, not the record's"
    with pytest.raises(JournalError, match="carried state: unknown field 'bank_size'"):
        TableSession(config, state | {"bank_size": 1})

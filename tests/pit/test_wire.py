"""The record message of PIT.md §2: what the table sends is what the pit can re-hash and chain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_assist.journal.journal_file import GENESIS, Journal, RecordKind, Verdict, read_records
from pit.stream.wire import (
    RecordMessage,
    ResendRequest,
    StatusMessage,
    WireError,
    check_table_id,
    journal_identity,
    parse_record_message,
    parse_status_message,
    resend_subject,
)


def _journal(path: Path) -> list:
    journal = Journal(path, Verdict(True, 0, "new journal"))
    journal.append(RecordKind.TABLE, {"config": {"table_id": "T-1"}, "note": "héllo"})
    journal.append(RecordKind.INPUT, {"input": {"type": "PlaceWager"}, "now": 1.5}, 1)
    journal.close()
    return list(read_records(path))


def test_a_shipped_record_chains_onto_its_predecessor(tmp_path: Path) -> None:
    records = _journal(tmp_path / "t.db")
    journal = journal_identity(records[0])
    messages = [parse_record_message(RecordMessage.of("T-1", journal, r).encode()) for r in records]
    assert messages[0].chains_onto(GENESIS)
    assert messages[1].chains_onto(bytes.fromhex(messages[0].hash))
    assert not messages[1].chains_onto(GENESIS)
    assert messages[1].subject == f"da.records.T-1.{journal}" and messages[1].msg_id == f"{journal}:2"
    assert messages[1].record() == records[1]


def test_a_rewritten_body_no_longer_chains(tmp_path: Path) -> None:
    records = _journal(tmp_path / "t.db")
    raw = json.loads(RecordMessage.of("T-1", journal_identity(records[0]), records[1]).encode())
    raw["body"] = raw["body"].replace("1.5", "2.5")
    assert not parse_record_message(json.dumps(raw).encode()).chains_onto(records[0].hash)


@pytest.mark.parametrize("table_id", ["", "a" * 33, "T 1", "T.1", "T>"])
def test_table_ids_outside_the_alphabet_are_refused(table_id: str) -> None:
    with pytest.raises(WireError, match="1-32 characters"):
        check_table_id(table_id)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"seq": 0}, "seq"),
        ({"seq": "1"}, "'seq'"),
        ({"kind": "nope"}, "kind"),
        ({"hash": "XY"}, "hash"),
        ({"body": "[1]"}, "body"),
        ({"round_id": "3"}, "round_id"),
        ({"journal": "abc"}, "journal"),
    ],
)
def test_a_bad_field_is_named(tmp_path: Path, change: dict, named: str) -> None:
    records = _journal(tmp_path / "t.db")
    raw = json.loads(RecordMessage.of("T-1", journal_identity(records[0]), records[1]).encode())
    raw.update(change)
    with pytest.raises(WireError, match=named):
        parse_record_message(json.dumps(raw).encode())


def test_not_json_is_refused() -> None:
    with pytest.raises(WireError, match="not JSON"):
        parse_record_message(b"\xff{")


def test_a_resend_request_goes_to_its_table_and_reads_back_and_a_bad_one_names_its_field() -> None:
    request = ResendRequest("ab" * 32, 11)
    assert resend_subject("T-1") == "da.resend.T-1"
    assert json.loads(request.to_json()) == {"journal": "ab" * 32, "from_seq": 11}
    assert ResendRequest.from_json(request.to_json()) == request
    with pytest.raises(WireError, match="from_seq"):
        ResendRequest.from_json(b'{"journal": "' + b"ab" * 32 + b'", "from_seq": 0}')
    with pytest.raises(WireError, match="'journal'"):
        ResendRequest.from_json(b'{"from_seq": 3}')


def test_a_status_says_whether_the_stream_refused_the_tables_last_publish() -> None:
    status = StatusMessage("T1", "ab" * 32, "nobust-4.0", None, "idle", None, {}, 40, 12, cannot_store="no space")
    assert parse_status_message(status.encode()).cannot_store == "no space"
    raw = json.loads(status.encode())
    del raw["cannot_store"]
    assert parse_status_message(json.dumps(raw).encode()).cannot_store is None  # a table that does not say

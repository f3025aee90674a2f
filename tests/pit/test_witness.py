"""The witness's rules (PIT.md §4) on a real bench journal's records."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import msgspec
import pytest

from pit.service.ingest.witness import Head, Verdict, judge, moved
from tests.pit.journals import bench_journal, messages, rewrite


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bench_journal(tmp_path_factory.mktemp("w") / "t.db", 3, 5, "T1")


def _witness(found: list, head: Head) -> Head:
    for message in found:
        judgement = judge(head, message)
        assert judgement.verdict is Verdict.STORE, judgement.text
        head = moved(head, message, judgement)
    return head


def test_a_journal_is_stored_record_after_record_and_its_head_moves(journal: Path) -> None:
    found = messages(journal, "T1")
    head = _witness(found, Head("T1"))
    assert (head.seq, head.hash, head.diverged_at) == (found[-1].seq, found[-1].hash, None)


def test_a_resend_is_a_duplicate_and_a_record_ahead_waits(journal: Path) -> None:
    found = messages(journal, "T1")
    head = _witness(found[:10], Head("T1"))
    assert judge(head, found[4], found[4]).verdict is Verdict.DUPLICATE
    assert judge(head, found[12]).verdict is Verdict.EARLY
    assert moved(head, found[12], judge(head, found[12])) == head


def test_other_content_at_a_witnessed_seq_is_a_divergence_naming_both_hashes(journal: Path) -> None:
    found = messages(journal, "T1")
    head = _witness(found[:10], Head("T1"))
    forged = msgspec.structs.replace(found[4], body=found[4].body.replace("}", ',"x":1}', 1), hash="ab" * 32)
    judgement = judge(head, forged, found[4])
    assert judgement.verdict is Verdict.DIVERGED
    assert f"journal {found[0].journal} record 5" in judgement.text
    assert found[4].hash in judgement.text and forged.hash in judgement.text
    assert moved(head, forged, judgement) == dataclasses.replace(head, diverged_at=5)


def test_a_rewritten_journal_dealt_on_does_not_chain_and_nothing_after_is_stored(journal: Path, tmp_path: Path) -> None:
    original = messages(journal, "T1")
    copy = tmp_path / "copy.db"
    copy.write_bytes(journal.read_bytes())
    rewrite(copy, 20, {"now": 1.5})
    bench_journal(copy, 4, 5, "T1", resume=True)  # the table deals on the rewritten journal
    dealt_on = messages(copy, "T1", since=len(original))
    head = _witness(original, Head("T1"))
    following = judge(head, dealt_on[0])
    assert following.verdict is Verdict.DIVERGED
    assert (
        f"record {len(original) + 1} does not chain onto the witnessed record {len(original)}:"
        f" pit holds {original[-1].hash}, table sent {dealt_on[0].hash}"
    ) in following.text
    head = moved(head, dealt_on[0], following)
    assert (head.seq, head.hash, head.diverged_at) == (len(original), original[-1].hash, len(original) + 1)
    assert judge(head, dealt_on[1]).verdict is Verdict.HELD
    assert judge(head, original[3], original[3]).verdict is Verdict.DUPLICATE


def test_a_record_under_another_tables_name_is_refused(journal: Path) -> None:
    found = messages(journal, "T1")
    head = _witness(found[:3], Head("T1"))
    other = msgspec.structs.replace(found[3], table_id="T2")
    assert judge(head, other).verdict is Verdict.DIVERGED


def test_a_first_record_that_is_not_the_journals_identity_is_refused(journal: Path) -> None:
    found = messages(journal, "T1")
    judgement = judge(Head("T1"), msgspec.structs.replace(found[0], journal="cd" * 32))
    assert judgement.verdict is Verdict.DIVERGED and "identity" in judgement.text

"""`journal verify DB --pit URL`: the file against the copy the pit witnessed (PIT.md §4).

The file's own chain proves only that the file agrees with itself: a journal cut short, or
rewritten with a recomputed chain, still passes. The pit's copy is what the table cannot rewrite:
every record the pit witnessed must be in the file with the same hash. Records the pit has not
seen yet are reported, not counted against the file.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.journal.journal_file import Record, read_records
from pit.errors import PitCode, PitError

HTTP_TIMEOUT_S = 15.0


class PitUnavailable(PitError):
    """The pit could not be asked (unreachable, refused the login, answered nonsense); the text says which."""

    def __init__(self, message: str) -> None:
        super().__init__(PitCode.PIT_UNAVAILABLE, message, 1)


@dataclass(frozen=True, slots=True)
class Witnessed:
    """What the pit holds of one journal: its last seq stored in chain (0: none) and that record's hash."""

    records: int
    head: str | None


@dataclass(frozen=True, slots=True)
class Comparison:
    witnessed: int  # records the pit witnessed
    first_differs: tuple[int, str, str] | None  # (seq, the pit's hash, the file's hash)
    missing: tuple[tuple[int, int], ...]  # witnessed records absent from the file, as (first, last) runs
    not_yet: tuple[int, int] | None  # the file's records the pit has not witnessed, (first, last)

    @property
    def agrees(self) -> bool:
        return self.first_differs is None and not self.missing


class PitWeb:
    """The two calls of the pit's JSON API that verify needs, over HTTP(S), with an API token."""

    def __init__(self, base_url: str, token: str | None) -> None:
        parts = urllib.parse.urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise PitUnavailable(f"--pit {base_url!r}: the pit's address is http://HOST:PORT or https://HOST:PORT")
        self.base = base_url.rstrip("/")
        self.token = token

    def witness(self, journal: str) -> Witnessed:
        found = self._get(f"/api/witness/{journal}")
        if found is None:
            return Witnessed(0, None)
        try:
            records, head = found["records"], found["head"]
            if isinstance(head, dict):  # {"seq", "hash"} is read as well as the hash alone
                head = head.get("hash")
            return Witnessed(int(records), None if head is None else str(head))
        except (KeyError, TypeError, ValueError):
            raise PitUnavailable(
                f"{self.base}/api/witness/{journal}: not a witness answer: {json.dumps(found)[:200]}"
            ) from None

    def hashes(self, journal: str, upto: int) -> Iterator[tuple[int, str]]:
        """(seq, hex hash) of every witnessed record up to `upto`, asked a page at a time."""
        since = 0
        while since < upto:
            found = self._get(f"/api/witness/{journal}/hashes?since={since}")
            try:
                page = [(int(seq), str(digest)) for seq, digest in (found or {})["hashes"]]
            except (KeyError, TypeError, ValueError):
                raise PitUnavailable(f"{self.base}/api/witness/{journal}/hashes: not a list of [seq, hash]") from None
            page = [(seq, digest) for seq, digest in page if since < seq <= upto]
            if not page:
                return
            yield from page
            since = page[-1][0]

    def _get(self, path: str) -> Any:
        """The JSON answer, or None for a 404 (the pit has not heard of it)."""
        request = urllib.request.Request(self.base + path, headers={"Accept": "application/json"})
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:
            if error.code == 404:
                return None
            detail = error.read()[:300].decode(errors="replace")
            hint = " (give an API token: --token FILE)" if error.code == 401 else ""
            raise PitUnavailable(f"{self.base}{path}: the pit answered {error.code}{hint}: {detail}") from None
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise PitUnavailable(f"{self.base}: the pit cannot be reached ({reason})") from None
        except ValueError:
            raise PitUnavailable(f"{self.base}{path}: the answer is not JSON") from None


def compare(witnessed: Iterable[tuple[int, str]], records: Iterator[Record]) -> Comparison:
    """Walk the pit's (seq, hash) pairs and the file's records side by side, both in seq order."""
    count, first_differs, missing = 0, None, list[tuple[int, int]]()
    mine = next(records, None)
    last_witnessed = 0
    for seq, digest in witnessed:
        count, last_witnessed = count + 1, seq
        while mine is not None and mine.seq < seq:
            mine = next(records, None)
        if mine is None or mine.seq != seq:
            if missing and missing[-1][1] == seq - 1:
                missing[-1] = (missing[-1][0], seq)
            else:
                missing.append((seq, seq))
        elif mine.hash.hex() != digest and first_differs is None:
            first_differs = (seq, digest, mine.hash.hex())
    while mine is not None and mine.seq <= last_witnessed:
        mine = next(records, None)
    not_yet = None
    if mine is not None:
        first, last = mine.seq, mine.seq
        for record in records:
            last = record.seq
        not_yet = (first, last)
    return Comparison(count, first_differs, tuple(missing), not_yet)


def check_against_pit(path: Path, journal: str, pit: PitWeb) -> Comparison:
    witness = pit.witness(journal)
    return compare(pit.hashes(journal, witness.records), read_records(path))


def describe(comparison: Comparison) -> str:
    """One line for the supervisor: what agrees, the first record that differs, what is missing."""
    runs = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in comparison.missing)
    parts = []
    if comparison.first_differs is not None:
        seq, theirs, ours = comparison.first_differs
        parts.append(
            f"record {seq} differs from the copy the pit witnessed (pit hash {theirs[:16]}, file hash {ours[:16]})"
        )
    if comparison.missing:
        parts.append(f"records the pit witnessed are missing from the file: {runs}")
    if not parts:
        parts.append(f"all {comparison.witnessed} records the pit witnessed are in the file, unchanged")
    if comparison.not_yet is not None:
        first, last = comparison.not_yet
        parts.append(
            f"{last - first + 1} not yet witnessed ({first}-{last})"
            if last > first
            else f"1 not yet witnessed ({first})"
        )
    return "; ".join(parts)

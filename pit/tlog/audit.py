"""`dealer-assist log audit URL --policy POLICY --state DIR` (PIT.md §9): reads the log's published
checkpoint and its entry bundles (tlog-tiles), and checks that the log only grew since the checkpoint
saved in DIR, and that every new leaf is a well-formed da-leaf-1 chaining onto its journal's previous one.

DIR keeps the last checkpoint audited, every leaf hash so far (so any old root can be rebuilt), and each
journal's last leaf (its last seq and head hash)."""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from dealer_assist.errors import Failure
from pit.tlog.checkpoint import Checkpoint
from pit.tlog.errors import TlogCode, TlogError
from pit.tlog.leaf import ZERO_HASH, Leaf
from pit.tlog.merkle import HASH_SIZE, MemoryTree, leaf_hash
from pit.tlog.policy import Policy
from pit.tlog.tiles import TILE_WIDTH, Tile, decode_bundle

TIMEOUT_S = 30.0


class Break(Failure):
    """What the audit found wrong: a fork, a gap, a bad signature, a malformed leaf (exit 1)."""

    def __init__(self, message: str) -> None:
        super().__init__(TlogCode.AUDIT_BREAK, message, 1)


@dataclass(frozen=True)
class Audited:
    old_size: int
    size: int


def _get(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as answer:
            data: bytes = answer.read()
            return data
    except urllib.error.HTTPError as error:
        raise Break(f"unreachable: {url} answered {error.code}") from None
    except (urllib.error.URLError, OSError) as error:
        raise Break(f"unreachable: {url}: {error}") from None


def audit(prefix: str, policy: Policy, state: Path) -> Audited:
    prefix = prefix.rstrip("/") + "/"
    note = _get(prefix + "checkpoint")
    try:
        checkpoint, _ = policy.verify(note)
    except TlogError as error:
        raise Break(f"bad signature: {error.message}") from None
    state.mkdir(parents=True, exist_ok=True)
    hashes = (state / "hashes").read_bytes() if (state / "hashes").exists() else b""
    journals: dict[str, list[object]] = (
        json.loads((state / "journals.json").read_text()) if (state / "journals.json").exists() else {}
    )
    old = Checkpoint.parse((state / "checkpoint").read_text()) if (state / "checkpoint").exists() else None
    old_size = len(hashes) // HASH_SIZE
    if old is not None and checkpoint.origin != old.origin:
        raise Break(f"fork: the log's origin is {checkpoint.origin!r}, it was {old.origin!r}")
    if checkpoint.size < old_size:
        raise Break(f"fork: the log has {checkpoint.size} leaves, it had {old_size}")
    tree = MemoryTree([hashes[at : at + HASH_SIZE] for at in range(0, len(hashes), HASH_SIZE)])
    new_hashes = bytearray()
    for index, text in enumerate(read_entries(prefix, old_size, checkpoint.size), start=old_size):
        try:
            leaf = Leaf.parse(text)
        except TlogError as error:
            raise Break(f"malformed leaf {index}: {error.message}") from None
        last_seq, head_hash = journals.get(leaf.journal, [0, ZERO_HASH])
        if leaf.first_seq != int(str(last_seq)) + 1 or leaf.prev_hash != head_hash:
            raise Break(
                f"gap: leaf {index} of journal {leaf.journal} starts at seq {leaf.first_seq} after "
                f"{leaf.prev_hash[:16]}..., its previous leaf ended at seq {last_seq} with {str(head_hash)[:16]}..."
            )
        journals[leaf.journal] = [leaf.last_seq, leaf.head_hash]
        hashed = leaf_hash(text)
        tree.append(hashed)
        new_hashes += hashed
    if tree.root(checkpoint.size) != checkpoint.root:
        raise Break(
            f"fork: the leaves audited and the new entries do not rebuild the root of size {checkpoint.size}"
            + (f" (the log rewrote leaves before {old_size})" if old_size else "")
        )
    _save(state, note, hashes + bytes(new_hashes), journals)
    return Audited(old_size, checkpoint.size)


def read_entries(prefix: str, start: int, size: int) -> list[bytes]:
    """Leaves `start` to `size` of the log at `prefix`, read from its entry bundles (tlog-tiles)."""
    entries: list[bytes] = []
    for bundle in range(start // TILE_WIDTH, (size + TILE_WIDTH - 1) // TILE_WIDTH):
        width = min(TILE_WIDTH, size - bundle * TILE_WIDTH)
        found = decode_bundle_or_break(_get(prefix + Tile(None, bundle, width).path()), bundle, width)
        first = bundle * TILE_WIDTH
        entries += found[max(0, start - first) :]
    return entries


def decode_bundle_or_break(data: bytes, bundle: int, width: int) -> list[bytes]:
    try:
        found = decode_bundle(data)
    except TlogError as error:
        raise Break(f"malformed leaf: entry bundle {bundle}: {error.message}") from None
    if len(found) != width:
        raise Break(f"gap: entry bundle {bundle} holds {len(found)} entries, not {width}")
    return found


def _save(state: Path, note: bytes, hashes: bytes, journals: dict[str, list[object]]) -> None:
    """Each file written whole, then renamed over the old one; the checkpoint last."""
    for name, data in (
        ("hashes", hashes),
        ("journals.json", json.dumps(journals, sort_keys=True).encode()),
        ("checkpoint", Checkpoint.parse(note.decode().split("\n\n", 1)[0] + "\n").text().encode()),
    ):
        temporary = state / f".{name}.new"
        temporary.write_bytes(data)
        os.replace(temporary, state / name)

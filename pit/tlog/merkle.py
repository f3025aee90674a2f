"""The RFC 6962 / RFC 9162 §2.1 Merkle tree: hashes, roots, inclusion and consistency proofs.

Proofs are made from the hashes of perfect subtrees (a `HashStore`), the way a tiled log keeps them,
and checked by the iterative algorithms of RFC 9162 §2.1.3.2 and §2.1.4.2, which need nothing but the
proof, the sizes and the roots.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

from pit.tlog.errors import Inconsistent, TlogError

__all__ = [
    "EMPTY_ROOT",
    "HASH_SIZE",
    "MemoryTree",
    "consistency_proof",
    "inclusion_proof",
    "leaf_hash",
    "verify_consistency",
]

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()  # MTH({}) (RFC 6962 §2.1)


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


class HashStore(Protocol):
    """The hash of the perfect subtree of 2**level leaves starting at leaf index * 2**level."""

    def perfect(self, level: int, index: int) -> bytes: ...


class MemoryTree:
    """A tree's perfect-subtree hashes, level by level, appended one leaf hash at a time."""

    def __init__(self, leaf_hashes: Sequence[bytes] = ()) -> None:
        self._levels: list[bytearray] = [bytearray()]
        for hashed in leaf_hashes:
            self.append(hashed)

    @property
    def size(self) -> int:
        return len(self._levels[0]) // HASH_SIZE

    def append(self, hashed: bytes) -> None:
        if len(hashed) != HASH_SIZE:
            raise TlogError(f"a leaf hash is {HASH_SIZE} bytes, not {len(hashed)}")
        level = 0
        while True:
            self._levels[level] += hashed
            count = len(self._levels[level]) // HASH_SIZE
            if count % 2:
                return
            row = self._levels[level]
            hashed = node_hash(bytes(row[-2 * HASH_SIZE : -HASH_SIZE]), bytes(row[-HASH_SIZE:]))
            level += 1
            if level == len(self._levels):
                self._levels.append(bytearray())

    def perfect(self, level: int, index: int) -> bytes:
        start = index * HASH_SIZE
        if level >= len(self._levels) or start + HASH_SIZE > len(self._levels[level]):
            raise TlogError(f"no subtree of 2**{level} leaves at index {index} in a tree of {self.size}")
        return bytes(self._levels[level][start : start + HASH_SIZE])

    def root(self, size: int | None = None) -> bytes:
        return tree_hash(self, 0, self.size if size is None else size)


def _split(n: int) -> int:
    """The largest power of two smaller than n (n > 1): where RFC 6962 splits a tree of n leaves."""
    return 1 << ((n - 1).bit_length() - 1)


def tree_hash(store: HashStore, lo: int, hi: int) -> bytes:
    """MTH(D[lo:hi]) from the store's perfect subtrees."""
    n = hi - lo
    if n == 0:
        return EMPTY_ROOT
    if n & (n - 1) == 0 and lo % n == 0:
        return store.perfect(n.bit_length() - 1, lo // n)
    k = _split(n)
    return node_hash(tree_hash(store, lo, lo + k), tree_hash(store, lo + k, hi))


def inclusion_proof(store: HashStore, index: int, size: int) -> list[bytes]:
    """PATH(index, D[0:size]) (RFC 9162 §2.1.3.1), from the leaf's sibling up to the root's child."""
    if not 0 <= index < size:
        raise TlogError(f"no leaf {index} in a tree of {size}")
    proof: list[bytes] = []
    lo, hi = 0, size
    while hi - lo > 1:
        k = _split(hi - lo)
        if index < lo + k:
            proof.append(tree_hash(store, lo + k, hi))
            hi = lo + k
        else:
            proof.append(tree_hash(store, lo, lo + k))
            lo += k
    return proof[::-1]


def consistency_proof(store: HashStore, old_size: int, new_size: int) -> list[bytes]:
    """PROOF(old_size, D[0:new_size]) (RFC 9162 §2.1.4.1); empty for an old size of 0 or new_size."""
    if not 0 <= old_size <= new_size:
        raise TlogError(f"no consistency proof from size {old_size} to size {new_size}")
    if old_size in (0, new_size):
        return []
    proof: list[bytes] = []
    lo, hi, m, whole = 0, new_size, old_size, True
    while m != hi - lo:
        k = _split(hi - lo)
        if m <= k:
            proof.append(tree_hash(store, lo + k, hi))
            hi = lo + k
        else:
            proof.append(tree_hash(store, lo, lo + k))
            lo, m, whole = lo + k, m - k, False
    if not whole:
        proof.append(tree_hash(store, lo, hi))
    return proof[::-1]


def _lsb(n: int) -> bool:
    return bool(n & 1)


def verify_inclusion(hashed_leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> None:
    """RFC 9162 §2.1.3.2; raises `Inconsistent` naming what failed."""
    if not 0 <= index < size:
        raise Inconsistent(f"inclusion: index {index} is not in a tree of {size}")
    fn, sn, r = index, size - 1, hashed_leaf
    for p in proof:
        if sn == 0:
            raise Inconsistent(f"inclusion: the proof is longer than a tree of {size} needs")
        if _lsb(fn) or fn == sn:
            r = node_hash(p, r)
            while not _lsb(fn) and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise Inconsistent(f"inclusion: the proof is shorter than a tree of {size} needs")
    if r != root:
        raise Inconsistent(f"inclusion: the proof for leaf {index} does not reach the root of size {size}")


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> None:
    """RFC 9162 §2.1.4.2, with its cases around it: from size 0 and between equal sizes the proof is
    empty (and equal sizes need equal roots); raises `Inconsistent` naming what failed."""
    if not 0 <= old_size <= new_size:
        raise Inconsistent(f"consistency: size {old_size} cannot grow into size {new_size}")
    if old_size in (0, new_size):
        if proof:
            raise Inconsistent(
                f"consistency: from size {old_size} to {new_size} the proof is empty, not {len(proof)} hashes"
            )
        if old_size == new_size and old_root != new_root:
            raise Inconsistent(f"consistency: two roots for size {new_size}")
        return
    if not proof:
        raise Inconsistent(f"consistency: an empty proof from size {old_size} to {new_size}")
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while _lsb(fn):
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise Inconsistent(f"consistency: the proof is longer than sizes {old_size} and {new_size} need")
        if _lsb(fn) or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not _lsb(fn) and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise Inconsistent(f"consistency: the proof is shorter than sizes {old_size} and {new_size} need")
    if fr != old_root:
        raise Inconsistent(f"consistency: the proof does not rebuild the root of size {old_size}")
    if sr != new_root:
        raise Inconsistent(f"consistency: the proof does not reach the root of size {new_size}")

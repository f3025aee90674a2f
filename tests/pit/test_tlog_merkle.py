"""The Merkle tree's roots and proofs against RFC 6962 §2.1's recursive definitions, written out here
as the RFC gives them; every one-hash truncation, extension or flip of a proof is refused."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from functools import cache

import pytest

from pit.tlog.errors import Inconsistent
from pit.tlog.merkle import (
    EMPTY_ROOT,
    MemoryTree,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    verify_consistency,
    verify_inclusion,
)

QUICK_SIZES = 300
LEAVES = [f"leaf {i}".encode() for i in range(QUICK_SIZES)]


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def naive(
    leaves: list[bytes],
) -> tuple[Callable[[int, int], bytes], Callable[[int, int], list[bytes]], Callable[[int, int], list[bytes]]]:
    """MTH, PATH and PROOF of RFC 6962 §2.1, over D[lo:hi] of `leaves` (memoised: the same ranges recur)."""

    def k_of(n: int) -> int:
        k = 1
        while k * 2 < n:
            k *= 2
        return k

    @cache
    def mth(lo: int, hi: int) -> bytes:
        n = hi - lo
        if n == 0:
            return sha256(b"")
        if n == 1:
            return sha256(b"\x00" + leaves[lo])
        k = k_of(n)
        return sha256(b"\x01" + mth(lo, lo + k) + mth(lo + k, hi))

    def path(m: int, lo: int, hi: int) -> list[bytes]:
        n = hi - lo
        if n == 1:
            return []
        k = k_of(n)
        if m < k:
            return path(m, lo, lo + k) + [mth(lo + k, hi)]
        return path(m - k, lo + k, hi) + [mth(lo, lo + k)]

    def subproof(m: int, lo: int, hi: int, b: bool) -> list[bytes]:
        n = hi - lo
        if m == n:
            return [] if b else [mth(lo, hi)]
        k = k_of(n)
        if m <= k:
            return subproof(m, lo, lo + k, b) + [mth(lo + k, hi)]
        return subproof(m - k, lo + k, hi, False) + [mth(lo, lo + k)]

    return mth, lambda m, n: path(m, 0, n), lambda m, n: subproof(m, 0, n, True) if 0 < m < n else []


def mutations(proof: list[bytes]) -> list[list[bytes]]:
    """Each one-hash truncation (any one hash dropped), each extension (a hash added at either end) and
    each flip (one bit of one hash)."""
    extra = sha256(b"extra")
    changed = [proof[:i] + proof[i + 1 :] for i in range(len(proof))]
    changed += [proof + [extra], [extra] + proof]
    changed += [proof[:i] + [bytes([proof[i][0] ^ 1]) + proof[i][1:]] + proof[i + 1 :] for i in range(len(proof))]
    return changed


def check_inclusion(
    tree: MemoryTree,
    mth: Callable[[int, int], bytes],
    path: Callable[[int, int], list[bytes]],
    leaves: list[bytes],
    index: int,
    size: int,
    mutate: bool,
) -> None:
    proof = inclusion_proof(tree, index, size)
    assert proof == path(index, size)
    root = mth(0, size)
    verify_inclusion(leaf_hash(leaves[index]), index, size, proof, root)
    if mutate:
        for bad in mutations(proof):
            with pytest.raises(Inconsistent):
                verify_inclusion(leaf_hash(leaves[index]), index, size, bad, root)
        for wrong_index in {index - 1, index + 1} - {-1}:
            if wrong_index < size and wrong_index != index:
                with pytest.raises(Inconsistent):
                    verify_inclusion(leaf_hash(leaves[index]), wrong_index, size, proof, root)


def check_consistency(
    tree: MemoryTree,
    mth: Callable[[int, int], bytes],
    proof_of: Callable[[int, int], list[bytes]],
    old: int,
    new: int,
    mutate: bool,
) -> None:
    proof = consistency_proof(tree, old, new)
    assert proof == proof_of(old, new)
    verify_consistency(old, new, mth(0, old), mth(0, new), proof)
    if mutate:
        for bad in mutations(proof):
            with pytest.raises(Inconsistent):
                verify_consistency(old, new, mth(0, old), mth(0, new), bad)
        if 0 < old < new:  # the proof joins these two sizes, not another old size
            with pytest.raises(Inconsistent):
                verify_consistency(old + 1, new, mth(0, old + 1), mth(0, new), proof)


def test_roots_of_every_size_to_300_match_the_recursive_definition() -> None:
    mth, _, _ = naive(LEAVES)
    tree = MemoryTree()
    assert tree.root() == EMPTY_ROOT == mth(0, 0)
    for size in range(1, QUICK_SIZES + 1):
        tree.append(leaf_hash(LEAVES[size - 1]))
        assert tree.root() == mth(0, size)
    assert all(tree.root(size) == mth(0, size) for size in range(QUICK_SIZES + 1))


@pytest.mark.parametrize("mutate_to", [40, pytest.param(QUICK_SIZES, marks=pytest.mark.slow)])
def test_every_inclusion_proof_to_size_300(mutate_to: int) -> None:
    """Every index of every size to 300 proves and verifies; to `mutate_to`, each mutation is refused."""
    mth, path, _ = naive(LEAVES)
    tree = MemoryTree([leaf_hash(leaf) for leaf in LEAVES])
    for size in range(1, QUICK_SIZES + 1):
        for index in range(size):
            check_inclusion(tree, mth, path, LEAVES, index, size, size <= mutate_to)


@pytest.mark.parametrize("mutate_to", [40, pytest.param(QUICK_SIZES, marks=pytest.mark.slow)])
def test_every_consistency_proof_to_size_300(mutate_to: int) -> None:
    """Every pair of sizes old <= new <= 300 proves and verifies; to `mutate_to`, each mutation is refused."""
    mth, _, proof_of = naive(LEAVES)
    tree = MemoryTree([leaf_hash(leaf) for leaf in LEAVES])
    for new in range(QUICK_SIZES + 1):
        for old in range(new + 1):
            check_consistency(tree, mth, proof_of, old, new, new <= mutate_to)


@pytest.mark.slow
def test_random_sizes_to_a_million() -> None:
    rng = random.Random(6962)
    size = 1_000_000
    leaves = [i.to_bytes(4, "big") for i in range(size)]
    mth, path, proof_of = naive(leaves)
    tree = MemoryTree([leaf_hash(leaf) for leaf in leaves])
    for new in [size, *(rng.randrange(1, size) for _ in range(3))]:
        assert tree.root(new) == mth(0, new)
        for index in [0, new - 1, *(rng.randrange(new) for _ in range(5))]:
            check_inclusion(tree, mth, path, leaves, index, new, True)
        for old in [1, new - 1, *(rng.randrange(1, new) for _ in range(5))]:
            check_consistency(tree, mth, proof_of, old, new, True)


def test_edges_are_refused_by_name() -> None:
    tree = MemoryTree([leaf_hash(leaf) for leaf in LEAVES[:8]])
    with pytest.raises(Inconsistent, match="index 8 is not in a tree of 8"):
        verify_inclusion(leaf_hash(LEAVES[0]), 8, 8, [], tree.root())
    with pytest.raises(Inconsistent, match="two roots for size 8"):
        verify_consistency(8, 8, tree.root(), tree.root(7), [])
    with pytest.raises(Inconsistent, match="size 8 cannot grow into size 7"):
        verify_consistency(8, 7, tree.root(), tree.root(7), [])
    with pytest.raises(Inconsistent, match="the proof is empty"):
        verify_consistency(0, 8, EMPTY_ROOT, tree.root(), [tree.root()])

"""tlog-tiles paths, tiles and entry bundles; tlog-proof texts; tlog-policy files and their quorum."""

from __future__ import annotations

import base64

import pytest

from pit.tlog.checkpoint import Checkpoint
from pit.tlog.cosignature import cosign
from pit.tlog.errors import Malformed, Unverified
from pit.tlog.keys import SignatureType, SignerKey, VerifierKey
from pit.tlog.merkle import MemoryTree, inclusion_proof, leaf_hash, tree_hash, verify_inclusion
from pit.tlog.policy import Policy
from pit.tlog.proof_text import TlogProof
from pit.tlog.tiles import Tile, decode_bundle, encode_bundle, tile_data, tile_for, tiles_of

ORIGIN = "pit.example-room.test/da-log"
# c2sp.org/tlog-proof's example, its signatures elided there as here
SPEC_PROOF = """c2sp.org/tlog-proof@v1
extra YWdlLXYxLjIuMS1kYXJ3aW4tYXJtNjQudGFyLmd6kYXJ3aW4tYXJ
index 73894
gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=
B95lDa8R83lS8n0eG+o0buTxRKQTYFi//1U8anccXmA=
EKNzoDWG8LGC0Yp9o+sv3qllpMP9uHQ9B20KNL+Q1zs=
RoopEkOdqkYqMB4MJXrbt/hMjOxsVn0IrWjpz1ZMMes=
AHCioX9nLjsrse6YhjRRmk1WUEirVOLLRoOQ6vfO5vk=

example.com/fancylog
109482
sFodV/vSp5O8n9a8QpW6PRY97tfOSW5bsc2Xl/EQi08=

— example.com/fancylog hI2DJw[...]1roloI=
— witness1.example mJirIklj[...]qY9v2B/5bg==
"""


def test_tile_paths_as_tlog_tiles_writes_them() -> None:
    assert Tile(0, 1234067).path() == "tile/0/x001/x234/067"
    assert Tile(1, 5, 17).path() == "tile/1/005.p/17"
    assert Tile(None, 1000).path() == "tile/entries/x001/000"
    assert Tile(2, 999, 1).path() == "tile/2/999.p/1"
    for tile in (Tile(0, 1234067), Tile(63, 0, 255), Tile(None, 1000, 3), Tile(10, 10**9)):
        assert Tile.parse(tile.path()) == tile


@pytest.mark.parametrize(
    "path",
    [
        "tile/0/1234",
        "tile/0/x000/005",
        "tile/64/000",
        "tile/01/000",
        "tile/0/000.p/256",
        "tile/0/000.p/0",
        "tile/0/000.p/017",
        "tile/0/x1/000",
        "tile/entries/000/",
        "tile/data/000",
        "tile/0/001/234",
    ],
)
def test_a_tile_path_not_in_the_spec_is_refused(path: str) -> None:
    with pytest.raises(Malformed, match="tile path"):
        Tile.parse(path)


def test_the_tiles_of_a_tree_as_the_spec_counts_them() -> None:
    """tlog-tiles: 70,000 leaves are 273 full level-0 tiles, one of width 112, one full level-1 tile,
    one of width 17 and one level-2 tile of width 1; 256 leaves a full tile and a level-1 tile of width 1."""
    tiles = tiles_of(70_000)
    assert [t for t in tiles if t.level == 0 and t.full] == [Tile(0, n) for n in range(273)]
    assert [t for t in tiles if not (t.level == 0 and t.full)] == [
        Tile(0, 273, 112),
        Tile(1, 0),
        Tile(1, 1, 17),
        Tile(2, 0, 1),
    ]
    assert tiles_of(256) == [Tile(0, 0), Tile(1, 0, 1)] and tiles_of(0) == []
    assert tile_for(1, 1, 70_000) == Tile(1, 1, 17)


def test_tiles_hold_the_trees_hashes_and_bundles_the_entries() -> None:
    entries = [f"entry {i}".encode() * (i % 7) for i in range(70_000)]
    tree = MemoryTree([leaf_hash(e) for e in entries])
    level0 = tile_data(tree, Tile(0, 273, 112))
    assert level0 == b"".join(leaf_hash(e) for e in entries[273 * 256 :])
    level1 = tile_data(tree, Tile(1, 0))
    for i in range(256):
        below = tile_data(tree, Tile(0, i))
        hashes = [below[j : j + 32] for j in range(0, len(below), 32)]
        assert level1[32 * i : 32 * (i + 1)] == MemoryTree(hashes).root() == tree_hash(tree, 256 * i, 256 * (i + 1))
    assert tile_data(tree, Tile(2, 0, 1)) == tree_hash(tree, 0, 65536)
    bundle = encode_bundle(entries[:256])
    assert bundle[:2] == b"\x00\x00" and bundle[2:4] == len(entries[1]).to_bytes(2, "big")
    assert decode_bundle(bundle) == entries[:256]
    assert b"".join(leaf_hash(e) for e in decode_bundle(bundle)) == tile_data(tree, Tile(0, 0))
    with pytest.raises(Malformed, match="runs past the end"):
        decode_bundle(bundle[:-1])
    with pytest.raises(Malformed, match="65536 bytes"):
        encode_bundle([bytes(65536)])


def test_the_c2sp_tlog_proof_example_parses_and_renders_byte_for_byte() -> None:
    proof = TlogProof.parse(SPEC_PROOF.encode())
    assert proof.index == 73894 and len(proof.hashes) == 5 and proof.extra is not None
    assert proof.extra.startswith(b"age-v1.2.1-darwin-arm64.tar.gz")
    assert proof.checkpoint.startswith(b"example.com/fancylog\n109482\n")
    assert proof.render() == SPEC_PROOF.encode()


@pytest.mark.parametrize(
    "change",
    [
        ("c2sp.org/tlog-proof@v1\n", "c2sp.org/tlog-proof@v2\n"),
        ("index 73894", "index 073894"),
        ("index 73894\n", ""),
        ("\n\nexample.com", "\nexample.com"),
        ("gSKyXoYZUgZ6jduWYrkDOARinOMGJveXjgMkBTcdPlQ=\n", "gSKy\n"),
    ],
)
def test_a_malformed_tlog_proof_is_refused(change: tuple[str, str]) -> None:
    with pytest.raises(Malformed, match="tlog-proof"):
        TlogProof.parse(SPEC_PROOF.replace(*change).encode())


def keys(name: str, kind: SignatureType) -> SignerKey:
    return SignerKey.generate(name, kind)


def test_the_c2sp_policy_example_and_its_quorum() -> None:
    log = keys(ORIGIN, SignatureType.ED25519)
    w = {n: keys(f"{n.lower()}.example", SignatureType.COSIGNATURE_V1) for n in ("X1", "X2", "X3", "Y1", "Y2", "Y3")}
    text = f"""# the example of c2sp.org/tlog-policy, with keys
log {log.verifier()}

witness X1 {w["X1"].verifier()}
\twitness X2  {w["X2"].verifier()}   https://x2.example/
witness X3 {w["X3"].verifier()}
group X-witnesses 2 X1 X2 X3

witness Y1 {w["Y1"].verifier()}
witness Y2 {w["Y2"].verifier()}
witness Y3 {w["Y3"].verifier()}
group Y-witnesses any Y1 Y2 Y3

group X-and-Y all X-witnesses Y-witnesses
quorum X-and-Y
"""
    policy = Policy.parse(text.encode())
    assert policy.witnesses["X2"].url == "https://x2.example/" and policy.quorum == "X-and-Y"
    assert policy.satisfied({"X1", "X3", "Y2"}) and not policy.satisfied({"X1", "Y1", "Y2", "Y3"})
    assert not policy.satisfied({"X1", "X2", "X3"})
    checkpoint = Checkpoint(ORIGIN, 1, leaf_hash(b"only"))
    signed = checkpoint.sign(log)
    lines = "".join(cosign(checkpoint.text(), w[n], 1_700_000_000 + i).line() for i, n in enumerate(["X1", "X3", "Y2"]))
    stranger = cosign(checkpoint.text(), keys("stranger.example", SignatureType.COSIGNATURE_V1), 5).line()
    verified, times = policy.verify(signed + (lines + stranger).encode())
    assert verified == checkpoint and times == {"X1": 1_700_000_000, "X3": 1_700_000_001, "Y2": 1_700_000_002}
    with pytest.raises(Unverified, match="quorum X-and-Y"):
        policy.verify(signed + lines.split("\n", 1)[1].encode())
    impostor = Checkpoint(ORIGIN, 1, leaf_hash(b"other")).sign(keys(ORIGIN, SignatureType.ED25519))
    with pytest.raises(Unverified):
        policy.verify(impostor + lines.encode())


def test_quorum_none_and_a_single_witness() -> None:
    log, w = keys(ORIGIN, SignatureType.ED25519), keys("w.example", SignatureType.COSIGNATURE_V1)
    assert Policy.parse(f"log {log.verifier()}\nquorum none\n".encode()).satisfied(set())
    single = Policy.parse(f"log {log.verifier()}\nwitness W {w.verifier()}\nquorum W\n".encode())
    assert single.satisfied({"W"}) and not single.satisfied(set())


def refused_policies() -> list[str]:
    log, w1, w2 = (
        keys(ORIGIN, SignatureType.ED25519),
        keys("w1.example", SignatureType.COSIGNATURE_V1),
        keys("w2.example", SignatureType.COSIGNATURE_V1),
    )
    head = f"log {log.verifier()}\nwitness A {w1.verifier()}\nwitness B {w2.verifier()}\n"
    renamed = VerifierKey("w3.example", SignatureType.COSIGNATURE_V1, w1.verifier().public)
    return [
        head,  # no quorum
        head + "quorum A\nquorum B\n",
        head + "quorum C\n",  # not defined
        head + "group G 1 A C\nquorum G\n",
        head + "quorum G\ngroup G any A B\n",  # defined after its use
        head + "group G 3 A B\nquorum G\n",
        head + "group G 0 A B\nquorum G\n",
        head + "group G 01 A B\nquorum G\n",
        head + "group G any A A\nquorum G\n",
        head + "group G any none\nquorum G\n",
        head + "group A any B\nquorum A\n",  # a name taken
        head + "witness none " + str(keys("n.example", SignatureType.COSIGNATURE_V1).verifier()) + "\nquorum none\n",
        head + f"witness C {renamed}\nquorum A\n",  # the same public key under another name
        head + f"witness C {log.verifier()}\nquorum A\n",  # a log key as a witness's
        head + "quorum A\x0b\n",
        head + "witness C\nquorum A\n",
        head + "quorum A extra\n",
    ]


@pytest.mark.parametrize("index", range(17))
def test_a_policy_the_spec_does_not_allow_is_refused(index: int) -> None:
    with pytest.raises(Malformed, match="policy"):
        Policy.parse(refused_policies()[index].encode())


def test_a_round_trip_from_tree_to_offline_check() -> None:
    """A proof written from a cosigned checkpoint, parsed back and checked as a verifier would."""
    log, w = keys(ORIGIN, SignatureType.ED25519), keys("w.example", SignatureType.COSIGNATURE_V1)
    leaves = [f"leaf {i}".encode() for i in range(1000)]
    tree = MemoryTree([leaf_hash(leaf) for leaf in leaves])
    checkpoint = Checkpoint(ORIGIN, 1000, tree.root())
    note = checkpoint.sign(log) + cosign(checkpoint.text(), w, 1_700_000_000).line().encode()
    text = TlogProof(617, tuple(inclusion_proof(tree, 617, 1000)), note).render()
    proof = TlogProof.parse(text)
    policy = Policy.parse(f"log {log.verifier()}\nwitness W {w.verifier()}\nquorum W\n".encode())
    verified, times = policy.verify(proof.checkpoint)
    verify_inclusion(leaf_hash(leaves[617]), proof.index, verified.size, proof.hashes, verified.root)
    assert times == {"W": 1_700_000_000} and base64.b64encode(tree.root()).decode() in text.decode()

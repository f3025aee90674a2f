"""Tiled logs (c2sp.org/tlog-tiles): tile and entry-bundle paths, the tiles of a tree, entry bundles.

A tile at level L, index N holds up to 256 hashes, each the root of a perfect subtree of 256**L leaves;
a full tile is 256 hashes, a partial one (`.p/<W>`) the W < 256 at the tree's right edge.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pit.tlog.errors import Malformed
from pit.tlog.merkle import HashStore

__all__ = ["TILE_WIDTH", "Tile", "encode_bundle", "tile_data", "tile_for"]

TILE_WIDTH = 256
TILE_HEIGHT = 8  # log2(TILE_WIDTH): the tree levels one tile spans
MAX_LEVEL = 63
MAX_ENTRY = 0xFFFF
_PATH = re.compile(
    r"tile/(?P<level>0|[1-9][0-9]?|entries)/(?P<index>(?:x[0-9]{3}/)*[0-9]{3})"
    r"(?:\.p/(?P<width>[1-9][0-9]{0,2}))?"
)


@dataclass(frozen=True)
class Tile:
    level: int | None  # None for an entry bundle
    index: int
    width: int = TILE_WIDTH

    @property
    def full(self) -> bool:
        return self.width == TILE_WIDTH

    def path(self) -> str:
        """`tile/<L>/<N>[.p/<W>]`, or `tile/entries/<N>[.p/<W>]`, without the log's prefix."""
        digits = f"{self.index:03d}"
        groups = [digits[max(0, end - 3) : end] for end in range(len(digits), 0, -3)][::-1]
        groups[0] = groups[0].rjust(3, "0")
        number = "/".join(["x" + g for g in groups[:-1]] + [groups[-1]])
        level = "entries" if self.level is None else str(self.level)
        return f"tile/{level}/{number}" + ("" if self.full else f".p/{self.width}")

    @classmethod
    def parse(cls, path: str) -> Tile:
        match = _PATH.fullmatch(path)
        if match is None:
            raise Malformed(f"tile path {path!r}: it is tile/<L>/<N>[.p/<W>] or tile/entries/<N>[.p/<W>]")
        level = None if match["level"] == "entries" else int(match["level"])
        partial = match["width"] is not None
        width = int(match["width"]) if partial else TILE_WIDTH
        if (level is not None and level > MAX_LEVEL) or (partial and width >= TILE_WIDTH):
            raise Malformed(f"tile path {path!r}: a level to {MAX_LEVEL}, a partial width from 1 to 255")
        tile = cls(level, int(match["index"].replace("x", "").replace("/", "")), width)
        if tile.path() != path:
            raise Malformed(f"tile path {path!r}: the index is written {tile.path()!r}")
        return tile


def tiles_of(size: int) -> list[Tile]:
    """Every hash tile a tree of `size` leaves has: the full ones, and the partial one per level."""
    tiles: list[Tile] = []
    level = 0
    while size >> (TILE_HEIGHT * level):
        count = size >> (TILE_HEIGHT * level)
        tiles += [Tile(level, n) for n in range(count // TILE_WIDTH)]
        if count % TILE_WIDTH:
            tiles.append(Tile(level, count // TILE_WIDTH, count % TILE_WIDTH))
        level += 1
    return tiles


def tile_for(level: int, index: int, size: int) -> Tile:
    """The tile at (level, index) as a tree of `size` leaves has it: full, or partial at the edge."""
    count = size >> (TILE_HEIGHT * level)
    width = min(TILE_WIDTH, count - index * TILE_WIDTH)
    if width <= 0:
        raise Malformed(f"tile {level}/{index}: not in a tree of {size}")
    return Tile(level, index, width)


def tile_data(store: HashStore, tile: Tile) -> bytes:
    """The tile's hashes: MTH(D[(N*256+i) * 256**L : (N*256+i+1) * 256**L]) for i below its width."""
    if tile.level is None:
        raise Malformed("an entry bundle holds entries, not hashes")
    return b"".join(store.perfect(TILE_HEIGHT * tile.level, tile.index * TILE_WIDTH + i) for i in range(tile.width))


def encode_bundle(entries: list[bytes]) -> bytes:
    """An entry bundle: each entry after its big-endian uint16 length."""
    out = bytearray()
    for at, entry in enumerate(entries):
        if len(entry) > MAX_ENTRY:
            raise Malformed(f"entry {at}: {len(entry)} bytes, more than a bundle's {MAX_ENTRY}")
        out += len(entry).to_bytes(2, "big") + entry
    return bytes(out)


def decode_bundle(data: bytes) -> list[bytes]:
    entries: list[bytes] = []
    at = 0
    while at < len(data):
        if at + 2 > len(data):
            raise Malformed(f"entry bundle: a length cut short at byte {at}")
        length = int.from_bytes(data[at : at + 2], "big")
        if at + 2 + length > len(data):
            raise Malformed(f"entry bundle: entry {len(entries)} at byte {at} runs past the end")
        entries.append(data[at + 2 : at + 2 + length])
        at += 2 + length
    return entries

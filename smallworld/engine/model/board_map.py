"""The game's map: every region of the game's board sides under one flat index.

Region sets are ints used as bitmasks (bit i = region i): cheap to combine, copy and hash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from smallworld.boards.model import BoardSide
from smallworld.engine.model.derived import ADJACENCY


def bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True)
class MapRegion:
    index: int
    board: int  # position of its side in the game's side list
    side: str
    local_id: int
    name: str
    terrain: str
    features: frozenset[str]

    @property
    def ref(self) -> str:
        return f"{self.side}:{self.local_id}"


class Map:
    """Static facts about the regions of one game, with precomputed masks.

    Terrains and features are open sets (each edition names its own): `terrain_mask[t]` and
    `features[f]` give the regions of each; `water` are the terrains no race stands on without a
    rule of its own, and `defence[r]` what the region's terrain adds to a conquest cost."""

    def __init__(
        self,
        sides: Sequence[BoardSide],
        water: frozenset[str] = frozenset(),
        terrain_defence: Mapping[str, int] | None = None,
    ) -> None:
        self.sides = tuple(sides)
        regions: list[MapRegion] = []
        index_of: dict[tuple[int, int], int] = {}
        for b, side in enumerate(self.sides):
            for r in side.regions:
                if (b, r.id) in index_of:
                    raise KeyError(f"side {side.id} has two regions with the id {r.id}")
                index_of[(b, r.id)] = len(regions)
                regions.append(
                    MapRegion(len(regions), b, side.id, r.id, r.name, r.terrain, frozenset(r.features))
                )
        self.regions = tuple(regions)
        self.n = len(regions)
        self._refs = tuple(reg.ref for reg in regions)  # `ref` is asked for every event's regions
        adj = [0] * self.n
        for b, side in enumerate(self.sides):
            for r in side.regions:
                i = index_of[(b, r.id)]
                for other in r.adjacent:
                    if (b, other) not in index_of:
                        raise KeyError(f"region {side.id}:{r.id} names a neighbour {other} that is not there")
                    adj[i] |= 1 << index_of[(b, other)]
        self.adj = tuple(adj)
        # `adjacent_to`'s answers, at most `derived.ADJACENCY`, the oldest dropped first (a hit costs
        # one dict lookup: it is asked at every listing of conquests).
        self.adjacency: dict[int, int] = {}
        self.refs = {reg.ref: reg.index for reg in regions}
        # Bare local ids are accepted when a game has a single side.
        if len(self.sides) == 1:
            self.refs.update({str(reg.local_id): reg.index for reg in regions})

        def mask(pred: Callable[[MapRegion], bool]) -> int:
            return sum(1 << reg.index for reg in regions if pred(reg))

        self.all_mask = (1 << self.n) - 1
        self.water = mask(lambda g: g.terrain in water)
        terrains = sorted({g.terrain for g in regions})
        self.terrain_mask = {t: sum(1 << g.index for g in regions if g.terrain == t) for t in terrains}
        names = sorted({f for g in regions for f in g.features})
        self.features: dict[str, int] = {
            f: sum(1 << g.index for g in regions if f in g.features) for f in names
        }
        self.board_mask = tuple(
            sum(1 << g.index for g in regions if g.board == b) for b in range(len(self.sides))
        )
        table = terrain_defence or {}
        self.defence = tuple(table.get(g.terrain, 0) for g in regions)

    def feature(self, name: str) -> int:
        """The mask of the regions with this feature (0 when no region of this map has it)."""
        return self.features.get(name, 0)

    def ref(self, index: int) -> str:
        return self._refs[index]

    def index(self, ref: str | int) -> int:
        """Flat index of a region given as "SIDE:ID", a bare id on a one-side map, or an int."""
        if isinstance(ref, int) and not isinstance(ref, bool):
            if 0 <= ref < self.n:
                return ref
            raise KeyError(f"region index {ref} is outside 0..{self.n - 1}")
        key = str(ref).strip()
        if key in self.refs:
            return self.refs[key]
        low = key.lower()
        for reg in self.regions:
            if reg.name.lower() == low:
                return reg.index
        raise KeyError(f"no region {ref!r} on this map")

    def adjacent_to(self, mask: int) -> int:
        """The regions adjacent to any region of `mask` (remembered: every listing of conquests
        asks it of the conquering race's regions, which change only with a conquest)."""
        memo = self.adjacency
        got = memo.get(mask)
        if got is not None:
            return got
        out = 0
        adj = self.adj
        m = mask
        while m:
            low = m & -m
            out |= adj[low.bit_length() - 1]
            m ^= low
        if len(memo) >= ADJACENCY:
            del memo[next(iter(memo))]
        memo[mask] = out
        return out

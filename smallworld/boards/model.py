"""Board sides as plain data: regions with terrain, features, polygon and neighbours.

A *side* is one face of a double-sided island board. Region ids are small integers that are
unique within a side; a game addresses a region by its flat index in the game's `Map`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# The terrains, features and sizes of the Small World of Warcraft islands (the board validator checks
# the shipped sides against them). Board data itself takes any name: each edition says which
# terrains and features it knows (`engine.edition.Edition`), and the game checks a side against it.
TERRAINS = ("Fields", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake")
WATER = frozenset({"Sea", "Lake"})
FEATURES = ("Magic", "Cavern", "Entry", "Murloc", "Size")
SIZES = ("S", "M", "L")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 _-]{0,31}$")

Point = tuple[float, float]


@dataclass(frozen=True)
class Region:
    id: int
    name: str
    terrain: str
    features: frozenset[str] = frozenset()
    adjacent: tuple[int, ...] = ()
    polygon: tuple[Point, ...] = ()

    @property
    def is_water(self) -> bool:
        return self.terrain in WATER

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "name": self.name,
            "terrain": self.terrain,
            "features": sorted(self.features),
            "adjacent": list(self.adjacent),
        }
        if self.polygon:
            out["polygon"] = [list(p) for p in self.polygon]
        return out


@dataclass(frozen=True)
class BoardSide:
    id: str
    size: str
    name: str
    regions: tuple[Region, ...]
    board: str = ""
    outline: tuple[Point, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def region(self, rid: int) -> Region:
        for r in self.regions:
            if r.id == rid:
                return r
        raise KeyError(f"board side {self.id!r} has no region {rid}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": 1,
            "id": self.id,
            "board": self.board,
            "size": self.size,
            "name": self.name,
            "regions": [r.to_json() for r in self.regions],
        }
        if self.outline:
            out["outline"] = [list(p) for p in self.outline]
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardSide:
        """Build a side from its JSON form. Raises `BoardFormatError` naming the bad field."""
        from smallworld.boards.errors import BoardFormatError

        sid = data.get("id")
        if not isinstance(sid, str) or not sid:
            raise BoardFormatError("?", None, "field 'id' must be a non-empty string")
        size = data.get("size")
        if not isinstance(size, str) or not _NAME.match(size):
            raise BoardFormatError(sid, None, f"field 'size' must be a short name (S, M, L), got {size!r}")
        raw_regions = data.get("regions")
        if not isinstance(raw_regions, list) or not raw_regions:
            raise BoardFormatError(sid, None, "field 'regions' must be a non-empty list")
        regions = []
        for i, raw in enumerate(raw_regions):
            if not isinstance(raw, dict):
                raise BoardFormatError(sid, None, f"regions[{i}] must be an object")
            rid = raw.get("id")
            if not isinstance(rid, int) or isinstance(rid, bool):
                raise BoardFormatError(sid, None, f"regions[{i}].id must be an integer")
            terrain = raw.get("terrain")
            if not isinstance(terrain, str) or not _NAME.match(terrain):
                raise BoardFormatError(sid, rid, f"terrain must be a terrain name, got {terrain!r}")
            feats = raw.get("features", [])
            if not isinstance(feats, list) or any(
                not isinstance(f, str) or not _NAME.match(f) for f in feats
            ):
                raise BoardFormatError(sid, rid, "features must be a list of feature names")
            adj = raw.get("adjacent", [])
            if not isinstance(adj, list) or any(not isinstance(a, int) or isinstance(a, bool) for a in adj):
                raise BoardFormatError(sid, rid, "adjacent must be a list of region ids")
            poly = raw.get("polygon", [])
            try:
                polygon = tuple((float(p[0]), float(p[1])) for p in poly)
            except (TypeError, ValueError, IndexError):
                raise BoardFormatError(sid, rid, "polygon must be a list of [x, y] points") from None
            regions.append(
                Region(
                    id=rid,
                    name=str(raw.get("name", f"Region {rid}")),
                    terrain=terrain,
                    features=frozenset(feats),
                    adjacent=tuple(adj),
                    polygon=polygon,
                )
            )
        outline_raw = data.get("outline", [])
        try:
            outline = tuple((float(p[0]), float(p[1])) for p in outline_raw)
        except (TypeError, ValueError, IndexError):
            raise BoardFormatError(sid, None, "outline must be a list of [x, y] points") from None
        known = {"format", "id", "board", "size", "name", "regions", "outline"}
        return cls(
            id=sid,
            size=size,
            name=str(data.get("name", sid)),
            regions=tuple(regions),
            board=str(data.get("board", "")),
            outline=outline,
            extra={k: v for k, v in data.items() if k not in known},
        )

"""Checks for board sides and for the whole board set.

Each check has a short rule name (shown in brackets) so that docs, tests and error messages can refer
to it. `validate_side` checks one side, `validate_set` the shipped set as a whole, and
`validate_sides_for_game` is the structural subset the engine runs on custom or inline boards.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from smallworld.boards import geometry
from smallworld.boards.model import FEATURES, SIZES, TERRAINS, WATER, BoardSide, Region
from smallworld.boards.setup import SIZES_BY_PLAYERS, boards_by_size

# Region counts per board size, water included (our design, §2.1 leaves it open).
REGION_COUNTS: dict[str, tuple[int, int]] = {"S": (7, 8), "M": (9, 10), "L": (11, 12)}
MIN_ENTRIES = 3
# Physical limits, rules §1.1/§1.2: 15 Murloc tokens and 10 Mountain markers in the box.
MAX_MURLOCS = 15
MAX_MOUNTAINS = 10
SIDES_PER_SIZE = 4
# Scoring categories that must exist in every game, whatever sides are drawn.
SCORING = ("Fields", "Forest", "Hill", "Mountain", "Swamp", "Magic", "Cavern", "Fishing")
# Relative tolerance when comparing the sum of region areas with the area of the outline.
AREA_TOLERANCE = 1e-3


@dataclass(frozen=True)
class Problem:
    side: str
    region: int | None
    rule: str
    message: str

    def __str__(self) -> str:
        where = f"side {self.side}" + (f", region {self.region}" if self.region is not None else "")
        return f"{where}: [{self.rule}] {self.message}"


def _structure(side: BoardSide) -> list[Problem]:
    return structure_problems(side, TERRAINS, FEATURES)


def structure_problems(side: BoardSide, terrains: Sequence[str], features: Sequence[str]) -> list[Problem]:
    """Ids, terrains, features and adjacency as a graph: what the engine needs to play on a side.
    `terrains` and `features` are the names its edition knows (the islands' by default)."""
    out: list[Problem] = []
    terrains, features = tuple(terrains), tuple(features)

    def bad(region: int | None, rule: str, message: str) -> None:
        out.append(Problem(side.id, region, rule, message))

    ids = [r.id for r in side.regions]
    for rid in sorted({i for i in ids if ids.count(i) > 1}):
        bad(rid, "unique-ids", f"region id {rid} is used {ids.count(rid)} times")
    if not side.regions:
        bad(None, "regions", "the side has no regions")
    if side.size not in SIZES:
        bad(None, "size", f"size must be one of {SIZES}, got {side.size!r}")
    by_id = {r.id: r for r in side.regions}
    for r in side.regions:
        if r.terrain not in terrains:
            bad(r.id, "terrain", f"terrain must be one of {terrains}, got {r.terrain!r}")
        unknown = sorted(r.features - set(features))
        if unknown:
            bad(r.id, "features", f"unknown features {unknown}; allowed: {features}")
        if len(set(r.adjacent)) != len(r.adjacent):
            bad(r.id, "adjacency-duplicate", f"adjacent lists a region twice: {list(r.adjacent)}")
        for a in r.adjacent:
            if a == r.id:
                bad(r.id, "self-adjacent", "a region cannot be adjacent to itself")
            elif a not in by_id:
                bad(r.id, "adjacency-ref", f"adjacent names region {a}, which does not exist")
            elif r.id not in by_id[a].adjacent:
                bad(r.id, "adjacency-symmetric", f"lists {a} as adjacent but region {a} does not list {r.id}")
    return out


def _land_components(side: BoardSide) -> list[set[int]]:
    land = {r.id: r for r in side.regions if r.terrain not in WATER}
    seen: set[int] = set()
    parts: list[set[int]] = []
    for start in sorted(land):
        if start in seen:
            continue
        part = {start}
        stack = [start]
        while stack:
            for a in land[stack.pop()].adjacent:
                if a in land and a not in part:
                    part.add(a)
                    stack.append(a)
        seen |= part
        parts.append(part)
    return parts


def geometry_problems(side: BoardSide) -> tuple[list[Problem], set[int] | None]:
    """Polygon checks (simple, no overlap, adjacency matching shared borders, tiling the outline);
    also returns the ids of the regions touching the outline (None when it cannot tell)."""
    return _geometry(side)


def _geometry(side: BoardSide) -> tuple[list[Problem], set[int] | None]:
    """Polygon checks; also returns the ids of coastal regions (None when it cannot tell)."""
    out: list[Problem] = []

    def bad(region: int | None, rule: str, message: str) -> None:
        out.append(Problem(side.id, region, rule, message))

    missing = [r.id for r in side.regions if not r.polygon]
    if missing:
        bad(None, "polygon-missing", f"regions without a polygon: {missing}")
        return out, None
    good: list[Region] = []
    for r in side.regions:
        if not geometry.is_simple(r.polygon) or geometry.area(r.polygon) < 1e-6:
            bad(r.id, "polygon-simple", "polygon must have 3+ distinct points, no crossing edges, some area")
        else:
            good.append(r)
    inner = {r.id: geometry.interior_point(r.polygon)[0] for r in good}
    for a, b in itertools.combinations(good, 2):
        b_edges = geometry.edges(b.polygon)
        crossing = any(geometry.segments_cross(s, t) for s in geometry.edges(a.polygon) for t in b_edges)
        if (
            crossing
            or geometry.point_in_polygon(inner[a.id], b.polygon)
            or geometry.point_in_polygon(inner[b.id], a.polygon)
        ):
            bad(a.id, "overlap", f"polygon overlaps region {b.id}")
            continue
        touching = geometry.shares_border(a.polygon, b.polygon)
        declared = b.id in a.adjacent or a.id in b.adjacent
        if touching and not declared:
            bad(a.id, "adjacency-geometry", f"shares a border with region {b.id} but is not listed adjacent")
        elif declared and not touching:
            bad(a.id, "adjacency-geometry", f"listed adjacent to region {b.id} but shares no border with it")
    outline = side.outline or tuple(
        geometry.chain_loop(geometry.boundary_segments([r.polygon for r in side.regions]))
    )
    if len(outline) < 3:
        bad(None, "outline", "the outline needs at least 3 points")
        return out, None
    total = sum(geometry.area(r.polygon) for r in side.regions)
    island = geometry.area(outline)
    if abs(total - island) > AREA_TOLERANCE * island:
        bad(None, "tiling", f"regions cover {total:.2f} of the outline's {island:.2f}: gaps or overlaps")
    for r in good:
        if not geometry.point_in_polygon(inner[r.id], outline):
            bad(r.id, "tiling", "region lies outside the island outline")
    coast = {r.id for r in side.regions if geometry.touches_outline(r.polygon, outline)}
    return out, coast


def validate_side(side: BoardSide, require_geometry: bool = True) -> list[Problem]:
    """All checks for one side of a shipped board (rules §2, §3 and our design limits)."""
    out = _structure(side)

    def bad(region: int | None, rule: str, message: str) -> None:
        out.append(Problem(side.id, region, rule, message))

    ids = sorted(r.id for r in side.regions)
    if ids != list(range(1, len(ids) + 1)):
        bad(None, "ids-contiguous", f"region ids must be 1..{len(ids)}, got {ids}")
    lo, hi = REGION_COUNTS.get(side.size, (0, 10**6))
    if not lo <= len(side.regions) <= hi:
        bad(None, "region-count", f"a size {side.size} side needs {lo}-{hi} regions, has {len(side.regions)}")
    water = [r for r in side.regions if r.is_water]
    if len(water) > 1:
        bad(None, "water-count", f"at most one Sea or Lake per side, found regions {[r.id for r in water]}")
    for r in water:
        if r.features:
            bad(r.id, "feature-on-water", f"{r.terrain} region carries {sorted(r.features)}")
    land = [r for r in side.regions if not r.is_water]

    def having(feature: str) -> list[Region]:
        return [r for r in land if feature in r.features]

    sized = having("Size")
    if len(sized) != 1:
        bad(None, "size-icon", f"exactly one land region needs the Size icon, found {[r.id for r in sized]}")
    entries = having("Entry")
    if len(entries) < MIN_ENTRIES:
        bad(None, "entries", f"needs at least {MIN_ENTRIES} Entry regions, has {len(entries)}")
    for feature in ("Magic", "Cavern"):
        if not having(feature):
            bad(None, feature.lower(), f"needs at least one {feature} region")
    parts = _land_components(side)
    if len(parts) > 1:
        islands = "; ".join(str(sorted(p)) for p in parts)
        bad(None, "land-connected", f"land regions fall apart into {len(parts)} groups: {islands}")
    if require_geometry or any(r.polygon for r in side.regions):
        geo, coast = _geometry(side)
        out.extend(geo)
        if coast is not None:
            for r in entries:
                if r.id not in coast:
                    bad(r.id, "entry-coast", "Entry regions must lie on the coast")
    return out


def scoring_counts(side: BoardSide) -> dict[str, int]:
    """Regions per scoring category (terrain powers, Magic, Cavern, Fishing) on one side."""
    land = [r for r in side.regions if not r.is_water]
    water = {r.id for r in side.regions if r.is_water}
    counts = {t: sum(r.terrain == t for r in land) for t in ("Fields", "Forest", "Hill", "Mountain", "Swamp")}
    counts["Magic"] = sum("Magic" in r.features for r in land)
    counts["Cavern"] = sum("Cavern" in r.features for r in land)
    counts["Fishing"] = sum(any(a in water for a in r.adjacent) for r in land)
    counts["Murloc"] = sum("Murloc" in r.features for r in land)
    return counts


def _extreme_over_draws(
    boards: dict[str, dict[str, list[str]]],
    sizes: str,
    value: dict[str, int],
    worst: bool,
) -> int | None:
    """Largest (worst=True) or smallest total of `value` over every legal draw for this setup.

    A draw takes distinct physical boards of the given sizes and any side of each, so the extreme
    is the per-board extreme summed over the most extreme choice of boards.
    """
    pick = max if worst else min
    per_board = {
        size: {b: pick(value[s] for s in ids) for b, ids in bs.items()} for size, bs in boards.items()
    }
    total = 0
    for size in set(sizes):
        need = sizes.count(size)
        vals = sorted(per_board.get(size, {}).values(), reverse=worst)
        if len(vals) < need:
            return None
        total += sum(vals[:need])
    return total


def validate_set(sides: Sequence[BoardSide]) -> list[Problem]:
    """Checks on the set as a whole (§1.1 inventory and limits, §3.1 setup). Side checks not included."""
    out: list[Problem] = []

    def bad(side: str, rule: str, message: str) -> None:
        out.append(Problem(side, None, rule, message))

    ids = [s.id for s in sides]
    for sid in sorted({i for i in ids if ids.count(i) > 1}):
        bad(sid, "set-unique", f"side id {sid} appears {ids.count(sid)} times")
    for size in SIZES:
        n = sum(s.size == size for s in sides)
        if n != SIDES_PER_SIZE:
            bad("*", "set-sizes", f"needs {SIDES_PER_SIZE} size {size} sides (2 boards x 2), has {n}")
    boards = boards_by_size(sides)
    for bs in boards.values():
        for board, faces in bs.items():
            if len(faces) != 2:
                bad(board, "set-boards", f"physical board {board} needs 2 sides, has {faces}")
    for s in sides:
        if s.board and sum(o.board == s.board for o in sides if o.size != s.size):
            bad(s.id, "set-boards", f"board {s.board} has sides of different sizes")
    murlocs = {s.id: sum("Murloc" in r.features for r in s.regions) for s in sides}
    mountains = {s.id: sum(r.terrain == "Mountain" for r in s.regions) for s in sides}
    for players, sizes in sorted(SIZES_BY_PLAYERS.items()):
        for what, counts, limit in (("Murloc", murlocs, MAX_MURLOCS), ("Mountain", mountains, MAX_MOUNTAINS)):
            worst = _extreme_over_draws(boards, sizes, counts, worst=True)
            if worst is not None and worst > limit:
                rule = "set-murlocs" if what == "Murloc" else "set-mountains"
                bad("*", rule, f"a {players}-player game can need {worst} {what} pieces; the box has {limit}")
    per_side = {s.id: scoring_counts(s) for s in sides}
    for players, sizes in sorted(SIZES_BY_PLAYERS.items()):
        for cat in SCORING:
            least = _extreme_over_draws(boards, sizes, {k: v[cat] for k, v in per_side.items()}, worst=False)
            if least == 0:
                bad("*", "set-scoring", f"a {players}-player game can have no region for {cat}")
    with_water = sum(any(r.is_water for r in s.regions) for s in sides)
    target = round(len(sides) * 2 / 3)
    if sides and abs(with_water - target) > 1:
        bad("*", "set-water", f"about two thirds of the sides ({target}) should have water, {with_water} do")
    return out


def validate_sides_for_game(sides: Iterable[BoardSide]) -> list[Problem]:
    """Structural checks for boards the engine is asked to play on (custom or inline test boards).

    Unique side ids; per side: unique region ids, known terrains and features, adjacency that names
    existing regions, is symmetric and never self-referential. Polygons and design limits (counts,
    features, Murloc totals) are not required.
    """
    out: list[Problem] = []
    seen: set[str] = set()
    for side in sides:
        if side.id in seen:
            out.append(Problem(side.id, None, "set-unique", f"side id {side.id} appears more than once"))
        seen.add(side.id)
        out.extend(_structure(side))
    return out

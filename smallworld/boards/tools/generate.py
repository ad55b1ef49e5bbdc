"""Generate the twelve shipped board sides (`smallworld/boards/sides/*.json`).

Run `python -m smallworld.boards.tools.generate` after changing a spec below; commit the JSON.

Geometry: each side is a Voronoi partition of a wobbly island outline. Region seeds sit on two rings:
an inner ring (cells that never reach the coast: Lakes and the Size-icon region go there) and an outer
ring in angular order (coastal cells: Entries and Seas go there). Every cell is the outline clipped by
the bisector half-planes against all other seeds, so neighbouring cells share their border vertices;
the vertices are then merged and rounded to two decimals so shared borders are bit-identical in the
JSON. Adjacency is computed from that geometry with the same code the validator uses.

Everything is seeded from the side id, so running the script twice gives the same files.
"""

from __future__ import annotations

import json
import math
import random
import sys
from dataclasses import dataclass
from pathlib import Path

from smallworld.boards import geometry
from smallworld.boards.model import WATER, BoardSide, Point, Region

OUT_DIR = Path(__file__).resolve().parent.parent / "sides"

# (name, terrain, features separated by spaces)
RegionSpec = tuple[str, str, str]


@dataclass(frozen=True)
class SideSpec:
    id: str
    name: str
    rot: float  # where the outer ring starts, degrees; varies the look between sides
    aspect: tuple[float, float]  # x and y stretch of the island
    inner: tuple[RegionSpec, ...]
    outer: tuple[RegionSpec, ...]  # in angular (clockwise on screen) order

    @property
    def board(self) -> str:
        return self.id[:2]

    @property
    def size(self) -> str:
        return self.id[0]


SPECS: tuple[SideSpec, ...] = (
    SideSpec(
        "L1a", "Emberwatch Isle", 10, (1.0, 0.86),
        inner=(
            ("Cinderfall Downs", "Hill", "Size"),
            ("Smoldercrag", "Mountain", "Cavern"),
            ("Ashenbough Grove", "Forest", "Magic"),
        ),
        outer=(
            ("Saltwind Barley Fields", "Fields", "Entry Murloc"),
            ("Gullcry Bluffs", "Hill", ""),
            ("Redtusk Summit", "Mountain", "Murloc"),
            ("Emberwake Bay", "Sea", ""),
            ("Rotmire Flats", "Swamp", "Entry"),
            ("Bonegnaw Ridge", "Mountain", ""),
            ("Whisperpine Thicket", "Forest", "Entry Murloc"),
            ("Gloomreed Marsh", "Swamp", "Magic Murloc"),
            ("Goldenstalk Meadow", "Fields", "Entry Cavern"),
        ),
    ),
    SideSpec(
        "L1b", "Duskhollow Reach", 55, (0.92, 1.0),
        inner=(
            ("Moonwell Mere", "Lake", ""),
            ("Shadowvale Knoll", "Hill", "Size"),
            ("Gravemoss Fen", "Swamp", "Cavern Murloc"),
        ),
        outer=(
            ("Dawnplough Fields", "Fields", "Entry"),
            ("Owlperch Woods", "Forest", "Murloc"),
            ("Grimspike Peak", "Mountain", "Cavern"),
            ("Tidewrack Shore", "Fields", "Entry Murloc"),
            ("Hexbloom Bog", "Swamp", "Magic"),
            ("Frostjaw Heights", "Mountain", "Entry"),
            ("Runestone Rise", "Hill", "Magic Murloc"),
            ("Thistlewood", "Forest", "Entry"),
        ),
    ),
    SideSpec(
        "L2a", "Stormtusk Isle", 100, (1.0, 0.9),
        inner=(
            ("Stillwater Tarn", "Lake", ""),
            ("Thunderhoof Plain", "Fields", "Size"),
            ("Ironbark Hollow", "Forest", "Magic"),
        ),
        outer=(
            ("Wavebreak Wheatlands", "Fields", "Entry Murloc"),
            ("Boulderfist Tor", "Mountain", "Cavern"),
            ("Kelpstrand Marsh", "Swamp", "Entry"),
            ("Warhorn Downs", "Hill", "Murloc"),
            ("Sunscorch Acres", "Fields", "Magic"),
            ("Howling Pinewood", "Forest", "Entry Murloc"),
            ("Stormtusk Spire", "Mountain", "Murloc"),
            ("Mudfang Mire", "Swamp", "Cavern"),
            ("Driftwood Slopes", "Hill", "Entry"),
        ),
    ),
    SideSpec(
        "L2b", "Gloamspire Expanse", 200, (0.95, 0.95),
        inner=(
            ("Gloamspire", "Mountain", "Cavern"),
            ("Felscar Heath", "Hill", "Size"),
            ("Eldertree Glade", "Forest", "Magic"),
        ),
        outer=(
            ("Icevein Peak", "Mountain", "Entry Murloc"),
            ("Bramblehide Forest", "Forest", ""),
            ("Mistveil Sound", "Sea", ""),
            ("Harvest Moon Fields", "Fields", "Entry Murloc"),
            ("Sludgeback Swamp", "Swamp", "Cavern Murloc"),
            ("Stonehorn Hills", "Hill", "Entry"),
            ("Cragmaw Heights", "Mountain", "Murloc"),
            ("Lanternlight Pasture", "Fields", "Entry Magic"),
        ),
    ),
    SideSpec(
        "M1a", "Frostbrine Holm", 30, (1.0, 0.82),
        inner=(
            ("Hoarfrost Knoll", "Hill", "Size"),
            ("Glacierheart Peak", "Mountain", "Cavern"),
        ),
        outer=(
            ("Brinegrass Fields", "Fields", "Entry Murloc"),
            ("Snowpine Woods", "Forest", "Magic"),
            ("Frostbrine Inlet", "Sea", ""),
            ("Sealhide Hills", "Hill", "Entry"),
            ("Rimecap Mountain", "Mountain", "Murloc"),
            ("Chillwind Bog", "Swamp", "Entry Murloc"),
            ("Hearthfire Farmsteads", "Fields", ""),
            ("Shimmerfir Grove", "Forest", "Entry Magic"),
        ),
    ),
    SideSpec(
        "M1b", "Sablethorn Cay", 75, (0.85, 1.0),
        inner=(
            ("Sablethorn Thicket", "Forest", "Size"),
            ("Obsidian Maw", "Mountain", "Cavern"),
        ),
        outer=(
            ("Sandstrider Fields", "Fields", "Entry"),
            ("Coralback Ridge", "Mountain", "Murloc"),
            ("Venomreed Swamp", "Swamp", "Magic Murloc"),
            ("Sunbleached Hills", "Hill", "Entry"),
            ("Palmshade Grove", "Forest", "Cavern"),
            ("Wildrice Paddies", "Fields", "Entry Murloc"),
            ("Skullcairn Hill", "Hill", "Magic"),
        ),
    ),
    SideSpec(
        "M2a", "Ironbough Isle", 140, (1.0, 0.88),
        inner=(
            ("Ironbough Heartwood", "Forest", "Size"),
            ("Anvilstone Tor", "Mountain", "Cavern"),
        ),
        outer=(
            ("Millwheel Fields", "Fields", "Entry Murloc"),
            ("Foxglove Hills", "Hill", "Magic"),
            ("Sootstack Crag", "Mountain", ""),
            ("Brackenmire", "Swamp", "Entry"),
            ("Timberwolf Woods", "Forest", "Murloc"),
            ("Oathstone Meadows", "Fields", "Entry"),
            ("Leechwater Slough", "Swamp", "Cavern Murloc"),
            ("Barrowmound Hills", "Hill", "Entry Magic"),
        ),
    ),
    SideSpec(
        "M2b", "Mirewatch Isle", 250, (0.9, 0.95),
        inner=(
            ("Mirrormere", "Lake", ""),
            ("Watcher's Hill", "Hill", "Size"),
        ),
        outer=(
            ("Reedbank Fields", "Fields", "Entry Murloc"),
            ("Deepshade Forest", "Forest", "Cavern"),
            ("Crookback Peak", "Mountain", "Magic"),
            ("Mirewatch Fen", "Swamp", "Entry Murloc"),
            ("Greenhollow Fields", "Fields", ""),
            ("Vinewrap Wilds", "Forest", "Entry Magic"),
            ("Cloudbreak Mountain", "Mountain", "Cavern Murloc"),
        ),
    ),
    SideSpec(
        "S1a", "Saltfang Skerry", 20, (1.0, 0.85),
        inner=(("Saltfang Knoll", "Hill", "Size"),),
        outer=(
            ("Gullnest Fields", "Fields", "Entry Murloc"),
            ("Saltfang Cove", "Sea", ""),
            ("Barnacle Marsh", "Swamp", "Magic"),
            ("Driftspar Peak", "Mountain", "Cavern"),
            ("Pinecrest Grove", "Forest", "Entry"),
            ("Tidepool Fen", "Swamp", "Murloc"),
            ("Ropemaker Fields", "Fields", "Entry"),
        ),
    ),
    SideSpec(
        "S1b", "Lantern Rock", 160, (0.88, 1.0),
        inner=(("Lanternkeep Hill", "Hill", "Size"),),
        outer=(
            ("Beaconfire Fields", "Fields", "Entry"),
            ("Wrecker's Bog", "Swamp", "Cavern Murloc"),
            ("Gulltop Crag", "Mountain", ""),
            ("Old Pier Pastures", "Fields", "Entry Murloc"),
            ("Hollowroot Woods", "Forest", "Magic"),
            ("Smuggler's Rise", "Hill", "Entry"),
        ),
    ),
    SideSpec(
        "S2a", "Copperkelp Isle", 300, (1.0, 0.9),
        inner=(("Copperkelp Downs", "Hill", "Size"),),
        outer=(
            ("Tinker's Acres", "Fields", "Entry"),
            ("Rustleaf Woods", "Forest", "Murloc"),
            ("Gearspring Marsh", "Swamp", "Cavern"),
            ("Copperpeak", "Mountain", "Entry"),
            ("Kelpweed Fen", "Swamp", "Magic Murloc"),
            ("Greenfuse Grove", "Forest", "Entry"),
            ("Cogwheel Fields", "Fields", ""),
        ),
    ),
    SideSpec(
        "S2b", "Whisperfen Islet", 230, (0.92, 1.0),
        inner=(
            ("Whispering Pool", "Lake", ""),
            ("Spiritmoss Fen", "Swamp", "Size"),
        ),
        outer=(
            ("Willowbend Fields", "Fields", "Entry Murloc"),
            ("Ghostlight Woods", "Forest", "Magic"),
            ("Hushstone Peak", "Mountain", "Cavern"),
            ("Frogsong Marsh", "Swamp", "Entry Murloc"),
            ("Mossback Hill", "Hill", "Entry"),
        ),
    ),
)


def island_outline(rng: random.Random, aspect: tuple[float, float], n: int = 40) -> list[Point]:
    """A wobbly closed shape around (0, 0) with a mean radius of 1 (a few low harmonics)."""
    phases = [rng.uniform(0, 2 * math.pi) for _ in range(3)]
    amps = (rng.uniform(0.05, 0.09), rng.uniform(0.04, 0.07), rng.uniform(0.015, 0.03))
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        r = 1.0 + sum(a * math.sin(k * t + p) for a, k, p in zip(amps, (2, 3, 5), phases, strict=True))
        r *= 1 + rng.uniform(-0.012, 0.012)
        pts.append((r * math.cos(t) * aspect[0], r * math.sin(t) * aspect[1]))
    return pts


def seeds(spec: SideSpec, rng: random.Random) -> list[Point]:
    ax, ay = spec.aspect
    out: list[Point] = []
    k = len(spec.inner)
    rot = math.radians(spec.rot)
    if k == 1:
        out.append((rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04)))
    else:
        ring = 0.2 if k == 2 else 0.26
        for i in range(k):
            t = rot + math.pi / len(spec.outer) + 2 * math.pi * i / k + rng.uniform(-0.15, 0.15)
            out.append((ring * math.cos(t) * ax, ring * math.sin(t) * ay))
    n = len(spec.outer)
    for i in range(n):
        t = rot + 2 * math.pi * i / n + rng.uniform(-0.2, 0.2) * math.pi / n
        r = rng.uniform(0.64, 0.72)
        out.append((r * math.cos(t) * ax, r * math.sin(t) * ay))
    return out


def clip(poly: list[Point], m: Point, normal: Point) -> list[Point]:
    """Keep the part of `poly` where (p - m) . normal <= 0 (Sutherland-Hodgman, one half-plane)."""

    def side(p: Point) -> float:
        return (p[0] - m[0]) * normal[0] + (p[1] - m[1]) * normal[1]

    out: list[Point] = []
    for i, a in enumerate(poly):
        b = poly[(i + 1) % len(poly)]
        sa, sb = side(a), side(b)
        if sa <= 0:
            out.append(a)
        if (sa < 0 < sb) or (sb < 0 < sa):
            t = sa / (sa - sb)
            out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def voronoi_cells(outline: list[Point], pts: list[Point]) -> list[list[Point]]:
    cells = []
    for i, s in enumerate(pts):
        cell = list(outline)
        for j, o in enumerate(pts):
            if i != j:
                mid = ((s[0] + o[0]) / 2, (s[1] + o[1]) / 2)
                cell = clip(cell, mid, (o[0] - s[0], o[1] - s[1]))
        cells.append(cell)
    return cells


def snap(cells: list[list[Point]]) -> list[list[Point]]:
    """Merge vertices that are the same point computed twice, then round them to two decimals."""
    canon: list[Point] = []

    def find(p: Point) -> Point:
        for c in canon:
            if math.dist(c, p) < 1e-6:
                return c
        canon.append(p)
        return p

    rounded: dict[Point, Point] = {}
    out = []
    for cell in cells:
        poly: list[Point] = []
        for p in cell:
            c = find(p)
            q = rounded.setdefault(c, (round(c[0], 2), round(c[1], 2)))
            if not poly or poly[-1] != q:
                poly.append(q)
        while len(poly) > 1 and poly[0] == poly[-1]:
            poly.pop()
        if geometry.signed_area(poly) < 0:  # clockwise on screen (y down) for every region
            poly.reverse()
        out.append(poly)
    return out


def to_box(p: Point) -> Point:
    # The island's mean radius 1 maps to 45 units around the centre of the 0..100 box.
    return (50 + 45 * p[0], 50 + 45 * p[1])


def build(spec: SideSpec) -> BoardSide:
    rng = random.Random(f"smallworld-board-{spec.id}")
    outline = island_outline(rng, spec.aspect)
    pts = seeds(spec, rng)
    cells = snap([[to_box(p) for p in c] for c in voronoi_cells(outline, pts)])
    coast = geometry.chain_loop(geometry.boundary_segments(cells))
    if geometry.signed_area(coast) < 0:
        coast.reverse()
    specs = list(spec.inner) + list(spec.outer)
    regions = []
    for i, ((name, terrain, feats), poly) in enumerate(zip(specs, cells, strict=True)):
        adjacent = tuple(
            j + 1 for j, other in enumerate(cells) if j != i and geometry.shares_border(poly, other)
        )
        on_coast = geometry.touches_outline(poly, coast)
        if i < len(spec.inner) and on_coast:
            raise SystemExit(f"{spec.id}: inner region {name!r} reaches the coast; move its seed")
        if i >= len(spec.inner) and not on_coast:
            raise SystemExit(f"{spec.id}: outer region {name!r} is landlocked; move its seed")
        regions.append(
            Region(
                id=i + 1,
                name=name,
                terrain=terrain,
                features=frozenset(feats.split()),
                adjacent=adjacent,
                polygon=tuple(poly),
            )
        )
    return BoardSide(
        id=spec.id,
        size=spec.size,
        name=spec.name,
        regions=tuple(regions),
        board=spec.board,
        outline=tuple(coast),
    )


def dump(side: BoardSide) -> str:
    """JSON with one region per block and one point list per line: diffable and still compact."""
    data = side.to_json()
    lines = ["{"]
    for key in ("format", "id", "board", "size", "name"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(data[key])},")
    lines.append(f'  "outline": {json.dumps(data["outline"])},')
    lines.append('  "regions": [')
    for i, r in enumerate(data["regions"]):
        body = ",\n".join(f"      {json.dumps(k)}: {json.dumps(v)}" for k, v in r.items())
        lines.append("    {\n" + body + "\n    }" + ("," if i < len(data["regions"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from smallworld.boards.validate import validate_set, validate_side

    sides = [build(s) for s in SPECS]
    problems = [p for s in sides for p in validate_side(s)] + validate_set(sides)
    for p in problems:
        print(p, file=sys.stderr)
    OUT_DIR.mkdir(exist_ok=True)
    for side in sides:
        (OUT_DIR / f"{side.id}.json").write_text(dump(side), encoding="utf-8")
        water = sum(r.terrain in WATER for r in side.regions)
        print(f"{side.id}: {len(side.regions)} regions, water {water}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Generate the four maps of the classic Small World edition (classic-rules.md §1, §2, §3).

    python tools/classic_maps.py            # writes smallworld/editions/classic/maps/C2..C5.json,
                                            # docs/boards/C2..C5.svg and their block of docs/boards.md
    python tools/classic_maps.py --check    # fails if the files differ from what it would write

The printed maps are not ours to copy: only their region and border counts are kept (23/30/39/48
regions with 51/71/95/120 borders for 2/3/4/5 players, classic-rules.md §2). Each map is a square cut
into rows of cells with wavy row boundaries. With r rows of k_1..k_r cells whose cuts never meet,
borders = 3N - k_1 - k_r - 2r + 1, so the row sizes below give the printed counts exactly.

Terrains and symbols follow the printed game's mix: every terrain about equally often, two or three
Seas on the edge and one Lake inland (CL-AMB-33), Magic/Mine/Cavern symbols, and Lost Tribe symbols
on about a third of the land (at most 18 tokens and 9 Mountain markers are in the box, §1). The
`Border` feature marks the border regions of CL-AMB-33: every region touching the edge, and every
land region next to a Sea that touches it. Everything is drawn from a fixed seed, so the output is
reproducible.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "smallworld" / "editions" / "classic" / "maps"

# players -> (rows of cells, seas, land terrain counts, Magic, Mine, Cavern, Lost Tribes, name)
LAYOUTS: dict[int, dict[str, object]] = {
    2: {
        "rows": [6, 6, 6, 5],
        "seas": 2,
        "land": {"Farmland": 4, "Forest": 4, "Hill": 4, "Mountain": 4, "Swamp": 4},
        "Magic": 3, "Mine": 3, "Cavern": 3, "LostTribe": 7,
        "name": "The Twin Vales",
    },
    3: {
        "rows": [5, 7, 6, 7, 5],
        "seas": 2,
        "land": {"Farmland": 6, "Forest": 5, "Hill": 5, "Mountain": 5, "Swamp": 6},
        "Magic": 4, "Mine": 4, "Cavern": 4, "LostTribe": 9,
        "name": "The Three Marches",
    },
    4: {
        "rows": [6, 9, 9, 8, 7],
        "seas": 3,
        "land": {"Farmland": 7, "Forest": 7, "Hill": 7, "Mountain": 7, "Swamp": 7},
        "Magic": 5, "Mine": 5, "Cavern": 5, "LostTribe": 12,
        "name": "The Four Winds",
    },
    5: {
        "rows": [6, 9, 9, 9, 8, 7],
        "seas": 3,
        "land": {"Farmland": 9, "Forest": 9, "Hill": 9, "Mountain": 8, "Swamp": 9},
        "Magic": 6, "Mine": 6, "Cavern": 6, "LostTribe": 14,
        "name": "The Five Realms",
    },
}  # fmt: skip
EXPECTED = {2: (23, 51), 3: (30, 71), 4: (39, 95), 5: (48, 120)}
SYMBOLS = ("Magic", "Mine", "Cavern", "LostTribe")
MIN_GAP = 2.5  # cuts on one boundary stay this far apart, so no two borders meet in a point
MIN_WIDTH = 7.0

_FIRST = ["Ash", "Bram", "Cold", "Dun", "Elm", "Fern", "Grey", "Hollow", "Iron", "Juni", "Kestrel",
          "Lark", "Moss", "North", "Oak", "Pike", "Quill", "Raven", "Stone", "Thorn", "Umber", "Vale",
          "Wold", "Yarrow", "Amber", "Birch", "Copper", "Dusk", "Ember", "Frost"]  # fmt: skip
_SECOND = {
    "Farmland": ["fields", "meadow", "acres", "furrows", "pasture"],
    "Forest": ["wood", "thicket", "grove", "weald", "holt"],
    "Hill": ["downs", "knoll", "rise", "tor", "brae"],
    "Mountain": ["peak", "crag", "spire", "fell", "horn"],
    "Swamp": ["mire", "fen", "bog", "marsh", "slough"],
    "Sea": ["Sound", "Deep", "Bight", "Reach"],
    "Lake": ["Mere", "Tarn", "Loch"],
}


def _boundary_y(b: int, rows: int, rng: random.Random) -> tuple[float, float, float]:
    """Base height, amplitude and phase of the wavy boundary between row b-1 and row b."""
    base = 100.0 * b / rows
    return base, (0.0 if b in (0, rows) else 1.6 + rng.random() * 1.2), rng.random() * math.tau


def _cuts(rows: list[int], rng: random.Random) -> tuple[list[list[float]], list[list[float]]]:
    """For each row, the x of each inner cut on its top and on its bottom boundary; drawn row by
    row, each away from the cuts of the row above on their shared boundary."""
    top: list[list[float]] = []
    bottom: list[list[float]] = []
    for i, k in enumerate(rows):
        for _attempt in range(100000):
            phase = rng.uniform(-0.3, 0.3)
            t = [round(100.0 * (j + phase) / k + rng.uniform(-2.5, 2.5), 2) for j in range(1, k)]
            b = [round(x + rng.uniform(-3.0, 3.0), 2) for x in t]
            widths_ok = all(
                xs[j + 1] - xs[j] >= MIN_WIDTH
                for xs in ([0.0, *t, 100.0], [0.0, *b, 100.0])
                for j in range(k)
            )
            both = sorted(t + (bottom[i - 1] if i else []))
            if widths_ok and all(both[j + 1] - both[j] >= MIN_GAP for j in range(len(both) - 1)):
                top.append(t)
                bottom.append(b)
                break
        else:
            raise SystemExit(f"could not place the cuts of row {i}")
    return top, bottom


def _geometry(rows: list[int], rng: random.Random) -> list[list[tuple[float, float]]]:
    r = len(rows)
    waves = [_boundary_y(b, r, rng) for b in range(r + 1)]
    top, bottom = _cuts(rows, rng)

    def y(b: int, x: float) -> float:
        base, amp, ph = waves[b]
        return round(base + amp * math.sin(x / 100.0 * 3 * math.tau + ph), 2)

    # The vertices of each boundary: a regular sampling plus every cut that ends on it, so the two
    # rows it separates share exactly the same points.
    verts: list[list[float]] = []
    for b in range(r + 1):
        xs = {float(x) for x in range(0, 101, 5)}
        if b > 0:
            xs |= set(bottom[b - 1])
        if b < r:
            xs |= set(top[b])
        verts.append(sorted(xs))
    polys: list[list[tuple[float, float]]] = []
    for i, k in enumerate(rows):
        t = [0.0, *top[i], 100.0]
        bt = [0.0, *bottom[i], 100.0]
        for j in range(k):
            poly: list[tuple[float, float]] = []
            for x in verts[i]:
                if t[j] <= x <= t[j + 1]:
                    poly.append((x, y(i, x)))
            for x in reversed(verts[i + 1]):
                if bt[j] <= x <= bt[j + 1]:
                    poly.append((x, y(i + 1, x)))
            polys.append(poly)
    return polys


def build(players: int) -> dict[str, object]:
    from smallworld.boards import geometry

    spec = LAYOUTS[players]
    rows: list[int] = spec["rows"]  # type: ignore[assignment]
    rng = random.Random(1000 + players)
    polys = _geometry(rows, rng)
    n = len(polys)
    adj: dict[int, set[int]] = {i: set() for i in range(n)}
    for a in range(n):
        for b in range(a + 1, n):
            if geometry.shares_border(polys[a], polys[b]):
                adj[a].add(b)
                adj[b].add(a)
    outline = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    edge = [geometry.touches_outline(p, outline) for p in polys]
    interior = [i for i in range(n) if not edge[i]]
    for _attempt in range(10000):
        terrain: list[str] = [""] * n
        lake = rng.choice(interior)
        terrain[lake] = "Lake"
        seas = rng.sample([i for i in range(n) if edge[i] and i not in adj[lake] and i != lake], spec["seas"])  # type: ignore[arg-type]
        for s in seas:
            terrain[s] = "Sea"
        land = [i for i in range(n) if not terrain[i]]
        pool = [t for t, c in spec["land"].items() for _ in range(c)]  # type: ignore[attr-defined]
        assert len(pool) == len(land), (players, len(pool), len(land))
        rng.shuffle(pool)
        for i, t in zip(land, pool, strict=True):
            terrain[i] = t
        if _land_connected(adj, terrain) and not any(
            terrain[a] in ("Sea", "Lake") for s in seas for a in adj[s]
        ):
            break
    else:
        raise SystemExit("could not place the terrains")
    features: list[set[str]] = [set() for _ in range(n)]
    for sym in SYMBOLS:
        count: int = spec[sym]  # type: ignore[assignment]
        choices = [i for i in land if sym not in features[i] and len(features[i]) < 2]
        if sym == "LostTribe":
            choices = [i for i in choices if terrain[i] != "Mountain"]
        for i in rng.sample(choices, count):
            features[i].add(sym)
    edge_seas = {i for i in range(n) if terrain[i] == "Sea" and edge[i]}
    for i in range(n):
        if edge[i] or (terrain[i] not in ("Sea", "Lake") and adj[i] & edge_seas):
            features[i].add("Border")
    names = _names(terrain, rng)
    regions = [
        {
            "id": i + 1,
            "name": names[i],
            "terrain": terrain[i],
            "features": sorted(features[i]),
            "adjacent": sorted(a + 1 for a in adj[i]),
            "polygon": [[x, y] for x, y in polys[i]],
        }
        for i in range(n)
    ]
    borders = sum(len(a) for a in adj.values()) // 2
    if (n, borders) != EXPECTED[players]:
        raise SystemExit(f"{players} players: {n} regions, {borders} borders; expected {EXPECTED[players]}")
    return {
        "format": 1,
        "id": f"C{players}",
        "board": f"C{players}",
        "size": "L",
        "name": spec["name"],
        "players": players,
        "outline": [list(p) for p in outline],
        "regions": regions,
    }


def _land_connected(adj: dict[int, set[int]], terrain: list[str]) -> bool:
    land = [i for i, t in enumerate(terrain) if t not in ("Sea", "Lake")]
    seen = {land[0]}
    stack = [land[0]]
    while stack:
        for a in adj[stack.pop()]:
            if a not in seen and terrain[a] not in ("Sea", "Lake"):
                seen.add(a)
                stack.append(a)
    return len(seen) == len(land)


def _names(terrain: list[str], rng: random.Random) -> list[str]:
    firsts = list(_FIRST)
    rng.shuffle(firsts)
    out: list[str] = []
    used: set[str] = set()
    for i, t in enumerate(terrain):
        for k in range(len(firsts) * 5):
            first = firsts[(i + k) % len(firsts)]
            second = _SECOND[t][(i + k) % len(_SECOND[t])]
            name = f"{first} {second}" if t in ("Sea", "Lake") else f"{first}{second}"
            if name not in used:
                used.add(name)
                out.append(name)
                break
    return out


def render(players: int) -> str:
    return json.dumps(build(players), indent=1, ensure_ascii=False) + "\n"


DOC = ROOT / "docs" / "boards.md"
IMG = ROOT / "docs" / "boards"
BEGIN, END = "<!-- classic:begin -->", "<!-- classic:end -->"
TERRAIN_COLS = ("Farmland", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake")


def docs_outputs(texts: dict[int, str]) -> dict[Path, str]:
    """The pictures of the maps and the block of docs/boards.md that shows them."""
    from smallworld.boards.labels import legend_items
    from smallworld.boards.model import BoardSide
    from smallworld.boards.render import render_side

    out: dict[Path, str] = {}
    lines = [BEGIN, ""]
    head = [
        "map",
        "players",
        "regions",
        "borders",
        *TERRAIN_COLS,
        "Magic",
        "Mine",
        "Cavern",
        "Lost Tribe",
        "border regions",
    ]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|---|" + "---:|" * 15)
    sections = []
    for players, text in sorted(texts.items()):
        side = BoardSide.from_json(json.loads(text))
        out[IMG / f"{side.id}.svg"] = render_side(side, legend_items=legend_items("classic"))
        t = {
            k: sum(r.terrain == k for r in side.regions)
            for k in ("Farmland", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake")
        }
        f = {
            k: sum(k in r.features for r in side.regions)
            for k in ("Magic", "Mine", "Cavern", "LostTribe", "Border")
        }
        borders = sum(len(r.adjacent) for r in side.regions) // 2
        cells = [side.id, players, len(side.regions), borders, *t.values(), *f.values()]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
        sections.append(
            f"### {side.id} — {side.name} ({players} players)\n\n"
            f"![{side.id} {side.name}](boards/{side.id}.svg)\n"
        )
    lines += ["", *sections, END]
    doc = DOC.read_text(encoding="utf-8")
    i, j = doc.index(BEGIN), doc.index(END) + len(END)
    out[DOC] = doc[:i] + "\n".join(lines) + doc[j:]
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--check", action="store_true", help="fail when the files are not what this writes")
    args = p.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    texts = {players: render(players) for players in sorted(LAYOUTS)}
    outputs = {OUT / f"C{players}.json": text for players, text in texts.items()}
    outputs.update(docs_outputs(texts))
    stale = []
    for path, text in outputs.items():
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
        elif not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("stale (run tools/classic_maps.py):", *stale, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

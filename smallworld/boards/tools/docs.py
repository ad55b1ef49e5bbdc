"""Regenerate the per-side tables and pictures of `docs/boards.md`.

Run `python -m smallworld.boards.tools.docs` from a source checkout: it writes `docs/boards/<id>.svg`
and replaces the text between the `<!-- sides:begin -->` and `<!-- sides:end -->` markers.
"""

from __future__ import annotations

from pathlib import Path

from smallworld.boards.loader import all_sides
from smallworld.boards.model import BoardSide
from smallworld.boards.render import render_side
from smallworld.boards.validate import scoring_counts

# The repository root, found from this file so no absolute path is written anywhere.
ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "boards.md"
IMG = ROOT / "docs" / "boards"
BEGIN, END = "<!-- sides:begin -->", "<!-- sides:end -->"
TERRAIN_COLS = ("Fields", "Forest", "Hill", "Mountain", "Swamp", "Sea", "Lake")
FEATURE_COLS = ("Entry", "Magic", "Cavern", "Murloc", "Size")


def side_section(side: BoardSide) -> str:
    terr = {t: sum(r.terrain == t for r in side.regions) for t in TERRAIN_COLS}
    feat = {f: sum(f in r.features for r in side.regions) for f in FEATURE_COLS}
    fishing = scoring_counts(side)["Fishing"]
    lines = [
        f"### {side.id} — {side.name} (board {side.board}, size {side.size}, {len(side.regions)} regions)",
        "",
        f"![{side.id} {side.name}](boards/{side.id}.svg)",
        "",
        "| " + " | ".join(TERRAIN_COLS) + " | " + " | ".join(FEATURE_COLS) + " | Fishing |",
        "|" + "---:|" * (len(TERRAIN_COLS) + len(FEATURE_COLS) + 1),
        "| "
        + " | ".join(str(terr[t]) for t in TERRAIN_COLS)
        + " | "
        + " | ".join(str(feat[f]) for f in FEATURE_COLS)
        + f" | {fishing} |",
        "",
        "| # | Region | Terrain | Features | Adjacent |",
        "|---:|---|---|---|---|",
    ]
    for r in side.regions:
        feats = ", ".join(sorted(r.features)) or "–"
        adj = ", ".join(str(a) for a in r.adjacent)
        lines.append(f"| {r.id} | {r.name} | {r.terrain} | {feats} | {adj} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    sides = all_sides()
    IMG.mkdir(parents=True, exist_ok=True)
    for side in sides:
        (IMG / f"{side.id}.svg").write_text(render_side(side, px_per_unit=6.0), encoding="utf-8")
    body = "\n".join(side_section(s) for s in sides)
    text = DOC.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    DOC.write_text(f"{head}{BEGIN}\n\n{body}\n{END}{tail}", encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)} and {len(sides)} pictures in {IMG.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

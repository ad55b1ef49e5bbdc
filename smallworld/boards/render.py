"""Hand-written SVG pictures of board sides and of a game's table (stdlib only).

Every side lives in a 0..100 box (y down). A rendered side is that box plus a title band above it;
the legend sits below the last row. Colours are chosen to stay apart when printed in greyscale too
(light Fields, mid Forest/Hill, dark Swamp/Sea), and every feature also has a glyph, so nothing is
told by colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from smallworld.boards import geometry, labels
from smallworld.boards.model import BoardSide, Point, Region


@dataclass(frozen=True)
class Overlay:
    """What a region holds in a game in progress (`smallworld boards render --load`): its number
    in play, the seat that holds it (None: nobody, or the natives), its tokens, whether that race is
    in decline, the pieces on it (a key and a count each) and its markers (a key each, "?" for one
    face down); `title` says it all in words (the region's tooltip)."""

    number: int
    seat: int | None = None
    natives: bool = False
    tokens: int = 0
    declined: bool = False
    pieces: tuple[tuple[str, int], ...] = ()
    markers: tuple[str, ...] = ()
    title: str = ""

TERRAIN_FILL: dict[str, str] = {
    "Fields": "#f2d978",  # wheat
    "Forest": "#4f9a4a",
    "Hill": "#c2a66b",  # olive / light brown
    "Mountain": "#9a9a9a",
    "Swamp": "#4d6b5c",  # dark teal-brown
    "Sea": "#1f5f9e",
    "Lake": "#8fc4ea",
}
# Terrains of other editions' maps (classic Small World: Farmland is its Fields).
OTHER_FILL: dict[str, str] = {"Farmland": "#f2d978"}


def _fill(terrain: str) -> str:
    return TERRAIN_FILL.get(terrain) or OTHER_FILL.get(terrain, "#ffffff")


# Labels on dark fills are drawn light, so they stay readable.
DARK_TERRAINS = frozenset({"Forest", "Swamp", "Sea"})
OCEAN = "#dbeaf4"
COAST = "#f3e6bf"
BORDER = "#3b3128"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

SIDE_W = 100.0
TITLE_H = 9.0
CELL_W = 108.0
CELL_H = SIDE_W + TITLE_H + 4.0
GLYPH = 3.4  # size of one feature glyph, box units
FEATURE_ORDER = ("Size", "Entry", "Border", "Magic", "Mine", "Cavern", "Murloc", "LostTribe")


def _f(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _points(poly: Sequence[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in poly)


def _wrap(name: str) -> list[str]:
    """One line, or two balanced lines for long names (region shapes are roughly round)."""
    words = name.split()
    if len(name) <= 12 or len(words) == 1:
        return [name]
    best = min(
        range(1, len(words)),
        key=lambda i: max(len(" ".join(words[:i])), len(" ".join(words[i:]))),
    )
    return [" ".join(words[:best]), " ".join(words[best:])]


# --- feature glyphs: each drawn centred on (x, y) with size s -------------------------------------


def _glyph_entry(x: float, y: float, s: float) -> str:
    # An anchor (ring, shank, stock, curved crown) on a light disc that keeps it visible on dark fills.
    d = s / 2
    r = d * 0.8
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(d)}" fill="#f7f3e8" stroke="#1b2a3a" '
        f'stroke-width="{_f(s * 0.05)}"/>'
        f'<g stroke="#1b2a3a" stroke-width="{_f(s * 0.09)}" fill="none" stroke-linecap="round">'
        f'<circle cx="{_f(x)}" cy="{_f(y - r * 0.72)}" r="{_f(r * 0.2)}"/>'
        f'<line x1="{_f(x)}" y1="{_f(y - r * 0.52)}" x2="{_f(x)}" y2="{_f(y + r * 0.8)}"/>'
        f'<line x1="{_f(x - r * 0.4)}" y1="{_f(y - r * 0.25)}" '
        f'x2="{_f(x + r * 0.4)}" y2="{_f(y - r * 0.25)}"/>'
        f'<path d="M{_f(x - r * 0.75)},{_f(y + r * 0.2)} Q{_f(x - r * 0.6)},{_f(y + r * 0.85)} '
        f"{_f(x)},{_f(y + r * 0.8)} Q{_f(x + r * 0.6)},{_f(y + r * 0.85)} "
        f'{_f(x + r * 0.75)},{_f(y + r * 0.2)}"/>'
        "</g>"
    )


def _glyph_magic(x: float, y: float, s: float) -> str:
    r_out, r_in = s * 0.52, s * 0.22
    pts = []
    for i in range(10):
        r = r_out if i % 2 == 0 else r_in
        t = -math.pi / 2 + i * math.pi / 5
        pts.append((x + r * math.cos(t), y + r * math.sin(t)))
    return f'<polygon points="{_points(pts)}" fill="#b54ee0" stroke="#ffffff" stroke-width="{_f(s * 0.07)}"/>'


def _glyph_cavern(x: float, y: float, s: float) -> str:
    # A rock arch with a dark opening.
    r = s / 2
    outer = (
        f"M{_f(x - r)},{_f(y + r * 0.7)} L{_f(x - r)},{_f(y)} A{_f(r)},{_f(r)} 0 0 1 {_f(x + r)},{_f(y)} "
        f"L{_f(x + r)},{_f(y + r * 0.7)} Z"
    )
    ri = r * 0.55
    inner = (
        f"M{_f(x - ri)},{_f(y + r * 0.7)} L{_f(x - ri)},{_f(y + r * 0.1)} "
        f"A{_f(ri)},{_f(ri)} 0 0 1 {_f(x + ri)},{_f(y + r * 0.1)} L{_f(x + ri)},{_f(y + r * 0.7)} Z"
    )
    return (
        f'<path d="{outer}" fill="#7a5a3a" stroke="#ffffff" stroke-width="{_f(s * 0.06)}"/>'
        f'<path d="{inner}" fill="#1a1410"/>'
    )


def _glyph_murloc(x: float, y: float, s: float) -> str:
    r = s * 0.5
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="#2f9c8f" stroke="#ffffff" '
        f'stroke-width="{_f(s * 0.07)}"/>'
        f'<text x="{_f(x)}" y="{_f(y + r * 0.42)}" font-size="{_f(s * 0.62)}" font-weight="bold" '
        f'text-anchor="middle" fill="#ffffff" font-family="{FONT}">M</text>'
    )


def _glyph_size(x: float, y: float, s: float, letter: str) -> str:
    h = s * 0.5
    return (
        f'<rect x="{_f(x - h)}" y="{_f(y - h)}" width="{_f(s)}" height="{_f(s)}" rx="{_f(s * 0.18)}" '
        f'fill="#d9a520" stroke="#5a3d00" stroke-width="{_f(s * 0.08)}"/>'
        f'<text x="{_f(x)}" y="{_f(y + h * 0.42)}" font-size="{_f(s * 0.66)}" font-weight="bold" '
        f'text-anchor="middle" fill="#3a2600" font-family="{FONT}">{escape(letter)}</text>'
    )


def _glyph_mountain(x: float, y: float, s: float) -> str:
    # The Mountain marker: grey peak with a snow cap.
    w, h = s * 0.62, s * 0.55
    peak = [(x - w, y + h), (x, y - h), (x + w, y + h)]
    cap = [(x - w * 0.36, y - h * 0.28), (x, y - h), (x + w * 0.36, y - h * 0.28), (x, y - h * 0.45)]
    return (
        f'<polygon points="{_points(peak)}" fill="#5d5d63" stroke="#ffffff" stroke-width="{_f(s * 0.07)}"/>'
        f'<polygon points="{_points(cap)}" fill="#ffffff"/>'
    )


def _glyph_disc(x: float, y: float, s: float, fill: str, letter: str, ink: str = "#ffffff") -> str:
    """A lettered disc: the symbols of other editions' maps (Mine, Lost Tribe, border)."""
    r = s * 0.5
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{fill}" stroke="#ffffff" '
        f'stroke-width="{_f(s * 0.07)}"/>'
        f'<text x="{_f(x)}" y="{_f(y + r * 0.42)}" font-size="{_f(s * 0.62)}" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}" font-family="{FONT}">{letter}</text>'
    )


_DISCS: dict[str, tuple[str, str, str]] = {
    "Mine": ("#a8801a", "M", "#ffffff"),
    "LostTribe": ("#6b6b6b", "T", "#ffffff"),
    "Border": ("#f7f3e8", "B", "#1b2a3a"),
}


def _glyph(feature: str, x: float, y: float, s: float, size_letter: str) -> str:
    if feature in _DISCS:
        return _glyph_disc(x, y, s, *_DISCS[feature])
    if feature == "Entry":
        return _glyph_entry(x, y, s)
    if feature == "Magic":
        return _glyph_magic(x, y, s)
    if feature == "Cavern":
        return _glyph_cavern(x, y, s)
    if feature == "Murloc":
        return _glyph_murloc(x, y, s)
    if feature == "Size":
        return _glyph_size(x, y, s, size_letter)
    return ""


# --- a game's overlay: token discs by seat, pieces and markers -------------------------------------
# Seat colours stay apart from the terrains and from one another (and in greyscale by the ring and
# the number in the disc); a race in decline is the same colour as a ring on white, dashed.
SEAT_COLOURS = ("#d62828", "#7b2cbf", "#f77f00", "#1d3557", "#e056a0")
NATIVES_COLOUR = "#5f5f5f"
OVERLAY = 3.8  # size of one overlay glyph, box units


def seat_colour(seat: int | None) -> str:
    return NATIVES_COLOUR if seat is None else SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _glyph_tokens(x: float, y: float, s: float, colour: str, text: str, declined: bool) -> str:
    """A race's tokens: a disc in its seat's colour with the count; in decline, a dashed ring."""
    r = s * 0.5
    font = s * (0.62 if len(text) < 2 else 0.5)
    if declined:
        disc = (
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r * 0.86)}" fill="#ffffff" stroke="{colour}" '
            f'stroke-width="{_f(s * 0.16)}" stroke-dasharray="{_f(s * 0.2)} {_f(s * 0.12)}"/>'
        )
        ink = colour
    else:
        disc = (
            f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" fill="{colour}" stroke="#ffffff" '
            f'stroke-width="{_f(s * 0.08)}"/>'
        )
        ink = "#ffffff"
    return disc + (
        f'<text x="{_f(x)}" y="{_f(y + font * 0.36)}" font-size="{_f(font)}" font-weight="bold" '
        f'text-anchor="middle" fill="{ink}" font-family="{FONT}">{escape(text)}</text>'
    )


def _glyph_piece(x: float, y: float, s: float, key: str, count: int = 1) -> str:
    """A piece on a region: a rounded square with its key (×n beside it when there are several)."""
    h = s * 0.45
    font = s * (0.6 if len(key) < 2 else 0.46)
    out = (
        f'<rect x="{_f(x - h)}" y="{_f(y - h)}" width="{_f(2 * h)}" height="{_f(2 * h)}" '
        f'rx="{_f(s * 0.12)}" fill="#fdf6e3" stroke="#3b3128" stroke-width="{_f(s * 0.08)}"/>'
        f'<text x="{_f(x)}" y="{_f(y + font * 0.36)}" font-size="{_f(font)}" font-weight="bold" '
        f'text-anchor="middle" fill="#3b3128" font-family="{FONT}">{escape(key)}</text>'
    )
    if count > 1:
        out += (
            f'<text x="{_f(x + h * 1.1)}" y="{_f(y + h)}" font-size="{_f(s * 0.42)}" font-weight="bold" '
            f'fill="#1d1a16" stroke="#ffffff" stroke-width="{_f(s * 0.08)}" paint-order="stroke" '
            f'font-family="{FONT}">×{count}</text>'
        )
    return out


def _glyph_marker(x: float, y: float, s: float, key: str) -> str:
    """An Artifact or Legendary Place: a gold diamond with its key; "?" while face down."""
    r = s * 0.56
    pts = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    fill = "#b08d57" if key == "?" else "#e0b341"
    font = s * (0.5 if len(key) < 2 else 0.4)
    return (
        f'<polygon points="{_points(pts)}" fill="{fill}" stroke="#3a2600" stroke-width="{_f(s * 0.07)}"/>'
        f'<text x="{_f(x)}" y="{_f(y + font * 0.36)}" font-size="{_f(font)}" font-weight="bold" '
        f'text-anchor="middle" fill="#3a2600" font-family="{FONT}">{escape(key)}</text>'
    )


def _overlay_glyphs(o: Overlay) -> list[tuple[float, str]]:
    """The overlay's glyphs as (width, drawing at (0, 0)), in the order they are laid out."""
    out: list[tuple[float, str]] = []
    if o.seat is not None or o.natives:
        colour = seat_colour(None if o.natives else o.seat)
        out.append((OVERLAY, _glyph_tokens(0, 0, OVERLAY, colour, str(o.tokens), o.declined)))
    for key, n in o.pieces:
        out.append((OVERLAY * (1.5 if n > 1 else 1), _glyph_piece(0, 0, OVERLAY, key, n)))
    for key in o.markers:
        out.append((OVERLAY, _glyph_marker(0, 0, OVERLAY, key)))
    return out


# --- one side ------------------------------------------------------------------------------------


def _label_font(region: Region, lines: Sequence[str], cx: float, cy: float, room: float) -> float:
    """The label's font size: it fits the inscribed circle (regions are wider than that circle, so a
    label may spill a little past it) and the region's width where the label stands, so that
    neighbouring labels never run into each other."""
    longest = max(len(line) for line in lines)
    # Average glyph width of a sans font is ~0.56 em.
    font = min(3.0, 2.5 * room / (0.56 * longest), room * 0.55)
    half = font * 1.1 * len(lines) / 2
    wide = min(geometry.span_at(region.polygon, cx, y) for y in (cy - half, cy, cy + half))
    wide = wide or geometry.span_at(region.polygon, cx, cy)
    return max(1.3, min(font, 0.92 * wide / (0.56 * longest)))


def _region_marks(region: Region, size_letter: str, overlay: Overlay | None = None) -> str:
    """Name and feature glyphs; `overlay`: the region's number in a game (before its name) and,
    on a row of their own, the tokens, pieces and markers it holds."""
    (cx, cy), room = geometry.interior_point(region.polygon)
    lines = _wrap(region.name)
    font = _label_font(region, lines, cx, cy, room)
    if overlay is not None:
        numbered = [f"{overlay.number} · {lines[0]}", *lines[1:]]
        # The number on a line of its own when the name would otherwise shrink (a narrow region).
        alone = [str(overlay.number), *lines]
        font_numbered = _label_font(region, numbered, cx, cy, room)
        lines = numbered if font_numbered >= font * 0.8 else alone
        font = font_numbered if lines is numbered else _label_font(region, alone, cx, cy, room)
    feats = [f for f in FEATURE_ORDER if f in region.features]
    icons = feats + (["Mountain"] if region.terrain == "Mountain" else [])
    held = _overlay_glyphs(overlay) if overlay is not None else []
    text_h = font * 1.1 * len(lines)
    block_h = text_h + (GLYPH + 0.8 if icons else 0) + (OVERLAY + 0.8 if held else 0)
    top = cy - block_h / 2
    dark = region.terrain in DARK_TERRAINS
    fill = "#ffffff" if dark else "#1d1a16"
    halo = "#1d1a16" if dark else "#ffffff"
    style = "italic" if region.is_water else "normal"
    parts = []
    for i, line in enumerate(lines):
        y = top + font * (0.85 + 1.1 * i)
        parts.append(
            f'<text x="{_f(cx)}" y="{_f(y)}" font-size="{_f(font)}" font-style="{style}" '
            f'text-anchor="middle" fill="{fill}" stroke="{halo}" stroke-width="{_f(font * 0.16)}" '
            f'stroke-opacity="0.55" paint-order="stroke" font-family="{FONT}">{escape(line)}</text>'
        )
    row_y = top + text_h + 0.6
    if icons:
        gy = row_y + GLYPH / 2
        step = GLYPH * 1.15
        x0 = cx - step * (len(icons) - 1) / 2
        for i, f in enumerate(icons):
            x = x0 + i * step
            if f == "Mountain":
                parts.append(_glyph_mountain(x, gy, GLYPH))
            else:
                parts.append(_glyph(f, x, gy, GLYPH, size_letter))
        row_y += GLYPH + 0.8
    if held:
        gap = OVERLAY * 0.2
        width = sum(w for w, _ in held) + gap * (len(held) - 1)
        x = cx - width / 2
        gy = row_y + OVERLAY / 2
        for w, drawing in held:
            parts.append(f'<g transform="translate({_f(x + OVERLAY / 2)},{_f(gy)})">{drawing}</g>')
            x += w + gap
    return "".join(parts)


def side_group(
    side: BoardSide, overlays: Mapping[int, Overlay] | None = None, names: Mapping[str, str] | None = None
) -> str:
    """SVG elements for one side in its own 0..100 box (no title); `overlays` by region id (see
    `render_table`); `names` of the terrains in the reader's language (the legend's)."""
    outline = side.outline or tuple(
        geometry.chain_loop(geometry.boundary_segments([r.polygon for r in side.regions if r.polygon]))
    )
    out = [f'<g class="side" data-side="{escape(side.id)}">']
    if outline:
        pts = _points(outline)
        # Shallow-water halo and sandy beach under the regions read as "island" at a glance.
        out.append(
            f'<polygon points="{pts}" fill="none" stroke="#a9cbe3" stroke-width="5" stroke-linejoin="round"/>'
        )
        out.append(
            f'<polygon points="{pts}" fill="{COAST}" stroke="{COAST}" stroke-width="2.2" '
            'stroke-linejoin="round"/>'
        )
    for r in side.regions:
        if r.polygon:
            o = (overlays or {}).get(r.id)
            terrain = (names or {}).get(r.terrain, r.terrain)
            what = f"{o.number if o else r.id}. {r.name} ({terrain})"
            if o and o.title:
                what += f": {o.title}"
            out.append(
                f'<polygon points="{_points(r.polygon)}" fill="{_fill(r.terrain)}" '
                f'stroke="{BORDER}" stroke-width="0.35" stroke-linejoin="round">'
                f"<title>{escape(what)}</title></polygon>"
            )
    if outline:
        out.append(
            f'<polygon points="{_points(outline)}" fill="none" stroke="#5b4a2e" stroke-width="0.7" '
            'stroke-linejoin="round"/>'
        )
    for r in side.regions:
        if r.polygon:
            out.append(_region_marks(r, side.size, (overlays or {}).get(r.id)))
    out.append("</g>")
    return "".join(out)


def _title(side: BoardSide, x: float, y: float, lang: str) -> str:
    return (
        f'<text x="{_f(x + SIDE_W / 2)}" y="{_f(y + 6)}" font-size="4.6" font-weight="bold" '
        f'text-anchor="middle" fill="#1d2b3a" font-family="{FONT}">{escape(side.name)}'
        f'<tspan dx="2" font-size="3.4" font-weight="normal" fill="#4a5a6a">'
        f"{escape(labels.say(lang, 'side', id=side.id, size=side.size))}</tspan></text>"
    )


BREAK = "break"  # a legend item that starts a new row
LEGEND_FONT = 2.6
LEGEND_ROW = 5.2


def _legend_layout(
    width: float, items: Sequence[tuple[str, str]]
) -> list[tuple[str, str, float, int]]:
    """(key, text, x offset, row) per item, flowing left to right and wrapping at `width`."""
    out = []
    x, row = 0.0, 0
    for key, text in items:
        if key == BREAK:
            x, row = 0.0, row + (x > 0)
            continue
        w = 5.5 + 0.58 * LEGEND_FONT * len(text) + 3
        if x + w > width and x > 0:
            x, row = 0.0, row + 1
        out.append((key, text, x, row))
        x += w
    return out


def legend_height(width: float, items: Sequence[tuple[str, str]]) -> float:
    return (max(r for *_, r in _legend_layout(width, items)) + 1) * LEGEND_ROW + 2


def legend(x: float, y: float, width: float, items: Sequence[tuple[str, str]]) -> str:
    """Terrain swatches then feature glyphs, wrapped into as many rows as the width needs."""
    out = [f'<g class="legend" font-family="{FONT}" font-size="{_f(LEGEND_FONT)}" fill="#1d1a16">']
    for key, text, dx, row in _legend_layout(width, items):
        gx, gy = x + dx + 2, y + row * LEGEND_ROW + 3
        fill = TERRAIN_FILL.get(key) or OTHER_FILL.get(key)
        kind, _, arg = key.partition(":")
        if kind in ("seat", "declined"):
            out.append(_glyph_tokens(gx, gy, OVERLAY * 0.9, seat_colour(int(arg)), "", kind == "declined"))
        elif key == "natives":
            out.append(_glyph_tokens(gx, gy, OVERLAY * 0.9, NATIVES_COLOUR, "", False))
        elif kind == "piece":
            out.append(_glyph_piece(gx, gy, OVERLAY * 0.9, arg))
        elif kind == "marker":
            out.append(_glyph_marker(gx, gy, OVERLAY * 0.9, arg))
        elif fill:
            out.append(
                f'<rect x="{_f(gx - 1.8)}" y="{_f(gy - 1.8)}" width="3.6" height="3.6" '
                f'fill="{fill}" stroke="{BORDER}" stroke-width="0.3"/>'
            )
        elif key == "MountainMarker":
            out.append(_glyph_mountain(gx, gy, GLYPH))
        else:
            out.append(_glyph(key, gx, gy, GLYPH, "S"))
        out.append(f'<text x="{_f(gx + 2.8)}" y="{_f(gy + 0.95)}">{escape(text)}</text>')
    out.append("</g>")
    return "".join(out)


def _document(width: float, height: float, body: str, px_per_unit: float) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(width)} {_f(height)}" '
        f'width="{round(width * px_per_unit)}" height="{round(height * px_per_unit)}">\n'
        f'<rect x="0" y="0" width="{_f(width)}" height="{_f(height)}" fill="{OCEAN}"/>\n'
        f"{body}\n</svg>\n"
    )


def render_side(
    side: BoardSide,
    px_per_unit: float = 8.0,
    legend_items: Sequence[tuple[str, str]] | None = None,
    lang: str = "en",
) -> str:
    """A standalone SVG document of one side, with title and legend."""
    return render_table([side], columns=1, px_per_unit=px_per_unit, legend_items=legend_items, lang=lang)


def render_table(
    sides: Sequence[BoardSide],
    columns: int | None = None,
    px_per_unit: float = 6.0,
    legend_items: Sequence[tuple[str, str]] | None = None,
    overlays: Mapping[tuple[str, int], Overlay] | None = None,
    lang: str = "en",
) -> str:
    """All sides of a game side by side in a grid (islands never touch: §2.1), one legend below.
    `overlays` by (side id, region id): the region's number in a game and what it holds (a game in
    progress: `smallworld boards render --load`, whose key goes into `legend_items`: "seat:N",
    "declined:N", "natives", "piece:KEY" and "marker:KEY" draw the overlay's glyphs). The legend is
    the Warcraft edition's in English unless `legend_items` says otherwise (`labels.legend_items`);
    `lang` is the language of the titles."""
    if not sides:
        raise ValueError("nothing to render")
    if legend_items is None:
        legend_items = labels.legend_items()
    names = dict(legend_items)
    cols = columns or min(3, len(sides))
    rows = math.ceil(len(sides) / cols)
    width = cols * CELL_W + 4
    grid_h = rows * CELL_H
    height = grid_h + legend_height(width - 8, legend_items) + 2
    body = []
    for i, side in enumerate(sides):
        x = 6 + (i % cols) * CELL_W
        y = 2 + (i // cols) * CELL_H
        body.append(_title(side, x, y, lang))
        mine = {rid: o for (sid, rid), o in (overlays or {}).items() if sid == side.id}
        group = side_group(side, mine, names)
        body.append(f'<g transform="translate({_f(x)},{_f(y + TITLE_H)})">{group}</g>')
    body.append(legend(4, grid_h + 2, width - 8, legend_items))
    return _document(width, height, "\n".join(body), px_per_unit)

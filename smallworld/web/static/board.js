// The table as SVG, drawn from the board payload (islands, polygons, terrains, features) and a
// seat's view (stacks, pieces, markers). Every region carries data-region="SIDE:ID"; nothing here
// decides what is legal: `offered` (regions named by legal actions) only adds a highlight.
import * as W from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const TERRAIN_FILL = {
  Fields: "#f2d978", Farmland: "#f2d978", Forest: "#4f9a4a", Hill: "#c2a66b", Mountain: "#9a9a9a",
  Swamp: "#4d6b5c", Sea: "#1f5f9e", Lake: "#8fc4ea",
};
// Okabe-Ito colours: told apart by colour-blind players too; seats also carry their number.
export const SEAT_COLOURS = ["#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#D55E00"];
// Warcraft's features, then classic's (Border: on the board's edge, where a first conquest may
// start; Mine; the Lost Tribe's starting regions).
const FEATURE_GLYPH = {
  Entry: "⚓", Magic: "✦", Cavern: "◠", Murloc: "M", Size: "▣", Border: "⇱", Mine: "⚒", LostTribe: "⚑",
};

function el(tag, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// A race's colour: the races of the edition (the tray's keys) spread evenly round the colour
// wheel, alternately darker, so each race keeps one colour; the emblem's letters tell them apart
// where colours do not.
let RACES = [];
export function setRaces(ids) { if (ids && ids.length) RACES = [...ids].sort(); }
export function raceColour(race) {
  let i = RACES.indexOf(race);
  if (i < 0) { i = 0; for (const c of race || "") i = (i * 31 + c.charCodeAt(0)) % 997; }
  const n = Math.max(RACES.length, 12);
  const hue = Math.round(((i * 7) % n) * (360 / n));
  // Dark enough that its white letters read (contrast 4.5:1 at the least, WCAG 1.4.3): a yellow
  // or green hue at 40 % lightness is not, so its lightness drops until it is.
  let light = i % 2 ? 30 : 40;
  while (light > 10 && contrastWithWhite(hue, 60, light) < 4.6) light -= 2;
  return `hsl(${hue}, 60%, ${light}%)`;
}
function contrastWithWhite(hue, sat, light) {
  const s = sat / 100, l = light / 100;
  const a = s * Math.min(l, 1 - l);
  const f = (k) => { const m = (k + hue / 30) % 12; return l - a * Math.max(-1, Math.min(m - 3, 9 - m, 1)); };
  const lin = (c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const lum = 0.2126 * lin(f(0)) + 0.7152 * lin(f(8)) + 0.0722 * lin(f(4));
  return 1.05 / (lum + 0.05);
}
export function abbrev(race) {
  const name = raceName(race);
  const words = name.split(/\s+/);
  return (words.length > 1 ? words.map((w) => w[0]).join("") : name.slice(0, 3)).toUpperCase();
}
export function raceName(race) {
  if (!race) return "";
  return W.has(race, "name") ? W.unitName(race) : W.text("edition", "natives");
}

function defs(svg) {
  const d = el("defs", {}, svg);
  const pat = (id, bg, draw) => {
    const p = el("pattern", { id, width: 4, height: 4, patternUnits: "userSpaceOnUse" }, d);
    el("rect", { width: 4, height: 4, fill: bg }, p);
    draw(p);
  };
  const ink = (p, attrs) => el("path", { fill: "none", "stroke-width": 0.35, ...attrs }, p);
  pat("t-Fields", TERRAIN_FILL.Fields, (p) => ink(p, { d: "M0,1 H4 M0,3 H4", stroke: "#c9ad4a" }));
  pat("t-Farmland", TERRAIN_FILL.Farmland, (p) => ink(p, { d: "M0,1 H4 M0,3 H4", stroke: "#c9ad4a" }));
  pat("t-Forest", TERRAIN_FILL.Forest, (p) => el("path", { d: "M1,3 L2,1 L3,3 Z", fill: "#2f6b2b" }, p));
  pat("t-Hill", TERRAIN_FILL.Hill, (p) => ink(p, { d: "M0,3 Q1,1.5 2,3 Q3,1.5 4,3", stroke: "#8b7440" }));
  pat("t-Mountain", TERRAIN_FILL.Mountain, (p) => ink(p, { d: "M0,3.5 L1,1 L2,3.5 M2,3.5 L3,1 L4,3.5", stroke: "#5f5f5f" }));
  pat("t-Swamp", TERRAIN_FILL.Swamp, (p) => ink(p, { d: "M0.5,2 H1.8 M2.3,3.5 H3.6 M2.2,0.8 H3.5", stroke: "#a8c4b4" }));
  pat("t-Sea", TERRAIN_FILL.Sea, (p) => ink(p, { d: "M0,2 Q1,1 2,2 Q3,3 4,2", stroke: "#7fb1e0" }));
  pat("t-Lake", TERRAIN_FILL.Lake, (p) => ink(p, { d: "M0,2 Q1,1 2,2 Q3,3 4,2", stroke: "#4f8fc0" }));
  const dec = el("pattern", { id: "declined", width: 1.6, height: 1.6, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" }, d);
  el("rect", { width: 1.6, height: 1.6, fill: "#6b6b6b" }, dec);
  el("rect", { width: 0.6, height: 1.6, fill: "#9a9a9a" }, dec);
}

const pts = (poly) => poly.map(([x, y]) => `${x},${y}`).join(" ");

// --- region names that stay inside their region. A name is centred above the region's label
// point (the point farthest from its edges). Where the region is too narrow there for the name on
// one line, even a little smaller (a long name, or a thin strip like classic C2's Umberfell), it
// breaks into two lines, and only if a line still does not fit does its type shrink (down to
// NAME_MIN): a name inside its own region never runs into a neighbour's.
const NAME_PX = 2.3; // .rname's font-size in board units
const NAME_ONE_LINE = 2.0; // one line may shrink to this before it breaks in two
const NAME_MIN = 1.3;
const NAME_LEAD = 2.5; // from one line's baseline to the next
const NAME_PAD = 0.35; // the outline stroke and a little air on each side
let measurer = null;
const widths = new Map(); // text -> its width at 100px
function textWidth(text, px) {
  // Canvas metrics at 100px, scaled (the same as the SVG text's own length to a hundredth), so
  // the element need not be in the page yet. The font is .rname's.
  if (!widths.has(text)) {
    if (!measurer) {
      measurer = document.createElement("canvas").getContext("2d");
      measurer.font = `600 100px system-ui, "DejaVu Sans", sans-serif`;
    }
    widths.set(text, measurer.measureText(text).width);
  }
  return (widths.get(text) * px) / 100;
}
// The stretch of the horizontal line at `y` inside the polygon that holds `x` (or the nearest one).
function spanAt(poly, y, x) {
  const xs = [];
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i];
    const [x2, y2] = poly[(i + 1) % poly.length];
    if ((y1 <= y && y < y2) || (y2 <= y && y < y1)) xs.push(x1 + ((y - y1) * (x2 - x1)) / (y2 - y1));
  }
  xs.sort((a, b) => a - b);
  let best = null;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    const off = x < xs[i] ? xs[i] - x : x > xs[i + 1] ? x - xs[i + 1] : 0;
    if (!best || off < best.off) best = { a: xs[i], b: xs[i + 1], off };
  }
  return best;
}
// The room for a line of text whose baseline is `y`: the stretch free over the letters' height.
function roomAt(poly, y, x) {
  let a = -Infinity, b = Infinity;
  for (const yy of [y - 1.7, y - 0.85, y + 0.45]) {
    const s = spanAt(poly, yy, x);
    if (!s) return { a: x, b: x };
    a = Math.max(a, s.a);
    b = Math.min(b, s.b);
  }
  return { a, b: Math.max(a, b) };
}
// One line at baseline `y`: its size (NAME_PX, or smaller to fit) and its centre, on the label
// point where it fits there, else moved along the line into the room.
function fitLine(poly, line, x, y) {
  const room = roomAt(poly, y, x);
  const width = room.b - room.a - 2 * NAME_PAD;
  const w = textWidth(line, NAME_PX);
  const px = w <= width ? NAME_PX : Math.max(NAME_MIN, (NAME_PX * width) / w);
  const half = (w * px) / NAME_PX / 2;
  const cx = half * 2 <= width ? Math.min(Math.max(x, room.a + NAME_PAD + half), room.b - NAME_PAD - half) : (room.a + room.b) / 2;
  // `over`: how far the line, at NAME_MIN, still reaches past the region (a name too long for it).
  return { text: line, x: cx, y, px, over: Math.max(0, half * 2 - width) };
}
// Of two layouts, the one with the larger type, or at the same size the one that sticks out less.
const better = (a, b) => a.px > b.px + 0.01 || (Math.abs(a.px - b.px) <= 0.01 && a.over < b.over - 0.01);
// A region's name as lines [{text, x, y, px}], the last line's baseline at `y`.
export function nameLines(poly, text, x, y) {
  const one = fitLine(poly, text, x, y);
  if (one.px >= NAME_ONE_LINE) return [one];
  // Two lines, split where both lines come out largest ("13" / "Umberfell", "3 Wavebreak" / "Wheatlands").
  const words = text.split(" ");
  let best = [one];
  let score = { px: one.px, over: one.over };
  for (let k = 1; k < words.length; k++) {
    const lines = [fitLine(poly, words.slice(0, k).join(" "), x, y - NAME_LEAD), fitLine(poly, words.slice(k).join(" "), x, y)];
    // One size for both lines, so that the name reads as one.
    const mine = { px: Math.min(...lines.map((l) => l.px)), over: Math.max(...lines.map((l) => l.over)) };
    if (better(mine, score)) { best = lines.map((l) => ({ ...l, px: mine.px })); score = mine; }
  }
  return best;
}

// Where a region's block sits (feature glyphs, name, stack, chips: `below` is how far the block
// reaches under the label point): at the label point, or moved up or down the region's vertical
// stretch there where the name gets larger type (a narrow or slanted region) or the block would
// stick out of the region (a point near its top edge). Answers the label point's y and the
// name's lines; the same region, name and block give the same answer, so it is kept.
const placed = new Map();
export function placeBlock(poly, text, lx, ly0, below, glyphs) {
  const key = `${poly.length}:${poly[0]}|${text}|${lx}|${ly0}|${below}|${glyphs}`;
  if (placed.has(key)) return placed.get(key);
  const v = spanAt(poly.map(([x, y]) => [y, x]), lx, ly0); // the vertical stretch through the point
  const tries = [ly0];
  if (v) for (let y = v.a; y <= v.b; y += 0.5) tries.push(y);
  let best = null;
  for (const ly of tries) {
    const lines = nameLines(poly, text, lx, ly - 3.2);
    const top = ly - 3.2 - (lines.length - 1) * NAME_LEAD - (glyphs ? 5.8 : 2.0);
    const outside = v ? Math.max(0, v.a + 0.6 - top) + Math.max(0, ly + below - (v.b - 0.6)) : 0;
    // Type size first (each 0.1 unit of it worth moving 1 unit), then how far the name reaches past
    // the region, then the block, then the distance moved.
    const px = Math.min(...lines.map((l) => l.px));
    const over = Math.max(...lines.map((l) => l.over));
    const value = 10 * px - 5 * over - 2 * outside - 0.1 * Math.abs(ly - ly0);
    if (!best || value > best.value) best = { value, ly, lines };
  }
  const out = { ly: best.ly, lines: best.lines };
  placed.set(key, out);
  return out;
}

export function regionIndex(board) {
  const idx = {};
  for (const side of board.sides) for (const r of side.regions) idx[r.ref] = { ...r, side };
  return idx;
}

function oneColumn(board) {
  const gap = 6;
  const sides = board.sides.map((s, i) => ({ ...s, x: 0, y: i * (100 + gap) }));
  return { ...board, sides, width: 100, height: sides.length * (100 + gap) - gap };
}

// --- keeping names readable: a stack and its chips (pieces, markers) never cover a name. The
// names are placed first (placeBlock); a region's stack and chips move together, as little as
// they can, to where they cover no name, no feature glyph and no other region's stack, keeping
// their middle inside their own region. Boxes are in board units: {x0, y0, x1, y1}.
const meet = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
const shift = (b, dx, dy) => ({ x0: b.x0 + dx, y0: b.y0 + dy, x1: b.x1 + dx, y1: b.y1 + dy });
function inside(poly, x, y) {
  let ins = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if ((yi > y) !== (yj > y) && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) ins = !ins;
  }
  return ins;
}
// A name line's box: the whole line of type (ascent and descent), with the outline's width.
function lineBox(line) {
  const half = textWidth(line.text, line.px) / 2 + 0.25;
  return { x0: line.x - half, y0: line.y - 0.96 * line.px, x1: line.x + half, y1: line.y + 0.32 * line.px, name: true };
}
const REACH = 9; // how far a block moves to be clear of everything
const REACH_NAMES = 15; // how far it moves, in a crowded spot, to be clear of every name at least
const OFFSETS = (() => {
  const out = [];
  for (let dx = -REACH_NAMES; dx <= REACH_NAMES; dx += 0.5) for (let dy = -REACH_NAMES; dy <= REACH_NAMES; dy += 0.5) out.push([dx, dy]);
  return out.sort((a, b) => Math.hypot(...a) - Math.hypot(...b));
})();
// The offset [dx, dy, fit, covered] for a block of `boxes` in region `poly` (none where nothing is
// covered); fit 2: clear and inside the region, 1: clear, its middle inside, 0.5: clear, its middle
// past the region's edge (a region too crowded for both), 0.25: its middle inside, over no name but
// over the least of other stacks and glyphs (a spot crowded with stacks: a name covered is worse),
// 0: the least covering. `covered` is the area covered, names first. With `frame` (the island's
// or the classic map's bounds) every spot keeps the block within it: a block moved off a crowded
// region at the map's edge went off the map.
export function clearOffset(poly, boxes, obstacles, disc = null, others = [], frame = null) {
  if (!boxes.length) return [0, 0, 2, 0];
  const all = { x0: Math.min(...boxes.map((b) => b.x0)), y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)), y1: Math.max(...boxes.map((b) => b.y1)) };
  const beyond = (dx, dy) => (frame ? Math.max(0, frame.x0 - all.x0 - dx) + Math.max(0, all.x1 + dx - frame.x1)
    + Math.max(0, frame.y0 - all.y0 - dy) + Math.max(0, all.y1 + dy - frame.y1) : 0);
  const R = REACH_NAMES;
  const near = obstacles.filter((o) => meet(o, { x0: all.x0 - R, y0: all.y0 - R, x1: all.x1 + R, y1: all.y1 + R }));
  let clear = null;
  let past = null;
  let unnamed = null;
  let least = null;
  const corners = [[all.x0, all.y0], [all.x1, all.y0], [all.x0, all.y1], [all.x1, all.y1]];
  for (const [dx, dy] of OFFSETS) {
    const within = Math.abs(dx) <= REACH && Math.abs(dy) <= REACH;
    if (!within && (clear || past || unnamed)) continue; // the far spots only spare names
    if (beyond(dx, dy) > 1e-6) continue;
    const middle = inside(poly, (all.x0 + all.x1) / 2 + dx, (all.y0 + all.y1) / 2 + dy);
    if (!middle && (clear || past)) continue;
    let names = 0;
    let rest = 0;
    const add = (s, o) => {
      if (!meet(s, o)) return;
      const area = (Math.min(s.x1, o.x1) - Math.max(s.x0, o.x0)) * (Math.min(s.y1, o.y1) - Math.max(s.y0, o.y0));
      if (o.name) names += area; else rest += area;
    };
    for (const b of boxes) { const s = shift(b, dx, dy); for (const o of near) add(s, o); }
    if (disc) { const s = shift(disc, dx, dy); for (const o of others) add(s, o); }
    if (!middle) {
      if (names + rest === 0 && within) past = [dx, dy, 0.5, 0];
      continue;
    }
    if (names + rest === 0 && within) {
      if (corners.every(([x, y]) => inside(poly, x + dx, y + dy))) return [dx, dy, 2, 0];
      if (!clear) clear = [dx, dy, 1, 0];
    } else if (clear) {
      continue;
    } else if (names === 0) {
      if (!unnamed || rest < unnamed[3] - 1e-6) unnamed = [dx, dy, 0.25, rest];
    } else if (!least || names < least.names - 1e-6 || (Math.abs(names - least.names) <= 1e-6 && rest < least.rest - 1e-6)) {
      least = { names, rest, at: [dx, dy, 0, 1000 * names + rest] };
    }
  }
  return clear || past || unnamed || (least ? least.at : [0, 0, 0, 0]);
}

// A side's title sits above its coast, where no region is (the classic maps fill their square).
const TITLE_GAP = 1.2;
function titleY(side) {
  const top = side.outline.length ? Math.min(...side.outline.map(([, y]) => y)) : 0;
  return Math.min(top, 0) - TITLE_GAP;
}

// Draw the whole table. `view` may be null (no state yet); `offered` is a Set of region refs.
export function drawBoard(svg, board, view, offered = new Set(), selected = null) {
  // A phone held upright gets the islands one under another; wider screens keep the server's grid.
  if (window.matchMedia("(max-width: 760px)").matches && board.sides.length > 1) board = oneColumn(board);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (view && view.tray) setRaces(Object.keys(view.tray));
  const m = 3;
  // Room above the top row for its titles (a title is drawn above its island, 3.4 units high).
  const top = Math.max(m, 3.6 - Math.min(...board.sides.filter((s) => s.y === 0).map(titleY)));
  svg.setAttribute("viewBox", `${-m} ${-top} ${board.width + 2 * m} ${board.height + m + top}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", W.t("board"));
  defs(svg);
  el("rect", { x: -m, y: -top, width: board.width + 2 * m, height: board.height + m + top, fill: "#dbeaf4" }, svg);
  const owner = (race) => {
    if (!view) return null;
    const i = view.seats.findIndex((s) => s.active === race || s.declined === race || (s.more_declined || []).includes(race));
    return i < 0 ? null : i;
  };
  const declined = (race) => !!view && view.seats.some((s) => s.declined === race || (s.more_declined || []).includes(race));
  const refs = board.sides.flatMap((s) => s.regions.map((r) => r));
  const byN = [...refs].sort((a, b) => a.n - b.n);
  const stop = (refs.find((r) => r.ref === selected) || byN.find((r) => offered.has(r.ref)) || byN[0] || {}).ref;
  for (const side of board.sides) {
    const g = el("g", { transform: `translate(${side.x},${side.y})`, class: "side", "data-side": side.id }, svg);
    el("polygon", { points: pts(side.outline), fill: "#f3e6bf", stroke: "#3b3128", "stroke-width": 0.8 }, g);
    // Three layers: the shapes (each a region element, clickable), everything drawn on them (so
    // that no shape hides a neighbour's name or stack), and the title above the coast.
    const shapes = el("g", { class: "shapes" }, g);
    const marks = el("g", { class: "marks" }, g);
    const title = el("text", { x: 50, y: titleY(side).toFixed(2), "text-anchor": "middle", class: "side-title" }, g);
    title.textContent = `${side.name} (${side.id})`;
    // First every region's name (where placeBlock puts it), then the stacks and chips clear of them.
    const laid = side.regions.map((r) => {
      const here = view ? view.regions[r.ref] : null;
      const glyphs = [...r.features];
      if (r.terrain === "Mountain") glyphs.push("Mountain"); // its marker (§2.3)
      const chipCount = Object.keys((here && here.pieces) || {}).length + ((view && view.markers[r.ref]) || []).length;
      const below = chipCount ? 6.8 + (chipCount - 1) * 3.4 : here && here.race ? 3.4 : -2.5;
      const lx = r.label[0];
      const { ly, lines } = placeBlock(r.polygon, `${r.n} ${r.name}`, lx, r.label[1], below, glyphs.length > 0);
      const gy = ly - 7.4 - (lines.length - 1) * NAME_LEAD;
      const glyphBoxes = glyphs.map((_, i) => {
        const gx = lx + (i - (glyphs.length - 1) / 2) * 3.6;
        return { x0: gx - 1.6, y0: gy - 1.6, x1: gx + 1.6, y1: gy + 1.6 };
      });
      return { r, here, glyphs, lx, ly, gy, lines, glyphBoxes, chips: chipsOf(board, view, here, r.ref) };
    });
    const obstacles = laid.flatMap((l) => [...l.lines.map(lineBox), ...l.glyphBoxes]);
    const xs = side.outline.map(([x]) => x);
    const ys = side.outline.map(([, y]) => y);
    const frame = xs.length ? { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) } : null;
    const stacks = []; // the stacks and chips placed so far: no other covers them, nor their discs
    for (const l of laid) {
      if (l.here && l.here.race) {
        l.seat = owner(l.here.race);
        l.stackText = `${declined(l.here.race) ? "↓" : ""}${abbrev(l.here.race)} ${l.here.tokens}`;
      }
      // At full size where it fits clear of every name and inside its region; in a crowded region
      // smaller, or else reaching past the region's edge, clear of names all the same.
      const tries = [];
      for (const scale of STACK_SCALES) {
        const { boxes, disc } = stackBoxes(l, scale);
        const [dx, dy, fit, covered] = clearOffset(l.r.polygon, boxes, [...obstacles, ...stacks], disc, stacks, frame);
        tries.push({ scale, boxes, disc, dx, dy, fit, covered });
        if (fit === 2) break;
      }
      // The best fit, the largest scale of it; where every scale covers something, the one that
      // covers least.
      const top = Math.max(...tries.map((t) => t.fit));
      const same = tries.filter((t) => t.fit === top);
      const best = top >= 0.5 ? same[0] : same.reduce((a, t) => (t.covered < a.covered - 1e-6 ? t : a));
      Object.assign(l, { dx: best.dx, dy: best.dy, scale: best.scale });
      if (best.scale !== 1) stackBoxes(l, best.scale); // the chips' widths of the size drawn
      for (const b of [...best.boxes, ...(best.disc ? [best.disc] : [])]) stacks.push(shift(b, best.dx, best.dy));
    }
    for (const { r, here, glyphs, lx, ly, gy, lines, chips, dx, dy, scale, seat, stackText, stackW } of laid) {
      const rg = el("g", {
        class: `region terrain-${r.terrain}${offered.has(r.ref) ? " offered" : ""}${selected === r.ref ? " selected" : ""}`,
        // One region in the tab order (the selected, else the first offered, else the first): the
        // arrows move between them (keys.js), so Tab crosses the board in one press.
        "data-region": r.ref, tabindex: r.ref === stop ? 0 : -1, role: "button",
      }, shapes);
      const holder = here && here.race ? `${raceName(here.race)} ×${here.tokens}` : W.t("nobody");
      rg.setAttribute("aria-label", `${r.n} ${r.name}, ${W.terrain(r.terrain)}, ${W.t("holder")}: ${holder}`);
      el("polygon", { points: pts(r.polygon), fill: `url(#t-${r.terrain})`, class: "shape" }, rg);
      const mg = el("g", { class: "region-marks", "data-marks-of": r.ref }, marks);
      const dark = ["Forest", "Swamp", "Sea"].includes(r.terrain);
      const name = el("text", { "text-anchor": "middle", class: `rname${dark ? " light" : ""}`, "data-lines": lines.length }, mg);
      for (const line of lines) {
        const span = el("tspan", { x: line.x.toFixed(2), y: line.y.toFixed(2),
          "font-size": line.px < NAME_PX ? `${line.px.toFixed(2)}px` : null }, name);
        span.textContent = line.text;
      }
      // Feature glyphs in a row above the name; Mountains get their marker (§2.3).
      glyphs.forEach((f, i) => {
        const gx = lx + (i - (glyphs.length - 1) / 2) * 3.6;
        const fg = el("g", { class: `feature feature-${f}` }, mg);
        el("circle", { cx: gx, cy: gy, r: 1.6, class: "glyph-disc" }, fg);
        const tx = el("text", { x: gx, y: gy + 0.65, "text-anchor": "middle", class: "glyph" }, fg);
        tx.textContent = f === "Mountain" ? "▲" : (f === "Size" ? side.size : FEATURE_GLYPH[f] || "?");
        el("title", {}, fg).textContent = f === "Mountain" ? W.text("edition", "piece.mountain", { n: 1 }) : W.feature(f, side.size);
      });
      // The stack and its chips, moved (dx, dy) off any name they would cover, at `scale`.
      const sx = lx + dx;
      const sy = ly + dy;
      const k = scale;
      const size = (px) => (k === 1 ? null : `font-size: ${(px * k).toFixed(2)}px`);
      if (here && here.race) {
        const dec = declined(here.race);
        const sg = el("g", { class: `stack${dec ? " declined" : ""}`, "data-race": here.race,
          "data-tokens": here.tokens }, mg);
        const half = (stackW * k) / 2;
        el("rect", { x: sx - half, y: sy - 1.6 * k, width: stackW * k, height: 5 * k, rx: 1.2 * k,
          fill: dec ? "url(#declined)" : raceColour(here.race),
          stroke: seat === null ? "#222" : SEAT_COLOURS[seat % 5], "stroke-width": 0.7 * k,
          "stroke-dasharray": dec ? "1 0.6" : null }, sg);
        const st = el("text", { x: sx, y: sy + 2.1 * k, "text-anchor": "middle", class: "stack-text", style: size(2.8) }, sg);
        st.textContent = stackText;
        if (seat !== null) {
          el("circle", { cx: sx + half, cy: sy - 1.6 * k, r: 1.5 * k, fill: SEAT_COLOURS[seat % 5], stroke: "#222", "stroke-width": 0.2 }, sg);
          const sn = el("text", { x: sx + half, y: sy - 1.0 * k, "text-anchor": "middle", class: "seat-num", style: size(1.7) }, sg);
          sn.textContent = String(seat + 1);
        }
        el("title", {}, sg).textContent = `${raceName(here.race)}${dec ? ` (${W.t("declined")})` : ""}: ${here.tokens}`;
      }
      chips.forEach((c, i) => {
        const cy = sy + (5 + i * 3.4) * k;
        const cg = el("g", { class: c.cls, "data-piece": c.kind }, mg);
        el("rect", { x: sx - (c.w * k) / 2, y: cy - 1.2 * k, width: c.w * k, height: 3 * k, rx: 0.8 * k }, cg);
        const tx = el("text", { x: sx, y: cy + 0.9 * k, "text-anchor": "middle", class: "chip-text", style: size(1.9) }, cg);
        tx.textContent = c.text;
      });
    }
  }
}

// The boxes of a region's stack and chips at `scale` around its label point (the geometry the
// drawing uses), and the owner's numbered disc on the stack's corner: the disc may touch the
// region's own name and glyphs, not another stack.
const STACK_SCALES = [1, 0.8, 0.65];
function stackBoxes(l, k) {
  const boxes = [];
  let disc = null;
  if (l.stackText) {
    // As wide as its text needs (a thin region has room for `LT 1`, not for a fixed width).
    l.stackW = Math.max(8, textWidth(l.stackText, 2.8) + 2.6);
    const half = (l.stackW * k) / 2;
    boxes.push({ x0: l.lx - half, y0: l.ly - 1.6 * k, x1: l.lx + half, y1: l.ly + 3.4 * k });
    if (l.seat !== null) disc = { x0: l.lx + half - 1.5 * k, y0: l.ly - 3.1 * k, x1: l.lx + half + 1.5 * k, y1: l.ly - 0.1 * k };
  }
  l.chips.forEach((c, i) => {
    const cy = l.ly + (5 + i * 3.4) * k;
    c.w = Math.min(22, 2 + textWidth(c.text, 1.9)); // (measured: a guess from its length cut "Doomhammer")
    boxes.push({ x0: l.lx - (c.w * k) / 2, y0: cy - 1.2 * k, x1: l.lx + (c.w * k) / 2, y1: cy + 1.8 * k });
  });
  return { boxes, disc };
}

// Pieces (Forts, Wisp Walls, Watch Towers, bombs, Beasts, Champion, objectives, Harmony...) and
// markers (relics and places, face down or up) of a region: one labelled chip each, below the stack.
function chipsOf(board, view, here, ref) {
  const chips = [];
  if (here && here.pieces) {
    for (const [kind, n] of Object.entries(here.pieces)) {
      const label = W.piece(board.pieces[kind], kind, n);
      chips.push({ text: `${label}${n > 1 ? ` ×${n}` : ""}`, cls: `piece piece-${kind}`, kind });
    }
  }
  for (const mk of (view && view.markers[ref]) || []) {
    chips.push(mk.face_up && mk.id
      ? { text: W.unitName(mk.id), cls: "marker face-up", kind: mk.id }
      : { text: `? ${W.t("face_down")}`, cls: "marker face-down", kind: "hidden" });
  }
  return chips;
}

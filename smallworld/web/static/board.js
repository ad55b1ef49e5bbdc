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
  return `hsl(${hue}, 60%, ${i % 2 ? 30 : 40}%)`;
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

// Draw the whole table. `view` may be null (no state yet); `offered` is a Set of region refs.
export function drawBoard(svg, board, view, offered = new Set(), selected = null) {
  // A phone held upright gets the islands one under another; wider screens keep the server's grid.
  if (window.matchMedia("(max-width: 760px)").matches && board.sides.length > 1) board = oneColumn(board);
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (view && view.tray) setRaces(Object.keys(view.tray));
  const m = 3;
  svg.setAttribute("viewBox", `${-m} ${-m} ${board.width + 2 * m} ${board.height + 2 * m}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", W.t("board"));
  defs(svg);
  el("rect", { x: -m, y: -m, width: board.width + 2 * m, height: board.height + 2 * m, fill: "#dbeaf4" }, svg);
  const owner = (race) => {
    if (!view) return null;
    const i = view.seats.findIndex((s) => s.active === race || s.declined === race || (s.more_declined || []).includes(race));
    return i < 0 ? null : i;
  };
  const declined = (race) => !!view && view.seats.some((s) => s.declined === race || (s.more_declined || []).includes(race));
  for (const side of board.sides) {
    const g = el("g", { transform: `translate(${side.x},${side.y})`, class: "side", "data-side": side.id }, svg);
    el("polygon", { points: pts(side.outline), fill: "#f3e6bf", stroke: "#3b3128", "stroke-width": 0.8 }, g);
    const title = el("text", { x: 50, y: 4, "text-anchor": "middle", class: "side-title" }, g);
    title.textContent = `${side.name} (${side.id})`;
    // Two layers: the shapes (each a region element, clickable), then everything drawn on them,
    // so that no shape hides a neighbour's name or stack.
    const shapes = el("g", { class: "shapes" }, g);
    const marks = el("g", { class: "marks" }, g);
    for (const r of side.regions) {
      const here = view ? view.regions[r.ref] : null;
      const rg = el("g", {
        class: `region terrain-${r.terrain}${offered.has(r.ref) ? " offered" : ""}${selected === r.ref ? " selected" : ""}`,
        "data-region": r.ref, tabindex: 0, role: "button",
      }, shapes);
      const holder = here && here.race ? `${raceName(here.race)} ×${here.tokens}` : W.t("nobody");
      rg.setAttribute("aria-label", `${r.n} ${r.name}, ${W.terrain(r.terrain)}, ${W.t("holder")}: ${holder}`);
      el("polygon", { points: pts(r.polygon), fill: `url(#t-${r.terrain})`, class: "shape" }, rg);
      const mg = el("g", { class: "region-marks", "data-marks-of": r.ref }, marks);
      const [lx, ly] = r.label;
      const dark = ["Forest", "Swamp", "Sea"].includes(r.terrain);
      const name = el("text", { x: lx, y: ly - 3.2, "text-anchor": "middle", class: `rname${dark ? " light" : ""}` }, mg);
      name.textContent = `${r.n} ${r.name}`;
      // Feature glyphs in a row above the name; Mountains get their marker (§2.3).
      const glyphs = [...r.features];
      if (r.terrain === "Mountain") glyphs.push("Mountain");
      glyphs.forEach((f, i) => {
        const gx = lx + (i - (glyphs.length - 1) / 2) * 3.6;
        const fg = el("g", { class: `feature feature-${f}` }, mg);
        el("circle", { cx: gx, cy: ly - 7.4, r: 1.6, class: "glyph-disc" }, fg);
        const tx = el("text", { x: gx, y: ly - 6.75, "text-anchor": "middle", class: "glyph" }, fg);
        tx.textContent = f === "Mountain" ? "▲" : (f === "Size" ? side.size : FEATURE_GLYPH[f] || "?");
        el("title", {}, fg).textContent = f === "Mountain" ? W.text("edition", "piece.mountain", { n: 1 }) : W.feature(f);
      });
      if (here && here.race) {
        const dec = declined(here.race);
        const seat = owner(here.race);
        const sg = el("g", { class: `stack${dec ? " declined" : ""}`, "data-race": here.race,
          "data-tokens": here.tokens }, mg);
        el("rect", { x: lx - 6.5, y: ly - 1.6, width: 13, height: 5, rx: 1.2,
          fill: dec ? "url(#declined)" : raceColour(here.race),
          stroke: seat === null ? "#222" : SEAT_COLOURS[seat % 5], "stroke-width": 0.7,
          "stroke-dasharray": dec ? "1 0.6" : null }, sg);
        const st = el("text", { x: lx, y: ly + 2.1, "text-anchor": "middle", class: "stack-text" }, sg);
        st.textContent = `${dec ? "↓" : ""}${abbrev(here.race)} ${here.tokens}`;
        if (seat !== null) {
          el("circle", { cx: lx + 6.5, cy: ly - 1.6, r: 1.5, fill: SEAT_COLOURS[seat % 5], stroke: "#222", "stroke-width": 0.2 }, sg);
          const sn = el("text", { x: lx + 6.5, y: ly - 1.0, "text-anchor": "middle", class: "seat-num" }, sg);
          sn.textContent = String(seat + 1);
        }
        el("title", {}, sg).textContent = `${raceName(here.race)}${dec ? ` (${W.t("declined")})` : ""}: ${here.tokens}`;
      }
      // Pieces (Forts, Wisp Walls, Watch Towers, bombs, Beasts, Champion, objectives, Harmony...)
      // and markers (relics and places, face down or up), one labelled chip each, below the stack.
      const chips = [];
      if (here && here.pieces) {
        for (const [kind, n] of Object.entries(here.pieces)) {
          const label = W.piece(board.pieces[kind], kind, n);
          chips.push({ text: `${label}${n > 1 ? ` ×${n}` : ""}`, cls: `piece piece-${kind}`, kind });
        }
      }
      for (const mk of (view && view.markers[r.ref]) || []) {
        chips.push(mk.face_up && mk.id
          ? { text: W.unitName(mk.id), cls: "marker face-up", kind: mk.id }
          : { text: `? ${W.t("face_down")}`, cls: "marker face-down", kind: "hidden" });
      }
      chips.forEach((c, i) => {
        const cy = ly + 5 + i * 3.4;
        const cg = el("g", { class: c.cls, "data-piece": c.kind }, mg);
        const w = Math.min(22, 2 + c.text.length * 1.05);
        el("rect", { x: lx - w / 2, y: cy - 1.2, width: w, height: 3, rx: 0.8 }, cg);
        const tx = el("text", { x: lx, y: cy + 0.9, "text-anchor": "middle", class: "chip-text" }, cg);
        tx.textContent = c.text;
      });
    }
  }
}

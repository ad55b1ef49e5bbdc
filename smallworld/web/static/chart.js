// A line chart as inline SVG, made here (no chart library): one line per series over the same
// x positions, with both axes labelled, a light grid, and each line drawn in its colour with its own
// dash pattern and point shape (so that lines stay apart for readers who tell colours apart badly).
// The legend is the caller's (it names the players: end.js).
const NS = "http://www.w3.org/2000/svg";
const DASHES = ["", "7 4", "2 3", "10 3 2 3", "5 5"];
const SHAPES = ["circle", "square", "diamond", "triangle", "circle"];

function el(tag, attrs = {}, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}

// Round numbers for the y axis: steps of 1, 2 or 5 times a power of ten, about `count` of them.
function ticks(max, count = 5) {
  if (max <= 0) return [0];
  const raw = max / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
  const out = [];
  for (let v = 0; v <= max + step / 2; v += step) out.push(v);
  if (out[out.length - 1] < max) out.push(out[out.length - 1] + step);
  return out;
}

// A series' point mark, centred on (x, y).
function mark(shape, x, y, colour) {
  const r = 3.5;
  if (shape === "square") return el("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
  if (shape === "diamond") return el("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`, fill: colour });
  if (shape === "triangle") return el("polygon", { points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`, fill: colour });
  return el("circle", { cx: x, cy: y, r, fill: colour });
}

// The style of series `i`: {dash, shape}, for a legend to draw the same.
export const seriesStyle = (i) => ({ dash: DASHES[i % DASHES.length], shape: SHAPES[i % SHAPES.length] });

// `series`: [{label, colour, values: [number per x], key}]; `xLabels`: the text under each x;
// `xTitle`, `yTitle`: the axes' names; `title`: the chart's accessible name.
export function lineChart({ series, xLabels, xTitle, yTitle, title }) {
  const W = 380, H = 230, left = 40, right = 10, top = 10, bottom = 38;
  const n = xLabels.length;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const ys = ticks(max);
  const top_ = ys[ys.length - 1];
  const x = (i) => left + (n > 1 ? (i * (W - left - right)) / (n - 1) : (W - left - right) / 2);
  const y = (v) => top + (H - top - bottom) * (1 - v / top_);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "score-chart", role: "img", "aria-label": title });
  svg.append(el("title", {}, title));
  for (const v of ys) {
    svg.append(el("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v ? "grid" : "axis" }));
    svg.append(el("text", { x: left - 6, y: y(v) + 4, "text-anchor": "end", class: "tick" }, String(v)));
  }
  svg.append(el("line", { x1: left, x2: left, y1: top, y2: y(0), class: "axis" }));
  xLabels.forEach((label, i) => {
    svg.append(el("line", { x1: x(i), x2: x(i), y1: y(0), y2: y(0) + 4, class: "axis" }));
    svg.append(el("text", { x: x(i), y: y(0) + 16, "text-anchor": "middle", class: "tick" }, label));
  });
  svg.append(el("text", { x: (left + W - right) / 2, y: H - 6, "text-anchor": "middle", class: "axis-title" }, xTitle));
  svg.append(el("text", { x: 12, y: (top + y(0)) / 2, "text-anchor": "middle", transform: `rotate(-90 12 ${(top + y(0)) / 2})`, class: "axis-title" }, yTitle));
  series.forEach((s, i) => {
    const { dash, shape } = seriesStyle(i);
    const g = el("g", { class: "series", "data-series": s.key ?? i });
    g.append(el("title", {}, `${s.label}: ${s.values.join(", ")}`));
    g.append(el("polyline", { class: "line", points: s.values.map((v, j) => `${x(j)},${y(v)}`).join(" "), stroke: s.colour, "stroke-dasharray": dash || null }));
    s.values.forEach((v, j) => g.append(mark(shape, x(j), y(v), s.colour)));
    svg.append(g);
  });
  return svg;
}

// A legend swatch: a short stretch of the series' line, in its colour and dash, with its mark.
export function swatch(i, colour) {
  const { dash, shape } = seriesStyle(i);
  const svg = el("svg", { viewBox: "0 0 28 10", width: 28, height: 10, class: "swatch-line", "aria-hidden": "true" });
  svg.append(el("line", { x1: 1, x2: 27, y1: 5, y2: 5, stroke: colour, "stroke-width": 2.5, "stroke-dasharray": dash || null }));
  svg.append(mark(shape, 14, 5, colour));
  return svg;
}

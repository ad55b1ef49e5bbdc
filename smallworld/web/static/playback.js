// Playing back the other players' moves (docs/web.md "Playback"): when moves of seats this browser
// does not hold arrive, the board goes through them step by step (STEP_MS a step, faster when
// several are queued; "skip" ends it): the region pulses, its stack shows what the move left there,
// a conquest shows the tokens that went in and the defenders lost, and the move's words (a reveal,
// a piece, a die roll with its face and whether the attempt succeeded) are told above the board,
// where they cover no region name. Then a short summary per player ("Alice: conquered 3 regions,
// destroyed 2 tokens, scored 7 coins") stays until dismissed. With `prefers-reduced-motion` there
// are no steps, only the summary.
//
// The screen (app.js) asks three things of it while it draws: `view(v)` (the view to draw, its
// regions as the playback has got to), `decorate(svg)` (the pulse and the numbers on the board) and
// `bar()` (the words above the board).
import * as W from "./i18n.js";
import * as N from "./names.js";

export const STEP_MS = 800;
const SVG = "http://www.w3.org/2000/svg";

const clone = (o) => JSON.parse(JSON.stringify(o || {}));
const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined) continue;
    if (k.startsWith("on")) { e.addEventListener(k.slice(2), v); e.__on = true; } else e.setAttribute(k, v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// The regions a move touches: its action's (a plan's too) and its events'.
function regionsOf(move) {
  const out = new Set();
  const a = move.action || {};
  if (typeof a.region === "string") out.add(a.region);
  if (a.kind === "plan" && a.arg && typeof a.arg === "object") for (const r of Object.keys(a.arg)) out.add(r);
  for (const e of move.events || []) {
    if (typeof e.region === "string") out.add(e.region);
    if (typeof e.to === "string") out.add(e.to);
    for (const r of e.regions || []) if (typeof r === "string") out.add(r);
  }
  return [...out];
}

// What a move does to a region's count of tokens, where its action tells it without the state:
// a deployment of one token adds 1, of a troop piece none; null: not known from the move alone.
function knownDelta(move, ref) {
  const a = move.action || {};
  if (a.kind === "deploy" && a.region === ref && (a.arg === null || a.arg === undefined)) return 1;
  if (a.kind === "deploy" && a.region === ref && a.arg !== "all") return 0;
  return null;
}
const tokensOf = (r) => (r && r.race ? r.tokens || 0 : 0);

export class Playback {
  constructor(screen) {
    this.screen = screen; // the game screen: render(), rich(text), actingSeat()
    this.waiting = false; // all steps shown, the same player still to act: its next moves go on
    this.queue = [];
    this.step = null; // the move being shown: {move, n, regions, badges, die}
    this.regions = null; // the board's regions as the playback has got to (null: the view's own)
    this.markers = null; // and its relics and places (face down until the move that turns them up)
    this.timer = null;
    this.total = 0; // steps in this run, for "step n of total"
    this.shown = 0;
    this.tally = new Map(); // seat -> {regions, lost, coins}, until the summary is dismissed
    this.summary = false;
  }
  busy() { return this.step !== null || this.queue.length > 0; }
  // Others' moves, with the regions of the view before them (where the board starts from).
  enqueue(moves, before) {
    const steps = moves.filter((m) => (m.events || []).length || regionsOf(m).length);
    if (!steps.length) return;
    for (const m of steps) this.count(m);
    if (reducedMotion()) {
      this.summary = true;
      return;
    }
    if (!this.regions) {
      this.regions = clone(before && before.regions);
      this.markers = clone(before && before.markers);
    }
    this.queue.push(...steps);
    this.total += steps.length;
    if (!this.step || this.waiting) this.next();
  }
  // After each update: a run that waits for more of a player's moves ends once another is to act.
  settle() {
    if (this.waiting && this.screen.actingSeat() !== this.step.move.seat) this.finish();
  }
  count(m) {
    const t = this.tally.get(m.seat) || { regions: 0, lost: 0, coins: 0 };
    for (const e of m.events || []) {
      if (e.type === "conquest" && e.seat === m.seat) { t.regions += 1; t.lost += e.lost || 0; }
      if (e.type === "score" && e.seat === m.seat) t.coins += e.total || 0;
    }
    this.tally.set(m.seat, t);
  }
  delay() {
    const q = this.queue.length;
    return q > 8 ? STEP_MS / 4 : q > 3 ? STEP_MS / 2 : STEP_MS;
  }
  next() {
    this.timer = null;
    this.waiting = false;
    const move = this.queue.shift();
    if (!move) {
      // The player whose moves these are is still deciding: the run goes on with its next moves
      // (the counter with it); else it ends with the summary.
      if (this.step && this.screen.actingSeat() === this.step.move.seat) {
        this.waiting = true;
        this.step = { ...this.step, regions: [], badges: {} };
        this.screen.render();
      } else this.finish();
      return;
    }
    this.shown += 1;
    const badges = {};
    let die = null;
    const touched = this.touched(move);
    // A region's markers as the moves leave them: the latest view's, once a move has touched it.
    const markers = (this.final() || {}).markers || {};
    for (const ref of touched) {
      if (markers[ref]) this.markers[ref] = clone(markers[ref]);
      else delete this.markers[ref];
    }
    const before = Object.fromEntries(touched.map((r) => [r, tokensOf(this.regions[r])]));
    const exact = new Set(); // the regions whose count this move tells exactly
    for (const e of move.events || []) {
      if (e.type === "conquest" && typeof e.region === "string") {
        this.regions[e.region] = { ...(this.regions[e.region] || {}), race: e.race, tokens: e.tokens };
        badges[e.region] = { tokens: e.tokens, lost: e.lost || 0 };
        exact.add(e.region);
      } else if (e.type === "abandon" && typeof e.region === "string") {
        delete this.regions[e.region];
        exact.add(e.region);
      } else if (e.type === "portal" && (e.regions || []).length === 2) {
        // Two regions swapped what they held (Portal Mage).
        const [a, b] = e.regions;
        const [ra, rb] = [this.regions[a], this.regions[b]];
        if (rb) this.regions[a] = rb; else delete this.regions[a];
        if (ra) this.regions[b] = ra; else delete this.regions[b];
        exact.add(a);
        exact.add(b);
      } else if (e.type === "die") {
        die = { roll: e.roll, success: !!e.success };
      }
    }
    const a = move.action || {};
    if (a.kind === "plan" && a.arg && typeof a.arg === "object") {
      // A whole redeployment: each region's final tokens (its race stays the seat's).
      for (const [ref, p] of Object.entries(a.arg)) {
        if (!this.regions[ref]) continue;
        this.regions[ref] = { ...this.regions[ref], tokens: p.tokens };
        exact.add(ref);
      }
    }
    // The other changes (a token deployed, troops readied for the conquests, a unit's own event):
    // the count the region has after this move, worked back from the view the moves lead to.
    for (const ref of touched) {
      if (exact.has(ref)) continue;
      const after = this.settled(ref);
      if (after) {
        if (after.race) this.regions[ref] = { ...(this.regions[ref] || {}), ...after };
        else delete this.regions[ref];
      } else if (knownDelta(move, ref) && this.regions[ref]) {
        this.regions[ref] = { ...this.regions[ref], tokens: before[ref] + knownDelta(move, ref) };
      }
    }
    // How each count changed, under its stack ("+2", "−3"); a conquest's own numbers stay. Where
    // the move tells its own change (a token deployed), that is the change: the count before it
    // may hold tokens lifted into hand by a step no move shows (the start of a redeployment).
    for (const ref of touched) {
      const delta = knownDelta(move, ref) ?? tokensOf(this.regions[ref]) - before[ref];
      if (!badges[ref] && delta) badges[ref] = { delta };
    }
    this.step = { move, n: this.shown, regions: touched, badges, die };
    this.screen.render();
    this.timer = setTimeout(() => this.next(), this.delay());
  }
  // The regions a move changes: those it names and, for `expand` (its troops readied: each region
  // keeps its minimum, the rest go to hand), every region of the seat's race.
  touched(move) {
    const out = new Set(regionsOf(move));
    if ((move.action || {}).kind === "expand") {
      const seat = ((this.final() || {}).seats || [])[move.seat] || {};
      for (const [ref, r] of Object.entries(this.regions || {})) if (r && r.race && r.race === seat.active) out.add(ref);
    }
    return [...out];
  }
  // The view the queued moves lead to (the screen's latest).
  final() {
    const shown = this.screen.shown ? this.screen.shown() : null;
    return shown && shown.st ? shown.st.view : null;
  }
  // A region as it is after the move being shown: the latest view's, taken back through the queued
  // moves that touch it (each adding what its action tells); null where one of them does not tell.
  settled(ref) {
    const fin = this.final();
    if (!fin) return null;
    const r = fin.regions[ref];
    let tokens = tokensOf(r);
    for (const m of this.queue) {
      if (!this.touched(m).includes(ref)) continue;
      const d = knownDelta(m, ref);
      if (d === null) return null;
      tokens -= d;
    }
    return r && r.race ? { ...clone(r), tokens } : {};
  }
  skip() {
    clearTimeout(this.timer);
    this.queue = [];
    this.finish();
  }
  finish() {
    clearTimeout(this.timer);
    this.timer = null;
    this.waiting = false;
    this.step = null;
    this.regions = null;
    this.markers = null;
    this.total = 0;
    this.shown = 0;
    this.summary = this.tally.size > 0;
    this.screen.render();
  }
  dismiss() {
    this.summary = false;
    this.tally = new Map();
    this.screen.render();
    document.getElementById("board")?.focus?.();
  }
  close() { clearTimeout(this.timer); }
  // --- what the screen draws
  view(v) { return this.regions ? { ...v, regions: this.regions, markers: this.markers } : v; }
  decorate(svg) {
    const s = this.step;
    if (!s) return;
    for (const ref of s.regions) {
      const g = svg.querySelector(`[data-region="${ref}"]`);
      if (g) g.classList.add("pulse");
      const marks = svg.querySelector(`[data-marks-of="${ref}"]`);
      const b = s.badges[ref];
      if (!marks || !b) continue;
      // The numbers of the conquest under the stack: tokens in, defenders lost.
      // (a region left empty: under its name)
      const stack = marks.querySelector(".stack rect");
      const name = marks.querySelector(".rname tspan:last-child");
      const x = stack ? +stack.getAttribute("x") + +stack.getAttribute("width") / 2 : name ? +name.getAttribute("x") : 50;
      // Below the region's chips (its pieces and markers) when it has any: over one, it hid both.
      const chips = [...marks.querySelectorAll(".piece rect, .marker rect")]
        .map((r) => +r.getAttribute("y") + +r.getAttribute("height") + 3.2);
      const y = Math.max(stack ? +stack.getAttribute("y") + 8.4 : name ? +name.getAttribute("y") + 3.4 : 50, ...chips);
      const t = document.createElementNS(SVG, "text");
      t.setAttribute("class", "pb-badge");
      t.setAttribute("text-anchor", "middle");
      t.setAttribute("x", x.toFixed(2));
      t.setAttribute("y", y.toFixed(2));
      if (b.delta) {
        // A count that went up or down without a fight: the change, under the new number.
        t.setAttribute("class", `pb-badge pb-delta ${b.delta > 0 ? "up" : "down"}`);
        t.dataset.delta = b.delta;
        t.textContent = b.delta > 0 ? `+${b.delta}` : `−${-b.delta}`;
      } else t.textContent = `⚔${b.tokens}${b.lost ? ` −${b.lost}` : ""}`;
      marks.appendChild(t);
    }
  }
  // What a move's events do not tell (a token deployed, a redeployment, troops readied: most of
  // them set off none), its action in words, told before them (null: the events tell it all).
  actionLine(move) {
    const a = move.action || {};
    const who = N.mark(move.seat);
    const r = typeof a.region === "string" && this.screen.index ? this.screen.index[a.region] : null;
    if (a.kind === "deploy" && r) {
      const none = a.arg === null || a.arg === undefined;
      const key = none ? "pb.deploy" : a.arg === "all" ? "pb.deploy_all" : "pb.deploy_piece";
      return W.t(key, { who, region: `${r.n} ${r.name}` });
    }
    if (a.kind === "plan") return W.t("pb.plan", { who });
    if (a.kind === "expand") return W.t("pb.expand", { who });
    return null;
  }
  bar() {
    const s = this.step;
    if (s) {
      const lines = [this.actionLine(s.move), ...(W.pick(s.move.texts || {}) || [])].filter((t) => t);
      return el("div", { id: "playback", class: "playback playing", role: "status", "aria-live": "polite",
        "data-step": s.n, "data-steps": this.total, "data-seat": s.move.seat, "data-ply": s.move.ply },
      el("div", { class: "pb-head" },
        el("span", { class: "pb-count" }, W.t("pb.step", { n: s.n, of: this.total })),
        el("button", { id: "playback-skip", type: "button", onclick: () => this.skip() }, W.t("pb.skip"))),
      el("ul", { class: "pb-lines" }, ...lines.map((t) => el("li", {}, ...this.screen.rich(t)))),
      s.die ? el("div", { class: `pb-die ${s.die.success ? "won" : "lost"}`, "data-roll": s.die.roll },
        el("span", { class: "die-face", "aria-hidden": "true" }, String(s.die.roll)),
        `${W.t("die")}: ${s.die.roll} — ${W.t(s.die.success ? "pb.die_won" : "pb.die_lost")}`) : null);
    }
    if (!this.summary) return el("div", { id: "playback", class: "playback", role: "status", "aria-live": "polite", hidden: "" });
    const rows = [...this.tally.entries()].map(([seat, t]) => el("li", { "data-seat": seat, "data-regions": t.regions,
      "data-lost": t.lost, "data-coins": t.coins },
    ...this.screen.rich(W.t("pb.summary", { who: N.mark(seat), n: t.regions, lost: t.lost, coins: t.coins }))));
    return el("div", { id: "playback", class: "playback summary", role: "status", "aria-live": "polite" },
      el("div", { class: "pb-head" }, el("strong", {}, W.t("pb.summary_title")),
        el("button", { id: "playback-dismiss", type: "button", onclick: () => this.dismiss() }, W.t("pb.dismiss"))),
      el("ul", { class: "pb-summary" }, ...rows));
  }
}

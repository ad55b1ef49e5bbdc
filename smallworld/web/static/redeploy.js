// The redeployment panel: + and − per region for the tokens and each troop piece in hand (the
// Champion, Beasts), "all here", undo, and one "done" that sends the whole plan. It builds only
// plans the engine takes, from what the payload says (smallworld/web/payload.py `plan`): "−" stops
// at `plan.minimum` (what must stay on a region), "+" at what is left in hand, and "done" waits
// until nothing is left to place. The regions are listed in their numbers' order. A plan not yet
// sent is kept in sessionStorage, keyed by game, seat and ply, so that a reload finds it again.
import * as W from "./i18n.js";

const copy = (o) => JSON.parse(JSON.stringify(o));
const storeKey = (game, seat, ply) => `sw.plan.${game}.${seat}.${ply}`;

// The floor of a region's count of `kind`: the payload's minimum (a server without it: the
// current plan, which a plan may only add to).
export function floor(st, ref, kind) {
  const m = (st.plan.minimum || st.plan.current)[ref];
  return (m && m[kind]) || 0;
}

// What is left in hand of each thing a plan places: "tokens" and each troop piece. Every one of
// them must be placed (docs/protocol.md, whole plans).
export function planLeft(st, plan) {
  const seat = st.view.seats[st.view.viewer];
  const kinds = new Set(["tokens", ...Object.keys(seat.held || {}).filter((k) => seat.held[k] > 0)]);
  for (const p of Object.values(st.plan.current)) for (const k of Object.keys(p)) kinds.add(k);
  const sum = (pl, k) => Object.values(pl).reduce((n, r) => n + (r[k] || 0), 0);
  const left = {};
  for (const k of kinds) {
    const inHand = k === "tokens" ? seat.hand : (seat.held || {})[k] || 0;
    left[k] = inHand + sum(st.plan.current, k) - sum(plan, k);
  }
  return left;
}

// A plan this panel could have built: regions the seat may place on, no count under its floor,
// nothing placed that is not in hand.
function buildable(st, plan) {
  if (!plan || typeof plan !== "object") return false;
  const refs = new Set([...Object.keys(st.plan.current), ...st.plan.offered]);
  for (const [ref, p] of Object.entries(plan)) {
    if (!refs.has(ref) || !p || typeof p !== "object") return false;
    for (const [k, n] of Object.entries(p)) if (!Number.isInteger(n) || n < floor(st, ref, k)) return false;
  }
  for (const ref of Object.keys(st.plan.current)) if (!plan[ref]) return false;
  return Object.values(planLeft(st, plan)).every((n) => n >= 0);
}

// The plan to edit when the panel opens: the one kept for this game, seat and ply, else the regions
// as they are.
export function startPlan(scr, seat, st) {
  if (scr.plan) return;
  scr.plan = copy(st.plan.current);
  scr.planHistory = [];
  try {
    const kept = JSON.parse(sessionStorage.getItem(storeKey(scr.id, seat, st.view.ply)) || "null");
    if (kept && buildable(st, kept.plan)) {
      scr.plan = kept.plan;
      scr.planHistory = Array.isArray(kept.history) ? kept.history : [];
    }
  } catch { /* a damaged entry: start afresh */ }
}

function keep(scr, seat, st) {
  try {
    sessionStorage.setItem(storeKey(scr.id, seat, st.view.ply), JSON.stringify({ plan: scr.plan, history: scr.planHistory }));
  } catch { /* storage full or off: the plan lives on in the page only */ }
}

// Once a plan is sent (or the game moved on), the kept ones of this game and seat go.
export function forgetPlans(gameId, seat) {
  const prefix = `sw.plan.${gameId}.${seat}.`;
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const k = sessionStorage.key(i);
    if (k && k.startsWith(prefix)) sessionStorage.removeItem(k);
  }
}

// The regions' changes from what they hold now: the plan's `arg`.
export function planAction(st, plan) {
  const changed = {};
  for (const [ref, p] of Object.entries(plan)) {
    const c = st.plan.current[ref];
    if (!c || JSON.stringify(c) !== JSON.stringify(p)) changed[ref] = p;
  }
  return { kind: "plan", arg: changed };
}

// The panel. `scr` is the game screen (its `plan`, `planHistory`, `index`, `board`, `render`,
// `send`), `seat` the seat editing, `h` the page's element builder.
export function redeployPanel(scr, seat, st, h) {
  const left = planLeft(st, scr.plan);
  const kinds = Object.keys(left);
  const refs = [...new Set([...Object.keys(scr.plan), ...st.plan.offered])]
    .sort((a, b) => scr.index[a].n - scr.index[b].n);
  const change = (ref, k, to) => {
    scr.planHistory.push(JSON.stringify(scr.plan));
    const p = scr.plan[ref] || { tokens: 0 };
    p[k] = Math.max(floor(st, ref, k), to);
    if (!p[k] && k !== "tokens") delete p[k];
    scr.plan[ref] = p;
    keep(scr, seat, st);
    scr.render();
  };
  const label = (k) => (k === "tokens" ? W.t("tokens") : W.piece(scr.board.pieces[k], k, 2));
  const control = (ref, r, k) => {
    const n = (scr.plan[ref] || {})[k] || 0;
    const name = k === "tokens" ? `${r.n} ${r.name}` : `${label(k)} ${r.n} ${r.name}`;
    const min = floor(st, ref, k);
    const id = (what) => `plan-${what}-${k}-${ref}`;
    return h("span", { class: `plan-control plan-${k}`, dataset: { kind: k, min } },
      k === "tokens" ? null : h("small", {}, label(k)),
      h("button", { class: "minus", id: id("minus"), "aria-label": `− ${name}`, disabled: n <= min,
        title: n <= min && min > 0 ? W.t("plan.stays", { n: min }) : null, onclick: () => change(ref, k, n - 1) }, "−"),
      h("span", { class: "plan-count", "aria-live": "polite" }, n),
      h("button", { class: "plus", id: id("plus"), "aria-label": `+ ${name}`, disabled: left[k] <= 0, onclick: () => change(ref, k, n + 1) }, "+"),
      left[k] > 1 ? h("button", { class: "all", id: id("all"), "aria-label": W.t("plan.all_here", { n: left[k], region: name }),
        title: W.t("plan.all_here", { n: left[k], region: name }), onclick: () => change(ref, k, n + left[k]) }, `+${left[k]}`) : null);
  };
  const tokensLeft = left.tokens;
  const troopsLeft = kinds.filter((k) => k !== "tokens" && left[k] > 0).map((k) => `${left[k]} ${label(k)}`);
  const waiting = kinds.reduce((n, k) => n + Math.max(0, left[k]), 0);
  const action = planAction(st, scr.plan);
  return h("section", { class: "panel redeploy", id: "redeploy", "aria-labelledby": "redeploy-title" },
    h("h2", { id: "redeploy-title" }, W.t("redeploy")),
    h("div", { id: "plan-left", role: "status", dataset: { left: waiting, tokens: tokensLeft } },
      W.t("plan_left", { n: tokensLeft }), troopsLeft.length ? ` · ${troopsLeft.join(", ")}` : ""),
    h("ul", { class: "plan" }, ...refs.map((ref) => {
      const r = scr.index[ref];
      return h("li", { dataset: { planRegion: ref, n: r.n } },
        h("span", { class: "plan-name" }, `${r.n} ${r.name}`), ...kinds.map((k) => control(ref, r, k)));
    })),
    h("div", { class: "buttons" },
      h("button", { id: "plan-undo", disabled: !scr.planHistory.length, onclick: () => {
        scr.plan = JSON.parse(scr.planHistory.pop());
        keep(scr, seat, st);
        scr.render();
      } }, W.t("undo")),
      h("button", { id: "plan-done", class: "primary", disabled: waiting > 0, "aria-describedby": "plan-left",
        dataset: { action: JSON.stringify(action) }, onclick: () => scr.send(action) }, W.t("done"))),
    waiting > 0 ? h("p", { class: "plan-hint", id: "plan-hint" }, W.t("plan.place_all")) : null);
  // The engine's own token-by-token moves stay offered too, in "all decisions" below.
}

// The keyboard: skip links ("skip to the board", "skip to the decisions"), shortcuts listed in a
// help dialog ("?"), arrows between regions, and focus that stays where the player is working when
// the page redraws (after a pick, after each "+" or "−"). And the phone: a tapped region's panel
// opens beside the tap (`placeRegionPanel`). Nothing here decides what is legal: the shortcuts
// press the buttons the page shows.
import * as W from "./i18n.js";

let current = () => null; // the screen shown (app.js hands it over)

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// The shortcuts, as the help dialog lists them: [keys, what it does].
const SHORTCUTS = () => [
  ["b", W.t("keys.board")],
  [`← → ↑ ↓ · ${W.t("keys.key.shift")} + ← →`, W.t("keys.arrows")],
  [W.t("keys.key.enter"), W.t("keys.enter")],
  ["a", W.t("keys.actions")],
  ["d", W.t("keys.done")],
  ["u", W.t("keys.undo")], // undo.js
  [W.t("keys.key.esc"), W.t("keys.escape")],
  ["?", W.t("keys.help")],
];

// --- where the keys go
const visible = (e) => !!e && !e.disabled && e.getClientRects().length > 0;
const first = (sel) => [...document.querySelectorAll(sel)].find(visible) || null;

// What is left to place in a redeployment, within `scope`: its first "+N" (all here), else "+".
const toPlace = (scope) => first(`${scope} .all`) || first(`${scope} .plus`);

// The first button of the panel in use: the selected region's, the redeployment's (a control
// while tokens are left, else "done"), the decisions', the combos'.
export function firstAction() {
  return first("#region-info button[data-action]")
    || (document.getElementById("redeploy") ? first("#plan-done") || toPlace("#redeploy") : null)
    || first("#decisions button[data-action]") || first("#combos button[data-action]")
    || first("#all-actions summary");
}

// The regions in their numbers' order; `offeredOnly`: those a legal action names, where any are.
function regions(offeredOnly) {
  const all = [...document.querySelectorAll("#board [data-region]")];
  const scr = current();
  const n = (g) => (scr && scr.index && scr.index[g.dataset.region] ? scr.index[g.dataset.region].n : 0);
  all.sort((a, b) => n(a) - n(b));
  const offered = all.filter((g) => g.classList.contains("offered"));
  return offeredOnly && offered.length ? offered : all;
}

// The board's one stop in the tab order (a roving tabindex): the selected region, else the first
// offered, else the first. The arrows move it.
export function rove(svg) {
  const gs = [...svg.querySelectorAll("[data-region]")];
  const stop = svg.querySelector("[data-region].selected") || svg.querySelector("[data-region].offered") || gs[0];
  for (const g of gs) g.setAttribute("tabindex", g === stop ? "0" : "-1");
}
function focusRegion(g) {
  for (const o of document.querySelectorAll('#board [data-region][tabindex="0"]')) o.setAttribute("tabindex", "-1");
  g.setAttribute("tabindex", "0");
  g.focus();
}
function focusBoard() {
  const g = document.querySelector("#board [data-region][tabindex='0']") || regions(true)[0];
  if (g) focusRegion(g);
  return !!g;
}
function focusActions() {
  const b = firstAction();
  if (b) b.focus();
  else document.getElementById("status")?.focus();
}

// --- focus across a redraw. The page is rebuilt on each update; `memo()` notes what had the
// focus, `restore()` puts it back on the same control, or on its panel's next one, or (for a
// decision just made, whose panel is gone) on the first button of the panel now in use.
export function memo() {
  const a = document.activeElement;
  if (!a || a === document.body) return null;
  return {
    id: a.id || null,
    action: a.dataset ? a.dataset.action || null : null,
    region: a.dataset ? a.dataset.region || null : null,
    row: a.closest ? a.closest("[data-plan-region]")?.dataset.planRegion || null : null,
    inSide: !!(a.closest && a.closest(".side")),
    home: a.parentElement?.closest("[id]")?.id || null, // the part of the page it was in
  };
}
export function restore(m, scr) {
  const panel = scr && scr.focusPanel;
  if (scr) scr.focusPanel = false;
  if (panel) {
    // A region chosen with the keyboard: its panel, to act on it with Enter.
    const b = first("#region-info button[data-action]") || document.getElementById("region-info");
    if (b) { b.focus({ preventScroll: !!document.querySelector(".popover") }); return; }
  }
  if (!m) {
    if (scr && scr.selected) document.querySelector(`#board [data-region="${scr.selected}"]`)?.focus({ preventScroll: true });
    return;
  }
  const byId = m.id ? document.getElementById(m.id) : null;
  if (visible(byId) || (byId && !("disabled" in byId))) { byId.focus({ preventScroll: true }); return; }
  if (m.action) {
    // The same decision may be drawn twice (its panel and the list of every decision, perhaps
    // closed): the one in the same part of the page first, else the first that takes the focus.
    const all = [...document.querySelectorAll("button[data-action]")].filter((b) => b.dataset.action === m.action && visible(b));
    const near = all.filter((b) => b.parentElement?.closest("[id]")?.id === m.home);
    for (const b of [...near, ...all]) {
      b.focus({ preventScroll: true });
      if (document.activeElement === b) return;
    }
  }
  if (m.region) {
    const g = document.querySelector(`#board [data-region="${m.region}"]`);
    if (g) { focusRegion(g); return; }
  }
  if (m.row) {
    // Everything placed: "done"; else what is left to place, on the same row first (a troop piece
    // once the tokens are all here), then on any; only then the row's other control ("−"): landing
    // on "−" after "+N", Enter took back what was just placed.
    const row = `[data-plan-region="${m.row}"]`;
    const b = first("#plan-done") || toPlace(row) || toPlace("#redeploy") || first(`${row} button`)
      || first("#redeploy button");
    if (b) { b.focus({ preventScroll: true }); return; }
  }
  if (m.inSide) {
    const b = firstAction();
    if (b) b.focus({ preventScroll: true });
    else document.getElementById("status")?.focus({ preventScroll: true });
  }
}

// --- the help dialog and the skip links
function helpDialog() {
  let d = document.getElementById("keys-help");
  if (!d) {
    d = h("dialog", { id: "keys-help", class: "keys-help", "aria-labelledby": "keys-help-title" });
    document.body.append(d);
  }
  d.replaceChildren(
    h("h2", { id: "keys-help-title" }, W.t("keys.title")),
    h("table", {}, h("tbody", {}, ...SHORTCUTS().map(([k, what]) => h("tr", {}, h("th", { scope: "row" }, h("kbd", {}, k)), h("td", {}, what))))),
    h("form", { method: "dialog" }, h("button", { id: "keys-help-close", class: "primary" }, W.t("keys.close"))));
  return d;
}
export function openHelp() {
  const d = helpDialog();
  if (!d.open) d.showModal();
  document.getElementById("keys-help-close").focus();
}

// The words of the skip links, the help button and the dialog, in the language shown.
export function relabel() {
  const s = document.getElementById("skip-links");
  if (s) {
    s.querySelector("[data-skip='board']").textContent = W.t("a11y.skip_board");
    s.querySelector("[data-skip='actions']").textContent = W.t("a11y.skip_actions");
  }
  const b = document.getElementById("keys-open");
  if (b) { b.setAttribute("aria-label", W.t("keys.title")); b.title = W.t("keys.title"); }
  const d = document.getElementById("keys-help");
  if (d) { const open = d.open; helpDialog(); if (open) document.getElementById("keys-help-close").focus(); }
}

const typing = (t) => t && (t.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(t.tagName));

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (document.getElementById("keys-help")?.open) return; // the dialog keeps its own keys (Esc closes it)
  const t = e.target;
  if (typing(t)) return;
  const scr = current();
  const inGame = !!document.getElementById("game");
  if (e.key === "?") { e.preventDefault(); openHelp(); return; }
  if (!inGame) return;
  if (t && t.dataset && t.dataset.region && ["ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"].includes(e.key)) {
    e.preventDefault();
    const list = regions(!e.shiftKey);
    const step = e.key === "ArrowRight" || e.key === "ArrowDown" ? 1 : -1;
    // From a region not in the list (the one just conquered, no longer offered): the next one
    // after it by number, or the one before it.
    const n = (g) => (scr && scr.index ? scr.index[g.dataset.region].n : 0);
    let at = list.indexOf(t);
    if (at < 0) {
      const after = list.findIndex((g) => n(g) > n(t));
      at = step > 0 ? (after < 0 ? list.length : after) - 1 : (after < 0 ? list.length : after);
    }
    const next = list[(at + step + list.length) % list.length];
    if (next) focusRegion(next);
    return;
  }
  if (e.key === "Escape" && scr && scr.selected) {
    e.preventDefault();
    const ref = scr.selected;
    scr.selected = null;
    scr.render();
    const g = document.querySelector(`#board [data-region="${ref}"]`);
    if (g) focusRegion(g);
    return;
  }
  if (e.key === "b") { if (focusBoard()) e.preventDefault(); return; }
  if (e.key === "a") { e.preventDefault(); focusActions(); return; }
  if (e.key === "d") {
    const done = first("#plan-done") || [...document.querySelectorAll("#decisions button[data-action]")]
      .find((b) => visible(b) && JSON.parse(b.dataset.action).kind === "end");
    if (done) { e.preventDefault(); done.focus(); done.click(); }
  }
}

// --- the phone: the selected region's panel beside the region tapped, in view without scrolling.
const NARROW = "(max-width: 760px)";
export function placeRegionPanel() {
  const panel = document.getElementById("region-info");
  const wrap = document.querySelector("#game .board-wrap");
  const g = panel && document.querySelector(`#board [data-region="${panel.dataset.region}"]`);
  if (!panel || !wrap || !g || !window.matchMedia(NARROW).matches) return;
  panel.classList.add("popover");
  wrap.append(panel);
  const scr = current();
  panel.prepend(h("button", { class: "popover-close", id: "region-close", "aria-label": W.t("keys.close"), title: W.t("keys.close"),
    onclick: () => {
      const ref = scr && scr.selected;
      if (scr) { scr.selected = null; scr.render(); }
      const r = ref && document.querySelector(`#board [data-region="${ref}"]`);
      if (r) r.focus({ preventScroll: true });
    } }, "×"));
  const r = g.getBoundingClientRect();
  const w = wrap.getBoundingClientRect();
  const ph = panel.offsetHeight;
  const vh = window.innerHeight;
  // Below the region where it fits on the screen, else above it, else as near as the screen allows.
  let top = r.bottom + 6 + ph <= vh - 6 ? r.bottom + 6 : r.top - 6 - ph >= 6 ? r.top - 6 - ph : Math.max(6, vh - 6 - ph);
  top = Math.min(Math.max(6, top), Math.max(6, vh - 6 - ph));
  const left = Math.min(Math.max(6, r.left + r.width / 2 - panel.offsetWidth / 2), window.innerWidth - 6 - panel.offsetWidth);
  panel.style.top = `${top - w.top}px`;
  panel.style.left = `${Math.max(6, left) - w.left}px`;
}

export function install(screenOf) {
  current = screenOf;
  const links = h("nav", { id: "skip-links", class: "skip-links" },
    h("a", { href: "#app", "data-skip": "board", onclick: (e) => { e.preventDefault(); if (!focusBoard()) document.getElementById("app").focus(); } }, ""),
    h("a", { href: "#app", "data-skip": "actions", onclick: (e) => { e.preventDefault(); focusActions(); } }, ""));
  document.body.prepend(links);
  const open = h("button", { id: "keys-open", class: "keys-open", type: "button", onclick: openHelp }, "?");
  document.querySelector(".topbar")?.append(open);
  document.addEventListener("keydown", onKey);
  relabel();
}

// Undo within a turn (issue 28, item 4; docs/web.md "Undo"): the seat to act takes back its own
// decisions since the last die roll, reveal, draw or other seat's decision. The server decides
// which plies may be gone back to and sends them as the view answer's `undo_points` (latest first,
// each with its decision in words); this module shows them and asks for the undo, and brings the
// page back when the game goes back (this seat's undo, or another browser's seen on the socket).
//
// The game screen (app.js) calls `install(screen)` once it has started and `panel(screen, st, key)`
// in its render: nothing else of the screen knows about undo.
import * as api from "./api.js";
// The one element maker: an element with listeners is replaced, never kept, when the page is
// patched (patch.js), so a menu's button never calls back with the index it was first drawn with.
import { h } from "./app.js";
import * as W from "./i18n.js";
import * as N from "./names.js";

// The undo points the shown answer offers (none in a rated game: the server offers none there).
function offered(st) {
  if (!st || !st.legal || !st.legal.length || st.rated) return [];
  return st.undo_points || [];
}

// The decision an undo point takes back, in the reader's language (its action's kind where the
// server sent no words).
function words(screen, p) {
  const w = p.texts ? W.pick(p.texts) : null;
  return w ? N.plain(w, screen.info.seats) : p.action.kind;
}

// The page goes back to `ply` for the seat `key`: the log loses the moves from there on, and the
// answer about to come (older than the one shown) is taken (app.js `receive`). Until it comes the
// page shows the position it had, with its own ply: never the old position under the new ply.
export function rewound(screen, key, ply) {
  if (String(key) === String(screen.primaryKey())) {
    screen.log = screen.log.filter((m) => m.ply < ply);
    screen.logPly = Math.min(screen.logPly, ply);
  }
  const prev = screen.states[key];
  if (prev && prev.view.ply > ply) screen.rewoundTo[key] = Math.min(screen.rewoundTo[key] ?? ply, ply);
  screen.plan = null;
  screen.planHistory = [];
}

// Take back the decisions from the undo point at `index` of the shown answer's list on.
export async function undoTo(screen, index = 0) {
  const { key, st } = screen.shown();
  const p = offered(st)[index];
  if (!p || screen.undoing) return;
  screen.undoing = true;
  screen.message = null;
  try {
    const answer = await api.undo(screen.id, screen.tokens[key], Number(key), p.ply);
    for (const k of Object.keys(screen.states)) rewound(screen, k, p.ply);
    for (const l of screen.lives) l.lastPly = Math.min(l.lastPly, p.ply);
    screen.message = { error: false, text: W.t("undo.done", { n: answer.undone }) };
    screen.receive(key, answer, []);
    await Promise.all(screen.lives.map((l) => l.catchUp()));
  } catch (e) {
    const b = (e && e.body) || {};
    screen.message = { error: true, text: `${W.t("error")}: ${b.code ? W.refusal(b, screen.names(Number(key))) : e.message}` };
    screen.render();
  } finally {
    screen.undoing = false;
  }
}

// The panel: "take back my last decision", and a menu to go further back. Nothing when nothing
// can be taken back.
export function panel(screen, st) {
  const points = offered(st);
  if (!points.length) return null;
  const more = points.length > 1
    ? h("details", { class: "undo-more", id: "undo-more" }, h("summary", {}, W.t("undo.more")),
      h("div", { class: "buttons column" }, ...points.map((p, i) => h("button", {
        class: "undo-to", dataset: { ply: p.ply }, onclick: () => undoTo(screen, i),
      }, W.t("undo.to", { what: words(screen, p) })))))
    : null;
  return h("section", { class: "panel undo", id: "undo", "aria-label": W.t("undo.title") },
    h("div", { class: "buttons" },
      h("button", { id: "undo-last", dataset: { ply: points[0].ply }, "aria-keyshortcuts": "u",
        title: `${W.t("undo.to", { what: words(screen, points[0]) })} · ${W.t("undo.key")}`,
        onclick: () => undoTo(screen, 0) }, `↶ ${W.t("undo.take_back")}`)),
    more);
}

// The keyboard shortcut `u` (outside text fields) and the sockets' news that the game went back.
export function install(screen) {
  const onKey = (e) => {
    if (e.key !== "u" && e.key !== "U") return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
    if (!offered(screen.shown().st).length) return;
    e.preventDefault();
    undoTo(screen, 0);
  };
  document.addEventListener("keydown", onKey);
  const keys = screen.heldSeats().length ? screen.heldSeats() : ["spectator"];
  screen.lives.forEach((live, i) => { live.onRewind = (ply) => rewound(screen, keys[i], ply); });
  return { close: () => document.removeEventListener("keydown", onKey) };
}

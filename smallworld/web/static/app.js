// The web client: lobby, game screen, end screen and replay. Routes live in the hash
// (#/, #/game/ID, #/join/ID/INVITE, #/replay/ID; #/rules/EDITION and #/tutorial: rules.js,
// tutorial.js) so any server only serves index.html and /static.
// The client shows what the engine offers (the payload's `legal`, `explain`, `plan`) and sends
// exactly those actions; it never decides legality itself.
import * as api from "./api.js";
import * as W from "./i18n.js";
import { drawBoard, regionIndex, raceColour, raceName, abbrev } from "./board.js";
import * as N from "./names.js";
import { screenFor as playersScreen } from "./players.js";
import { ChatPanel } from "./chat.js";
import { RulesPage, markerCards, preload as preloadRules, rulesTop } from "./rules.js";
import { TutorialPage, attachHint, preload as preloadTutorial } from "./tutorial.js";
import * as U from "./undo.js";
import { Lobby } from "./lobby.js";
import { endPanel } from "./end.js";
import { Replay } from "./replay.js";
import * as R from "./redeploy.js";
import * as K from "./keys.js";
import { Live, NetworkError, whenBack, relabelOffline, keepWords, keptWords } from "./connection.js";
import { show } from "./patch.js";
import { Playback } from "./playback.js";
import * as Resign from "./resign.js";

export const app = document.getElementById("app");
const tooltip = document.getElementById("tooltip");
let screen = null; // the current screen object: {render(), close()}

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) { e.addEventListener(k.slice(2), v); e.__on = e.__closure = true; } // patch.js: replaced, never patched
    else if (k === "dataset") { for (const [dk, dv] of Object.entries(v)) if (dv !== undefined && dv !== null) e.dataset[dk] = dv; }
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    if (c.__closure || c.__holds) e.__holds = true; // patch.js: a listener's values live below
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}
const actionJson = (a) => JSON.stringify(a);
const CLOCK = "◷ "; // a clock face the usual fonts have (DejaVu's; the ⏱ emoji often is missing)

// A game's words are its edition's catalogues (race, power and place names differ between editions);
// each edition's are fetched once, and the client's own catalogue comes with every one.
const wordsOf = {};
let shownEdition = "warcraft"; // the edition whose words are loaded (the rules link follows it)
export async function useWords(edition) {
  const ed = edition || "warcraft";
  if (!wordsOf[ed]) { wordsOf[ed] = await api.words(ed); keepWords(wordsOf[ed]); }
  W.load(wordsOf[ed]);
  shownEdition = ed;
  relabel();
}

// A refusal of the server in the player's words (its reason and params; the message of anything
// that is not a refusal, a lost connection, as it comes).
export const refused = (e) => (e && e.body && e.body.code ? W.refusal(e.body) : e.message);

// ------------------------------------------------------------------------------- join
async function joinRoute(gameId, invite) {
  app.replaceChildren(h("form", { class: "panel lobby", id: "join-form", onsubmit: async (e) => {
    e.preventDefault();
    const name = document.getElementById("name").value.trim() || "Player";
    try {
      await api.ensurePlayer(name);
      await api.join(gameId, { invite }, name);
      location.hash = `#/game/${gameId}`;
    } catch (err) { if (!err.network) alert(refused(err)); } // out of reach: the banner says so (connection.js)
  } }, h("h2", {}, W.t("join")),
  h("label", {}, W.t("name"), " ", h("input", { id: "name", value: api.playerName() })),
  h("button", { type: "submit", id: "join-game", class: "primary" }, W.t("join"))));
}

// ------------------------------------------------------------------------------- game
class GameScreen {
  constructor(gameId) {
    this.id = gameId;
    this.info = null;
    this.tokens = api.seatTokens(gameId); // {seat: token}
    this.states = {}; // per held seat (or "spectator") the latest view answer
    this.rewoundTo = {}; // per key, the ply the game went back to (undo.js): an answer there is taken
    this.log = []; // [{ply, texts: {lang: [...]}}], one entry per move
    this.logPly = 0;
    this.scores = {}; // seat -> the last `score` event, in words
    this.selected = null;
    this.plan = null; // the redeployment being edited: {ref: {tokens, ...troops}}
    this.planHistory = [];
    this.message = null;
    this.lives = [];
    this.liveOf = {}; // held seat (or "spectator") -> its connection
    this.holdRedrawsWhilePressed();
    this.playback = new Playback(this); // the other players' moves, step by step (playback.js)
    this.notify = localStorage.getItem("sw.notify") === "1"; // opted in once, for every game
    this.status = "online";
    this.start();
  }
  // A redraw replaces every button, so one between a press and its release would send the click to
  // no button at all: the person's click (an update or a playback step arriving mid-press) lost.
  // Redraws wait for the release (or a second at most: a press dragged out of the window).
  holdRedrawsWhilePressed() {
    this.pressed = null;
    this.redrawHeld = false;
    const release = () => {
      if (this.pressed === null) return;
      clearTimeout(this.pressed);
      this.pressed = null;
      // After the click that this release makes, which goes to the button pressed (and not if
      // that click left the game for another screen).
      if (this.redrawHeld) { this.redrawHeld = false; setTimeout(() => { if (screen === this) this.render(); }, 0); }
    };
    this.pressHooks = [["pointerdown", () => { release(); this.pressed = setTimeout(release, 1000); }],
      ["pointerup", release], ["pointercancel", release]];
    for (const [name, fn] of this.pressHooks) document.addEventListener(name, fn, true);
  }
  heldSeats() { return Object.keys(this.tokens).map(Number).sort((a, b) => a - b); }
  actingSeat() { const st = this.shown().st; return st && st.view.phase !== "over" ? st.view.acting_seat : -1; }
  async start() {
    try {
      this.info = await api.gameInfo(this.id);
      await useWords(this.info.settings?.edition);
      this.board = await api.board(this.id);
      await preloadRules(this.info.settings?.edition); // which markers are Artifacts, which Places
      await preloadTutorial(this.id); // a lesson's hints
    } catch (e) { app.replaceChildren(h("p", { class: "error" }, refused(e))); return; }
    this.index = regionIndex(this.board);
    // A logged-in browser without this game's seat tokens (the account's other device): the
    // session reads as the account's seat, if it holds one (docs/players.md).
    if (!this.heldSeats().length && api.loggedIn()) {
      try {
        const mine = await api.view(this.id, null);
        if (Number.isInteger(mine.seat)) { this.tokens = { [mine.seat]: null }; this.bySession = true; }
      } catch { /* a spectator, as before */ }
    }
    const keys = this.heldSeats().length ? this.heldSeats() : ["spectator"];
    // One socket per held seat (connection.js): its first message is the seat's view, with the
    // primary seat's moves from the first of the game (the log); only where none comes in a few
    // seconds is the view fetched.
    for (const k of keys) {
      const token = k === "spectator" ? null : this.tokens[k];
      const live = new Live(this.id, token, k === keys[0] ? 0 : null, (ans, mv) => this.receive(k, ans, mv), (st) => this.setStatus(st),
        this.bySession ? k : null);
      this.lives.push(live);
      this.liveOf[k] = live;
    }
    const slow = (live) => new Promise((resolve) => setTimeout(resolve, 4000)).then(() => live.delivered || live.catchUp());
    await Promise.all(this.lives.map((live) => Promise.race([live.ready, slow(live)])));
    // Until every seat is taken the game waits on others and no ply marks the moment it starts:
    // look again every 2 s (a socket message, where the server sends one, comes sooner).
    this.opener = setInterval(() => {
      if (this.info.status !== "open") clearInterval(this.opener);
      else for (const l of this.lives) l.catchUp();
    }, 2000);
    this.chat = new ChatPanel(this); // chat.js: its panel, fed by the first connection's socket
    this.lives[0].onChat = (m) => this.chat.receive(m);
    window.__sw = this; // test hook (docs/web.md): the screen, its answers and its connections
    this.undoHooks = U.install(this); // undo.js: the `u` key, and the page going back with the game
    this.ticker = setInterval(() => this.tick(), 250);
    this.render();
  }
  // "Try again" while the server is out of reach (connection.js): a screen that never loaded loads
  // again; a loaded one reconnects and catches up.
  retry() {
    if (!this.index) { route(); return; }
    for (const l of this.lives) { l.failures = 0; l.reconnectNow(); l.catchUp(); }
  }
  close() {
    for (const l of this.lives) l.close();
    this.playback.close();
    clearInterval(this.opener);
    clearInterval(this.ticker);
    for (const [name, fn] of this.pressHooks) document.removeEventListener(name, fn, true);
    clearTimeout(this.pressed);
    if (this.undoHooks) this.undoHooks.close();
    window.__sw = null;
  }
  // The connection's state in words (connection.js): online, lost (retrying) or offline; the
  // hot-seat's worst. A network error shown for a send clears once the connection is back.
  setStatus() {
    const order = ["online", "lost", "offline"];
    const status = this.lives.map((l) => l.status || "online").reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a), "online");
    this.status = status;
    const c = document.getElementById("conn");
    if (c.dataset.status === status) return;
    c.dataset.status = status;
    c.textContent = connWords(status);
    if (status === "online" && this.message && this.message.network) { this.message = null; this.render(); }
  }
  primaryKey() { return this.heldSeats().length ? this.heldSeats()[0] : "spectator"; }
  receive(key, answer, moves) {
    const prev = this.states[key];
    // An answer older than the one shown is one overtaken by a newer, unless the game went back
    // (an undo) and it is the first at or after the ply it went back to.
    const back = this.rewoundTo[key];
    const taken = back !== undefined && answer.view.ply >= back;
    if (taken) delete this.rewoundTo[key];
    const stale = Boolean(prev) && answer.view.ply < prev.view.ply && !taken;
    if (key === this.primaryKey()) {
      // Moves of seats this browser does not hold, after the first answer: played back (playback.js).
      const held = new Set(this.heldSeats());
      const others = prev ? moves.filter((m) => m.ply >= this.logPly && !held.has(m.seat)) : [];
      for (const m of moves) {
        if (m.ply < this.logPly) continue;
        this.logPly = m.ply + 1;
        const texts = m.texts || { [W.current()]: m.events.map((ev) => this.eventFallback(ev)) };
        this.log.push({ ply: m.ply, texts });
        m.events.forEach((ev, i) => {
          const one = Object.fromEntries(Object.entries(texts).map(([l, t]) => [l, [t[i]]]));
          if (ev.type === "score") this.scores[ev.seat] = one;
          if (ev.type === "die" && held.has(m.seat)) this.die = { roll: ev.roll, success: ev.success, at: Date.now() };
        });
      }
      // (the state first: the playback draws on it)
      if (!stale) this.states[key] = answer;
      if (prev && !stale) this.playback.enqueue(others, this.playback.regions ? null : prev.view);
      this.playback.settle();
    }
    if (stale) return;
    // A message about the last state (a refusal, a lost send) goes once the game has moved on.
    if (this.message && answer.view.ply > (this.message.ply ?? prev?.view.ply ?? Infinity)) this.message = null;
    if (answer.seats) this.info = { ...this.info, seats: answer.seats, status: answer.status };
    if (!prev || taken || answer.view.ply > prev.view.ply || (prev.legal.length === 0) !== (answer.legal.length === 0)) {
      this.plan = null;
      this.planHistory = [];
    }
    this.states[key] = answer;
    this.render();
  }
  eventFallback(ev) {
    return Object.entries(ev).map(([k, v]) => (k === "type" ? v : k === "seat" && Number.isInteger(v) ? N.mark(v) : `${k} ${JSON.stringify(v)}`)).join(", ");
  }
  // The legal actions with their words: [{action, text: {lang: words} | null}].
  items(st) {
    const texts = (st.texts && st.texts.legal) || {};
    return st.legal.map((action, i) => ({
      action,
      text: Object.fromEntries(Object.entries(texts).map(([l, t]) => [l, t[i]])),
    }));
  }
  actionWords(item) {
    const w = W.pick(item.text);
    if (w) return w;
    const a = item.action;
    const r = a.region && this.index[a.region];
    return [a.kind, r ? `${r.n} ${r.name}` : "", a.arg === undefined || a.arg === null ? "" : JSON.stringify(a.arg)].join(" ").trim();
  }
  // The answer to show: the seat to act among those this browser holds (hot-seat), else the first.
  shown() {
    const held = this.heldSeats();
    if (!held.length) return { key: "spectator", st: this.states.spectator };
    const latest = held.map((k) => this.states[k]).filter(Boolean).reduce((a, b) => (b.view.ply > a.view.ply ? b : a));
    const acting = held.find((k) => this.states[k] && this.states[k].view.ply === latest.view.ply && this.states[k].legal.length);
    const key = acting ?? held[0];
    return { key, st: this.states[key] };
  }
  // What a refusal's words need from the table: region names, the pieces' units, the reader's seat.
  names(viewer) {
    return { region: (ref) => this.index[ref], pieces: this.board.pieces, viewer };
  }
  // A player's one name (names.js), "(you)" added for the seat shown; `who`: with its colour dot;
  // `rich`/`plain`: a text of the server's (or the page's, with N.mark) with its seats named.
  seatLabel(i, viewer) {
    const name = N.playerName(this.info.seats, i);
    return i === viewer ? `${name} (${W.t("you")})` : name;
  }
  who(i, viewer) { return N.tag(this.info.seats, i, this.seatLabel(i, viewer)); }
  // What a conquest pays and to whom (explain's `dues`): each payee by name, or the stash.
  duesText(dues) {
    return dues.map((d) => W.t("names.due", { coins: d.coins, why: W.unitName(d.why),
      who: Number.isInteger(d.payee) ? this.seatLabel(d.payee) : W.text("core", "stash") })).join(", ");
  }
  rich(text) { return N.rich(text, this.info.seats); }
  plain(text) { return N.plain(text, this.info.seats); }
  async send(action) {
    const { key, st } = this.shown();
    const live = this.liveOf[key];
    const ply = st.view.ply;
    this.message = null;
    try {
      // Over the seat's socket (no HTTP request; the update comes before the answer), or over HTTP
      // where the socket is down (connection.js).
      await live.act(Number(key), ply, action);
      if (action.kind === "plan") R.forgetPlans(this.id, key);
    } catch (e) {
      const b = e.body || {};
      if (e instanceof NetworkError || e instanceof TypeError) {
        // Not sent: the connection is gone. Said in words; it clears once the connection is back.
        this.message = { error: true, network: true, ply, text: W.t("live.not_sent") };
      } else if (b.code === "stale_ply") {
        // Another window of this seat moved first: the page takes the game as it is now.
        await live.catchUp();
        this.message = { error: false, ply: this.shown().st.view.ply, text: W.t("live.moved_on") };
      } else {
        // The refusal's own words from its reason, in the player's language (the server's English
        // message only when the answer is not a refusal at all).
        const said = b.code ? W.refusal(b, this.names(Number(key))) : e.message;
        this.message = { error: true, ply, text: `${W.t("error")}: ${said}` };
      }
      this.render();
    }
  }
  render() {
    if (this.pressed !== null) { this.redrawHeld = true; return; }
    const { key, st } = this.shown();
    if (!st) return;
    this.syncClock();
    // The tooltip goes while the board is redrawn, and comes back after it (keepTip): a playback's
    // step redraws the board under a still pointer (issue 28, item 4).
    const tip = tooltip.hidden ? null : tooltip.dataset.region;
    tooltip.hidden = true;
    const v = st.view;
    const viewer = v.viewer;
    const acting = st.legal.length > 0;
    this.announce(st, key, acting);
    const redeploy = st.plan && !v.pending.length;
    if (redeploy) R.startPlan(this, key, st);
    const offered = new Set(st.legal.filter((l) => l.region).map((l) => l.region));
    if (redeploy) for (const r of st.plan.offered) offered.add(r);
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("id", "board");
    svg.setAttribute("class", "board");
    const shownView = redeploy ? this.planView(this.playback.view(v)) : this.playback.view(v);
    drawBoard(svg, this.board, shownView, offered, this.selected);
    this.playback.decorate(svg);
    this.wireBoard(svg);
    const root = h("div", { id: "game", class: "game", dataset: { ply: v.ply, phase: v.phase, viewer: viewer ?? "", acting: acting ? "yes" : "no" } },
      // The screen's heading, for those who read by headings (axe: page-has-heading-one).
      h("h1", { class: "sr-only" }, W.t("game.heading", { title: this.info.title || W.t(`edition.${this.info.settings?.edition || "warcraft"}`) })),
      h("section", { class: "board-wrap", "aria-label": W.t("board") }, this.playback.bar(), this.dieBox(), svg),
      h("aside", { class: "side" },
        this.statusPanel(st, key), this.messagePanel(), this.resultPanel(st),
        redeploy ? R.redeployPanel(this, key, st, h) : this.decisionsPanel(st), U.panel(this, st),
        this.regionPanel(st), this.allActionsPanel(st), this.combosPanel(st), this.playersPanel(st), this.roundPanel(st),
        this.scorePanel(st), this.invitePanel(), Resign.panel(this, st, key), this.logPanel()));
    const focused = K.memo();
    const sideScroll = document.querySelector(".side")?.scrollTop;
    attachHint(root, this.id, st); // a tutorial lesson's hint (tutorial.js)
    if (this.chat) this.chat.attach(root);
    show(app, root); // in place: only what changed is touched (patch.js)
    if (sideScroll) document.querySelector(".side").scrollTop = sideScroll;
    K.placeRegionPanel(); // on a phone: beside the region tapped
    K.restore(focused, this); // the same control, or the panel now in use (keys.js)
    if (tip) this.keepTip(tip);
  }
  // After a redraw, the tooltip of the region still under the mouse (the board may have moved
  // under it) or of the region focused from the keyboard, with the facts as they are now.
  keepTip(was) {
    const st = { view: this.playback.view(this.shown().st.view) };
    const focused = document.activeElement?.closest?.("#board [data-region]");
    if (focused && focused.dataset.region === was && focused.matches(":focus-visible")) {
      const b = focused.getBoundingClientRect();
      this.showTip(was, st, { clientX: b.right, clientY: b.top });
      return;
    }
    const p = this.pointer;
    const under = p && !this.tipQuiet ? document.elementFromPoint(p.x, p.y)?.closest?.("#board [data-region]") : null;
    if (under) this.showTip(under.dataset.region, st, { clientX: p.x, clientY: p.y });
  }
  // "Your turn": the tab's title always; a browser notification (opted in with #notify, kept in
  // localStorage) once per turn of a seat this browser holds, when the tab is not being looked at.
  // A turn is the round, the seat whose turn it is and the seat deciding (a defender's placement
  // in someone else's turn is a turn of its own), so the decisions within one turn notify once.
  announce(st, key, acting) {
    const v = st.view;
    const title = W.has("edition", "name") ? W.text("edition", "name") : W.t("title");
    document.title = acting ? `● ${W.t("your_turn")} — ${title}` : title;
    if (!acting) return;
    const turn = `${v.round}:${v.turn_seat}:${key}`;
    if (turn === this.announced) return;
    this.announced = turn;
    if (!this.notify || !document.hidden || !("Notification" in window) || Notification.permission !== "granted") return;
    try {
      const n = new Notification(`${W.t("your_turn")} — ${title}`, {
        body: `${this.seatLabel(+key, -1)} · ${W.t("round", { n: v.round, of: st.rounds ?? "?" })}`, tag: `sw-${this.id}` });
      n.onclick = () => { window.focus(); n.close(); };
    } catch { /* notifications are optional: a browser may refuse them */ }
  }
  wireBoard(svg) {
    for (const g of svg.querySelectorAll("[data-region]")) {
      const ref = g.dataset.region;
      g.__on = true; // patch.js: a region that changed is replaced with its listeners
      // A region that did not change stays, listeners and all: they read the state when they run.
      const shown = () => this.shown().st;
      // (during a playback, the regions as the board shows them: playback.js)
      const seen = () => this.playback.view(shown().view);
      const st = { get view() { return seen(); } };
      // A click (or tap) leaves no tooltip behind: none for touch, and after a click none until the
      // mouse really moves (the redraw puts a new region under a still pointer).
      g.addEventListener("click", () => { this.tipQuiet = true; this.selected = ref; this.message = null; this.render(); });
      g.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.selected = ref; this.focusPanel = true; this.render(); }
      });
      g.addEventListener("pointerenter", (e) => {
        if (e.pointerType === "mouse") this.pointer = { x: e.clientX, y: e.clientY };
        if (e.pointerType === "mouse" && !this.tipQuiet) this.showTip(ref, st, e);
      });
      g.addEventListener("pointermove", (e) => {
        if (e.pointerType !== "mouse") return;
        this.pointer = { x: e.clientX, y: e.clientY };
        if (e.movementX || e.movementY) this.tipQuiet = false;
        if (this.tipQuiet) return;
        if (tooltip.hidden || tooltip.dataset.region !== ref) this.showTip(ref, st, e);
        else this.moveTip(e);
      });
      g.addEventListener("pointerleave", (e) => { tooltip.hidden = true; if (e.pointerType === "mouse") this.pointer = null; });
      g.addEventListener("focus", () => {
        // Keyboard focus shows the facts a mouse would; a focus restored after a click does not.
        if (!g.matches(":focus-visible")) return;
        const b = g.getBoundingClientRect();
        this.showTip(ref, st, { clientX: b.right, clientY: b.top });
      });
      g.addEventListener("blur", () => { tooltip.hidden = true; });
    }
  }
  regionFacts(ref, st) {
    const r = this.index[ref];
    const here = st.view.regions[ref];
    // "Pandaren ×1 (Greedy bot)"; the reader's own "Orcs ×1 (you)", not "(Ada (you))".
    const owner = here && here.race ? this.ownerOf(st.view, here.race) : null;
    const by = owner === null ? "" : ` (${owner === st.view.viewer ? W.t("you") : this.seatLabel(owner)})`;
    const holder = here && here.race ? `${raceName(here.race)} ×${here.tokens}${by}` : W.t("nobody");
    return {
      title: `${r.n} ${r.name}`,
      terrain: [W.terrain(r.terrain), ...r.features.map((f) => W.feature(f, r.side.size).trim())].join(", "),
      neighbours: r.adjacent.map((a) => this.index[a].name).join(", "),
      holder,
    };
  }
  ownerOf(view, race) {
    const i = view.seats.findIndex((s) => s.active === race || s.declined === race || (s.more_declined || []).includes(race));
    return i < 0 ? null : i;
  }
  showTip(ref, st, e) {
    const f = this.regionFacts(ref, st);
    tooltip.replaceChildren(h("strong", {}, f.title), h("div", {}, `${W.t("terrain")}: ${f.terrain}`),
      h("div", {}, `${W.t("holder")}: ${f.holder}`), h("div", {}, `${W.t("neighbours")}: ${f.neighbours}`),
      markerCards((st.view.markers || {})[ref]) || "");
    tooltip.hidden = false;
    tooltip.dataset.region = ref;
    this.moveTip(e);
  }
  moveTip(e) {
    const x = Math.min(e.clientX + 14, window.innerWidth - tooltip.offsetWidth - 4);
    const y = Math.min(e.clientY + 14, window.innerHeight - tooltip.offsetHeight - 4);
    tooltip.style.left = `${Math.max(4, x)}px`;
    tooltip.style.top = `${Math.max(4, y)}px`;
  }
  dieBox() {
    if (!this.die || Date.now() - this.die.at > 8000) return null;
    // The reinforcement die shows 0 to 3 (§1.4: faces 0, 0, 0, 1, 2, 3): the face is the number.
    // Above the board, where it covers no region name, with whether the attempt succeeded.
    return h("div", { class: `die ${this.die.success ? "won" : "lost"}`, id: "die", role: "status", "aria-live": "polite",
      dataset: { roll: this.die.roll } },
      h("span", { class: "die-face", "aria-hidden": "true" }, this.die.roll),
      `${W.t("die")}: ${this.die.roll} — ${W.t(this.die.success ? "pb.die_won" : "pb.die_lost")}`);
  }
  actionButton(item, extra = {}) {
    return h("button", { class: `action kind-${item.action.kind}`, dataset: { action: actionJson(item.action) },
      onclick: () => this.send(item.action), ...extra }, ...this.rich(this.actionWords(item)));
  }
  statusPanel(st, key) {
    const v = st.view;
    const acting = st.legal.length > 0;
    const held = this.heldSeats();
    return h("section", { class: "panel status", id: "status", "aria-live": "polite", tabindex: -1 },
      h("div", { class: "phase" }, `${W.t("round", { n: v.round, of: st.rounds ?? "?" })} · ${W.phase(v.phase)}`),
      h("div", { class: acting ? "turn mine" : "turn" },
        v.phase === "over" ? W.t("game_over") : this.info.status === "open" ? W.t("not_started")
          : acting ? W.t("your_turn") : this.rich(W.t("waiting", { who: N.mark(v.acting_seat) }))),
      // The running clock, with whose it is.
      v.acting_seat >= 0 && this.clock && this.clock.seat === v.acting_seat
        ? h("div", { class: "turn-clock" }, this.who(v.acting_seat, v.viewer), " ", this.runningClock(v.acting_seat, { id: "turn-clock" })) : null,
      held.length > 1 && acting ? h("div", { class: "hotseat" }, ...this.rich(W.t("hotseat_pass", { who: N.mark(+key) }))) : null,
      st.texts && st.texts.prompt ? h("div", { class: "prompt", id: "prompt" }, ...this.rich(W.pick(st.texts.prompt))) : null,
      key === "spectator" ? h("div", {}, W.t("spectator")) : null,
      // "Notify me": only for a player of a game still going on.
      key === "spectator" || v.result ? null : h("label", { class: "notify" }, h("input", { type: "checkbox", id: "notify", checked: !!this.notify, onchange: (e) => {
        this.notify = e.target.checked;
        localStorage.setItem("sw.notify", this.notify ? "1" : "");
        if (this.notify && "Notification" in window && Notification.permission === "default") Notification.requestPermission();
      } }), " ", W.t("notify")));
  }
  messagePanel() {
    if (!this.message) return null;
    return h("section", { class: `panel message${this.message.error ? " error" : ""}`, id: "message", role: "alert" }, this.message.text);
  }
  decisionsPanel(st) {
    // Decisions that name no region and are not picks: end, decline, expand, pass, prompt answers.
    const items = this.items(st).filter((l) => !l.action.region && l.action.kind !== "pick");
    if (!items.length) return null;
    return h("section", { class: "panel decisions", id: "decisions", "aria-label": W.t("actions") },
      h("h2", {}, W.t("actions")), h("div", { class: "buttons" }, ...items.map((i) => this.actionButton(i))));
  }
  // Every offered decision in one list, in the engine's order: the way to play without the map
  // (a screen reader, the keyboard alone), each button with its data-action.
  allActionsPanel(st) {
    if (!st.legal.length) return null;
    return h("section", { class: "panel all-actions", id: "all-actions" },
      h("details", {}, h("summary", {}, `${W.t("all_actions")} (${st.legal.length})`),
        h("div", { class: "buttons column" }, ...this.items(st).map((i) => this.actionButton(i)))));
  }
  regionPanel(st) {
    if (!this.selected || !this.index[this.selected]) return null;
    const ref = this.selected;
    // Its facts as the board shows them (during a playback, an earlier step's: playback.js), as the
    // tooltip's are; its decisions are the game's as it is now.
    const seen = { view: this.playback.view(st.view) };
    const f = this.regionFacts(ref, seen);
    const items = this.items(st).filter((l) => l.action.region === ref);
    const ex = st.explain ? st.explain[ref] : null;
    let explainBox = null;
    if (ex && ex.reasons.length) {
      explainBox = h("div", { class: "explain refused", id: "explain" }, h("strong", {}, W.t("cannot_attack")),
        // The reason in the player's language, from its words and parameters as the terminal tells it
        // (the engine's English sentence is for programs: never shown).
        h("ul", {}, ...ex.reasons.map((r) => h("li", { dataset: { rule: r.rule, code: r.code, reason: r.reason } },
          W.told(r.reason, r.params, r.rule, this.names(st.seat))))));
    } else if (ex && ex.ways.length) {
      explainBox = h("div", { class: "explain", id: "explain" }, h("strong", {}, W.t("conquest_cost")),
        ...ex.ways.map((w) => h("div", { class: "way" },
          h("ul", {}, ...w.terms.map((t) => h("li", {}, `${W.has("web", `term.${t.term}`) ? W.t(`term.${t.term}`) : t.term}${t.unit && t.unit !== "core" ? ` (${W.unitName(t.unit)})` : ""}: ${t.value > 0 && t.term !== "base" && t.term !== "minimum" ? "+" : ""}${t.value}`))),
          h("div", { class: "total" }, `${w.option ? `${w.option} · ` : ""}${W.t("total")}: ${w.cost}${w.dues && w.dues.length ? ` · ${W.t("dues")}: ${this.duesText(w.dues)}` : ""}`))));
    }
    return h("section", { class: "panel region-info", id: "region-info", dataset: { region: ref } },
      h("h2", {}, f.title),
      h("div", {}, `${W.t("terrain")}: ${f.terrain}`), h("div", {}, `${W.t("holder")}: ${f.holder}`),
      h("div", {}, `${W.t("neighbours")}: ${f.neighbours}`),
      markerCards((seen.view.markers || {})[ref]), // the rules cards of its Artifacts and Places
      explainBox, items.length && !st.plan ? h("div", { class: "buttons" }, ...items.map((i) => this.actionButton(i))) : null);
  }
  // --- redeployment: +/- per region, undo, and one "done" that sends the whole plan
  planView(v) {
    const out = { ...v, regions: { ...v.regions } };
    for (const [ref, p] of Object.entries(this.plan)) out.regions[ref] = { ...(v.regions[ref] || {}), race: (v.regions[ref] || {}).race || this.planRace(v), tokens: p.tokens };
    return out;
  }
  planRace(v) { const s = v.seats[v.viewer]; return s ? s.active : null; }
  combosPanel(st) {
    const v = st.view;
    const picks = this.items(st).filter((l) => l.action.kind === "pick");
    const byArg = new Map(picks.map((p) => [p.action.arg ?? 0, p]));
    const rows = (v.row || []).map((c, i) => {
      const item = byArg.get(i);
      return h("li", { class: "combo", dataset: { position: i } },
        h("span", { class: "emblem", style: `background:${raceColour(c.race)}` }, abbrev(c.race)),
        h("span", { class: "combo-name" }, h("strong", {}, `${W.unitName(c.power)} ${W.unitName(c.race)}`),
          h("small", {}, ` · ${W.t("cost", { n: i })}${c.coins ? ` · ${W.t("coins_on", { n: c.coins })}` : ""}`)),
        item ? this.actionButton(item, { "aria-label": this.plain(this.actionWords(item)) }) : null,
        h("details", { class: "cards" }, h("summary", {}, W.t("card")),
          h("p", {}, h("strong", {}, W.unitName(c.race)), ": ", W.card(c.race)),
          h("p", {}, h("strong", {}, W.unitName(c.power)), ": ", W.card(c.power))));
    });
    // Other picks (the team variant's columns) are listed as the engine words them.
    const other = picks.filter((p) => !(v.row || []).length || !byArg.has(p.action.arg ?? 0));
    const offer = v.offer ? Object.entries(v.offer).map(([col, o]) => h("div", { class: "offer-col", dataset: { column: col } },
      h("strong", {}, col === "powers" ? W.t("powers") : W.faction(col)),
      h("ul", {}, ...o.rows.map((u) => h("li", { title: W.card(u) }, W.unitName(u)))), o.hidden ? h("small", {}, `+${o.hidden}`) : null)) : [];
    return h("section", { class: "panel combos", id: "combos" }, h("h2", {}, W.t("combos")),
      rows.length ? h("ol", { start: 0 }, ...rows) : null,
      offer.length ? h("div", { class: "offer", id: "offer" }, ...offer) : null,
      (v.row || []).length ? null : h("div", { class: "buttons" }, ...other.map((i) => this.actionButton(i))));
  }
  playersPanel(st) {
    const v = st.view;
    const n = v.seats.length;
    const order = [...Array(n).keys()].map((i) => (v.first_seat + i) % n);
    return h("section", { class: "panel players", id: "players" }, h("h2", {}, W.t("players")),
      h("ol", {}, ...order.map((i) => {
        const s = v.seats[i];
        const races = [
          s.active ? h("div", { class: "race active" }, h("span", { class: "emblem", style: `background:${raceColour(s.active)}` }, abbrev(s.active)),
            ` ${W.unitName(s.power)} ${raceName(s.active)} (${W.t("active")})`,
            h("details", { class: "cards" }, h("summary", {}, W.t("card")),
              h("p", {}, h("strong", {}, raceName(s.active)), ": ", W.card(s.active)),
              h("p", {}, h("strong", {}, W.unitName(s.power)), ": ", W.card(s.power)))) : null,
          ...[s.declined, ...(s.more_declined || [])].filter(Boolean).map((r) => h("div", { class: "race declined" },
            h("span", { class: "emblem declined" }, `↓${abbrev(r)}`), ` ${raceName(r)} (${W.t("declined")})`)),
        ];
        return h("li", { class: `player${i === v.acting_seat ? " to-act" : ""}`, dataset: { seat: i } },
          N.dot(i),
          h("strong", {}, this.seatLabel(i, v.viewer)),
          v.factions ? h("span", { class: "faction", dataset: { faction: v.factions[i] } }, ` · ${W.faction(v.factions[i])}`) : null,
          i === v.acting_seat ? h("em", {}, ` · ${W.t("to_act")}`) : null,
          h("div", { class: "coins", dataset: { coins: s.coins ?? "hidden" } }, s.coins === null ? W.t("coins_hidden") : `${s.coins} ${W.t("coins")}`),
          this.clockLine(i),
          h("div", {}, `${s.hand} ${W.t("tokens")} ${W.t("hand")}`), ...races);
      })));
  }
  // --- clocks. The server's seats carry `bank_ms` (a live game's time bank as the seat's decision
  // began) and `deadline` (epoch seconds: when the acting seat's time runs out, for a live bank or a
  // turn-by-turn game's deadline per decision). Only the seat on turn runs down: between updates
  // the page counts it down itself (`tick`). Other seats' `deadline`s are old ones and not shown.
  syncClock() {
    const st = this.shown().st;
    const kind = this.info.clock && this.info.clock.kind;
    const seat = st ? st.view.acting_seat : -1;
    const s = (this.info.seats || [])[seat];
    // A bot's decision, or an away seat's (a bot plays it), runs no clock.
    if (!st || !kind || this.info.status !== "playing" || st.view.result || !s || s.kind === "bot" || s.away) {
      this.clock = null;
      return;
    }
    const key = `${st.view.ply}:${seat}`;
    const now = Date.now();
    const seen = this.clock && this.clock.key === key ? this.clock.seen : now; // when this page saw it begin
    let ends = typeof s.deadline === "number" ? s.deadline * 1000 - api.serverSkewMs() : null;
    // A live bank bounds it too (and stands in where no deadline came).
    if (kind === "live" && typeof s.bank_ms === "number") ends = Math.min(ends ?? Infinity, seen + s.bank_ms);
    this.clock = ends === null ? null : { key, seat, kind, ends, seen };
  }
  clockLeftMs() { return this.clock ? Math.max(0, this.clock.ends - Date.now()) : 0; }
  // Time left as people read it: m:ss under an hour (whole seconds up), then hours and minutes
  // (a day's deadline reads "23 h 59 min"), then from two days on days and hours.
  formatLeft(ms) {
    const sec = Math.ceil(ms / 1000);
    if (sec < 3600) return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, "0")}`;
    const min = Math.floor(ms / 60000);
    if (min < 48 * 60) return W.t("clock.hours", { h: Math.floor(min / 60), m: min % 60 });
    return W.t("clock.days", { d: Math.floor(min / 1440), h: Math.floor((min % 1440) / 60) });
  }
  // The running clock of `seat` (the one on turn): a live bank or a decision's deadline, counting down.
  runningClock(seat, extra = {}) {
    const c = this.clock;
    if (!c || c.seat !== seat) return null;
    const left = this.clockLeftMs();
    return h("span", { class: `clock-left${left < 30000 ? " low" : ""}`, role: "timer", dataset: { clockSeat: seat, leftMs: Math.round(left) },
      title: W.t("clock.due", { when: this.dueTime() }), ...extra }, this.clockText(left));
  }
  // When the running clock's time is up, as this computer's clock tells it.
  dueTime() {
    return new Date(this.clock.ends).toLocaleString(W.current(), { weekday: "short", hour: "2-digit", minute: "2-digit" });
  }
  // "◷ 9:41 left"; turn by turn, while more than an hour is left, with the time it is due too (a
  // player who comes back later reads the day and the hour, not a count).
  clockText(left) {
    const due = this.clock.kind === "turn" && left >= 3600000 ? ` · ${W.t("clock.due", { when: this.dueTime() })}` : "";
    return `${CLOCK}${W.t("clock.left", { time: this.formatLeft(left) })}${due}`;
  }
  // Between updates: every quarter second, the running clock's text (only where it changed).
  tick() {
    if (!this.clock) return;
    const left = this.clockLeftMs();
    const text = this.clockText(left);
    for (const e of document.querySelectorAll(`.clock-left[data-clock-seat="${this.clock.seat}"]`)) {
      e.dataset.leftMs = Math.round(left);
      if (e.textContent !== text) e.textContent = text;
      e.classList.toggle("low", left < 30000);
    }
  }
  // A seat's clock in the players' list: running for the seat on turn; a live game's other seats
  // show their banks, standing still.
  clockLine(i) {
    const s = (this.info.seats || [])[i] || {};
    const bits = [];
    const running = this.runningClock(i);
    if (running) bits.push(running);
    else if (this.info.clock && this.info.clock.kind === "live" && typeof s.bank_ms === "number" && !s.away) {
      bits.push(`${CLOCK}${W.t("clock.bank", { time: this.formatLeft(s.bank_ms) })}`);
    }
    if (s.away) bits.push(W.t("away"));
    return bits.length ? h("div", { class: "clock", dataset: { seatClock: i } }, ...bits.flatMap((b, j) => (j ? [" · ", b] : [b]))) : null;
  }
  roundPanel(st) {
    const v = st.view;
    const rounds = st.rounds || v.round;
    return h("section", { class: "panel rounds", id: "rounds", "aria-label": W.t("round", { n: v.round, of: rounds }) },
      h("ol", { class: "track" }, ...[...Array(rounds).keys()].map((i) =>
        h("li", { class: i + 1 === v.round ? "now" : i + 1 < v.round ? "past" : "", "aria-current": i + 1 === v.round ? "step" : null }, i + 1))));
  }
  scorePanel(st) {
    const entries = Object.entries(this.scores);
    if (!entries.length) return null;
    return h("section", { class: "panel scoring", id: "scoring" }, h("h2", {}, W.t("score")),
      h("ul", {}, ...entries.map(([seat, s]) => h("li", { dataset: { seat } }, ...this.rich(W.pick(s))))));
  }
  invitePanel() {
    let invites = [];
    try { invites = JSON.parse(localStorage.getItem(`sw.invites.${this.id}`) || "[]"); } catch { invites = []; }
    if (!invites.length) return null;
    return h("section", { class: "panel invites", id: "invites" }, h("h2", {}, W.t("invite_link")),
      ...invites.map((i) => h("div", { class: "invite" }, this.who(i.seat), ": ",
        h("input", { readonly: true, value: i.link, class: "invite-link", "aria-label": W.t("invite_link") }),
        h("button", { onclick: () => navigator.clipboard && navigator.clipboard.writeText(i.link) }, W.t("copy")))));
  }
  logPanel() {
    const lines = this.log.slice(-200).flatMap((e) => W.pick(e.texts).map((t) => h("li", { dataset: { ply: e.ply } }, ...this.rich(t))));
    // Scrolled on its own: a stop in the tab order, named by its heading (axe: scrollable-region-focusable).
    return h("section", { class: "panel log", id: "log" }, h("h2", { id: "log-title" }, W.t("log")),
      h("ol", { reversed: true, tabindex: 0, "aria-labelledby": "log-title" }, ...lines.reverse()));
  }
  // The end screen (end.js): the verdict, the final coins, the tie-break, the chart and breakdown.
  resultPanel(st) { return endPanel(this, st); }
}

// ------------------------------------------------------------------------------- router
function route() {
  if (screen) screen.close();
  tooltip.hidden = true;
  // The connection's state belongs to a game's screen (GameScreen.setStatus, connection.js).
  const conn = document.getElementById("conn");
  if (conn.dataset.status && conn.dataset.by !== "http") { delete conn.dataset.status; conn.textContent = ""; }
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "game" && parts[1]) screen = new GameScreen(parts[1]);
  else if (parts[0] === "replay" && parts[1]) screen = new Replay(parts[1]);
  else if (parts[0] === "join" && parts[1]) { screen = null; joinRoute(parts[1], parts[2]); }
  else if (parts[0] === "rules") screen = new RulesPage(app, parts[1], parts[2], useWords); // rules.js
  else if (parts[0] === "tutorial") screen = new TutorialPage(app, useWords); // tutorial.js
  else screen = playersScreen(parts) || new Lobby(); // players.js: leaderboard, profiles, tournaments
}

// The connection's state, as the header says it.
const connWords = (status) => (status === "lost" ? W.t("connection_lost") : W.t(`live.${status}`));

function relabel() {
  document.documentElement.lang = W.current();
  const conn = document.getElementById("conn");
  if (conn.dataset.status) conn.textContent = connWords(conn.dataset.status);
  document.getElementById("lang").value = W.current();
  document.getElementById("lang-label").textContent = W.t("language");
  // The edition being shown names the page (the lobby's is the server's default, Warcraft).
  document.getElementById("brand").textContent = W.has("edition", "name") ? W.text("edition", "name") : W.t("title");
  rulesTop(shownEdition);
  K.relabel();
  relabelOffline();
}

async function main() {
  K.install(() => screen); // skip links, shortcuts and their help (keys.js)
  try { await useWords("warcraft"); } catch (e) {
    if (!e.network) throw e;
    // The server out of reach from the start: said in the words kept from the last visit, and the
    // page goes on once the words come (connection.js tries again).
    const kept = keptWords();
    if (kept) W.load(kept);
    relabel();
    app.replaceChildren(h("p", { class: "error panel", id: "unreachable" }, W.t("conn.unreachable")));
    await new Promise((resolve) => whenBack(() => useWords("warcraft").then(resolve)));
  }
  whenBack(() => (screen && screen.retry ? screen.retry() : route()));
  document.getElementById("lang").addEventListener("change", (e) => {
    W.setLang(e.target.value);
    relabel();
    if (screen) screen.render();
    else route();
  });
  window.addEventListener("hashchange", route);
  // The board's layout follows the screen (one column on a phone held upright).
  const narrow = window.matchMedia("(max-width: 760px)");
  narrow.addEventListener("change", () => { if (screen && screen.board) screen.render(); });
  route();
}
main();
